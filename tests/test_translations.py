"""Polish is complete and the default; every template string is marked for translation."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.template.base import Lexer, TokenType
from django.utils import translation

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "pl" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")
# Text a template may show untranslated: seat letters, symbols, numbers, names of the game's things.
ALLOWED_TEXT = re.compile(r"^(?:[\W\d_]|[A-D]\b|PIN\b|PL\b|EN\b|QR\b|CSV\b|XLSX\b|PDF\b|♣|×|bok\b)*$")
# Print templates carry their CSS in a block of their own, outside any <style> tag.
CSS_LINE = re.compile(r"^/\*.*\*/$|^[^{}]*\{[^{}]*\}$|^[\w\s.#@:,>*()\[\]=\"-]*\{$|^\}$|^[\w-]+\s*:[^;]*;")
TRANSLATABLE_ATTRIBUTES = re.compile(r'\b(?:title|placeholder|aria-label|alt)="([^"{]*[A-Za-zĄ-ż][^"{]*)"')


@pytest.fixture(scope="module")
def catalog() -> polib.POFile:
    return polib.pofile(str(PO))


def test_every_polish_entry_is_translated_and_not_fuzzy(catalog):
    assert catalog.untranslated_entries() == []
    assert catalog.fuzzy_entries() == []


def test_polish_plurals_have_three_forms(catalog):
    assert "nplurals=3" in catalog.metadata["Plural-Forms"]
    for entry in catalog:
        if entry.msgid_plural:
            assert len(entry.msgstr_plural) == 3 and all(entry.msgstr_plural.values()), entry.msgid


def test_translations_keep_every_placeholder(catalog):
    for entry in catalog.translated_entries():
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in translations:
            # a subset: a Polish singular may spell out its number, but may name nothing the source lacks
            assert set(PLACEHOLDER.findall(text)) <= set(PLACEHOLDER.findall(entry.msgid + entry.msgid_plural)), (
                entry.msgid
            )


def test_the_compiled_catalog_matches_the_po_file(catalog):
    compiled = polib.mofile(str(PO.with_suffix(".mo")))
    assert {(e.msgctxt, e.msgid): e.msgstr for e in compiled if not e.msgid_plural} == {
        (e.msgctxt, e.msgid): e.msgstr for e in catalog.translated_entries() if not e.msgid_plural
    }


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext (xgettext)")
def test_the_po_file_holds_every_string_of_the_code(tmp_path, catalog):
    """A string added to code or a template without re-running makemessages fails here."""
    for name in ("league", "players", "scoring", "templates", "manage.py"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    (tmp_path / "locale").mkdir()
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "pl", "--no-location"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    fresh = polib.pofile(str(tmp_path / "locale" / "pl" / "LC_MESSAGES" / "django.po"))
    missing = {(e.msgctxt, e.msgid) for e in fresh} - {(e.msgctxt, e.msgid) for e in catalog}
    assert not missing, f"run makemessages and translate: {sorted(missing)[:10]}"


def visible_source(path: Path) -> str:
    """The template with tags and variables blanked out and translated blocks dropped."""
    parts, in_translation = [], False
    for token in Lexer(path.read_text()).tokenize():
        if token.token_type == TokenType.BLOCK:
            word = token.contents.split()[0] if token.contents else ""
            in_translation = (in_translation or word in {"blocktranslate", "blocktrans"}) and word not in {
                "endblocktranslate",
                "endblocktrans",
            }
            parts.append("\x00")
        elif token.token_type == TokenType.VAR:
            parts.append("\x00")
        elif token.token_type == TokenType.TEXT and not in_translation:
            parts.append(token.contents)
    return "".join(parts)


def untranslated_text(path: Path) -> list[str]:
    source = visible_source(path)
    # an example of shorthand (placeholder="ac60") is code, not prose
    problems = [
        value for value in TRANSLATABLE_ATTRIBUTES.findall(source) if not re.fullmatch(r"[a-z]{1,3}\d*[+-]?", value)
    ]
    # code examples (<code>ac60</code>) and scripts are not prose
    visible = re.sub(r"<(script|style|code)\b.*?</\1>", " ", source, flags=re.S)
    visible = re.sub(r"<[^>]*>|&[a-z#0-9]+;", " ", visible, flags=re.S)
    for chunk in visible.replace("\x00", "0").split("\n"):
        chunk = chunk.strip()
        if chunk and not ALLOWED_TEXT.match(chunk) and not CSS_LINE.match(chunk):
            problems.append(chunk)
    return problems


@pytest.mark.parametrize(
    "template", sorted((ROOT / "templates").rglob("*.html")), ids=lambda p: str(p.relative_to(ROOT / "templates"))
)
def test_every_template_string_is_marked_for_translation(template):
    assert untranslated_text(template) == []


@pytest.mark.django_db
def test_polish_is_the_default_language(client, settings):
    settings.LANGUAGE_CODE = "pl"
    with translation.override(None):
        response = client.get("/")
    assert response["Content-Language"] == "pl"
    with translation.override("pl"):
        assert translation.gettext("Deal calculator") != "Deal calculator"


@pytest.mark.parametrize(
    ("count", "said"),
    [
        (1, "Stolik jest potwierdzony."),
        (3, "Wszystkie 3 stoliki są potwierdzone."),
        (10, "Wszystkich 10 stolików jest potwierdzonych."),
        (22, "Wszystkie 22 stoliki są potwierdzone."),
        (25, "Wszystkich 25 stolików jest potwierdzonych."),
    ],
)
def test_the_close_page_counts_confirmed_tables_in_polish_grammar(count, said):
    from django.template import Context, Template

    template = Template(
        "{% load i18n %}{% blocktranslate count count=n %}The table is confirmed.{% plural %}"
        "All {{ count }} tables are confirmed.{% endblocktranslate %}"
    )
    with translation.override("pl"):
        assert template.render(Context({"n": count})) == said
