"""Every place the code cites in docs/ (``rules.md §4.3``, ``draw.md, "Counting bound"``) exists there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["league", "players", "scoring", "tests", "bench", "templates"]
SECTION = re.compile(r"\b(interfaces|rules|draw)\.md,?\s+§\s*(\d+(?:\.\d+)?)(?:\s*[–-]\s*(\d+))?")
TITLE = re.compile(r'\b(draw|rules|interfaces)\.md,\s+"([^"]+)"')


def cited() -> list[tuple[str, str, str]]:
    """(where, document, section number or title) for every citation in the code."""
    found = []
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in {".py", ".html"} or ".venv" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            where = str(path.relative_to(ROOT))
            for match in SECTION.finditer(text):
                document, first, last = match.groups()
                numbers = [first] if last is None else [str(n) for n in range(int(first), int(last) + 1)]
                found += [(where, document, number) for number in numbers]
            found += [(where, document, title) for document, title in TITLE.findall(text)]
    return found


def headings(document: str) -> list[str]:
    text = (ROOT / "docs" / f"{document}.md").read_text(encoding="utf-8")
    return [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("##")]


def test_the_code_cites_the_documents():
    documents = {document for _, document, _ in cited()}
    assert documents == {"interfaces", "rules", "draw"}


@pytest.mark.parametrize(("where", "document", "section"), cited(), ids=lambda value: str(value))
def test_every_cited_section_exists(where, document, section):
    titles = headings(document)
    if section[0].isdigit():
        assert any(re.match(rf"{re.escape(section)}\.?\s", title) for title in titles), (where, titles)
    else:
        assert any(title.lower() == section.lower() for title in titles), (where, titles)
