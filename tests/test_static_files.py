"""Static files as a phone needs them (issue 26): once collectstatic has run (`make run` and the
image run it), the pages link every file by a name carrying its content's hash, and the app's own
process (WhiteNoise) sends it compressed, brotli or gzip as the browser accepts, to be kept (a year
at least) without asking again. The scripts a public page and the table phone need weigh under 40 KB on the
wire. The rest of the suite serves static/ as it is (tests/conftest.py); these tests collect into
a folder of their own."""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import brotli
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse

from league.models import Series
from league.results.table import pin
from tests.factories import LeagueFactory, SeasonFactory, drawn_series
from tests.public.test_pages import league_tournament

# one process runs the module (--dist loadgroup), so collectstatic runs once
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("static_files")]

ROOT = Path(__file__).resolve().parent.parent
YEAR = 365 * 24 * 60 * 60
WIRE_BUDGET = 40_000  # bytes: htmx and every script a page needs, as a phone receives them
BROWSER = "gzip, deflate, br"  # what Chrome and Firefox on a phone send
WITHOUT_BROTLI = "gzip, deflate"
HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")
PLAIN = "django.contrib.staticfiles.storage.StaticFilesStorage"
MANIFEST = "whitenoise.storage.CompressedManifestStaticFilesStorage"


def storage_at_start(static_root: Path, **variables: str) -> list[str]:
    """The static files' storage and whether WhiteNoise reads the finders, as the app starts."""
    env = {**os.environ, "DJANGO_STATIC_ROOT": str(static_root), **variables}
    for name in {"DJANGO_STATIC_MANIFEST", "DJANGO_DEBUG"} - variables.keys():
        env.pop(name, None)
    code = "import league.settings as s; print(s.STORAGES['staticfiles']['BACKEND'], s.WHITENOISE_USE_FINDERS)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_the_embedded_app_serves_hashed_names_once_collectstatic_has_written_its_manifest(tmp_path):
    assert storage_at_start(tmp_path / "nothing-yet") == [PLAIN, "True"]
    (tmp_path / "staticfiles.json").write_text("{}")
    assert storage_at_start(tmp_path) == [MANIFEST, "False"]
    # with DEBUG the pages link the names of static/, so WhiteNoise finds the files being edited there
    assert storage_at_start(tmp_path, DJANGO_DEBUG="1") == [MANIFEST, "True"]
    assert storage_at_start(tmp_path, DJANGO_STATIC_MANIFEST="no") == [PLAIN, "True"]
    # the image sets it before its collectstatic has written anything
    assert storage_at_start(tmp_path / "nothing-yet", DJANGO_STATIC_MANIFEST="yes") == [MANIFEST, "False"]


def manifest_settings(root: Path) -> override_settings:
    """The settings with collectstatic's manifest in ``root`` (league/settings.py)."""
    return override_settings(
        STATIC_ROOT=root,
        STORAGES={**settings.STORAGES, "staticfiles": {"BACKEND": MANIFEST}},
        WHITENOISE_USE_FINDERS=False,
    )


@pytest.fixture(scope="module")
def static_root(tmp_path_factory) -> Path:
    """collectstatic as `make run` and the image run it, once for the module."""
    root = tmp_path_factory.mktemp("staticfiles")
    with manifest_settings(root):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def collected(static_root: Path) -> Path:
    with manifest_settings(static_root):
        yield static_root


def static_links(html: str) -> list[str]:
    """The static files a page links: stylesheets, icons and scripts."""
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', html)


def scripts(html: str) -> list[str]:
    """The scripts a page loads, with the table phone's service worker, which its script registers."""
    return re.findall(r'<script[^>]*\bsrc="([^"]+)"', html) + re.findall(r'data-sw-url="([^"]+)"', html)


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def table_phone_page() -> str:
    """The protocol page of a table in play, on a phone let in by the QR code's link and the PIN."""
    protocol = drawn_series(status=Series.Status.IN_PLAY).protocols.get()
    series = protocol.series
    args = [series.tournament.slug, series.number, protocol.table]
    phone = Client()
    let_in = phone.post(
        reverse("table:pin", args=args), {"pin": protocol.pin, "seat": "A", pin.TOKEN_PARAM: protocol.table_token}
    )
    assert let_in.status_code == 302
    page = phone.get(reverse("table:protocol", args=args))
    assert page.status_code == 200
    return page.content.decode()


def public_pages() -> dict[str, str]:
    """A league's page and a tournament's standings, as a spectator's phone opens them."""
    league = LeagueFactory()
    tournament = league_tournament(season=SeasonFactory(league=league), league=league)
    client = Client()
    pages = {}
    for url in (reverse("leagues:page", args=[league.slug]), reverse("public:standings", args=[tournament.slug])):
        response = client.get(url)
        assert response.status_code == 200, url
        pages[url] = response.content.decode()
    return pages


def test_after_collectstatic_a_page_links_every_static_file_by_its_hashed_name(client, collected):
    page = client.get("/").content.decode()

    links = static_links(page)
    assert any("/django_htmx/htmx-2.min." in link for link in links)
    assert any("/css/app." in link for link in links)
    for link in links:
        assert HASHED.search(link), link
        response = client.get(link)
        assert response.status_code == 200, link
        assert "immutable" in response["Cache-Control"], link


@pytest.mark.parametrize(("accepted", "sent"), [(BROWSER, "br"), (WITHOUT_BROTLI, "gzip"), ("", None)])
def test_htmx_goes_compressed_as_the_browser_accepts_and_is_kept_a_year(client, collected, accepted, sent):
    htmx = next(link for link in static_links(client.get("/").content.decode()) if "/htmx-2.min." in link)

    response = client.get(htmx, HTTP_ACCEPT_ENCODING=accepted)

    assert response.status_code == 200
    assert response.get("Content-Encoding") == sent
    assert response["Vary"] == "Accept-Encoding"
    max_age = int(re.search(r"max-age=(\d+)", response["Cache-Control"]).group(1))
    assert max_age >= YEAR and "immutable" in response["Cache-Control"]
    decompress = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[sent]
    original = Path(finders.find("django_htmx/htmx-2.min.js")).read_bytes()
    assert decompress(body(response)) == original
    if sent:
        assert len(body(response)) < len(original) / 3


def test_the_name_carries_the_content_s_hash_so_a_changed_file_is_fetched_anew(client, collected):
    linked = re.search(r'href="/static/css/app\.([0-9a-f]{12})\.css"', client.get("/").content.decode()).group(1)

    source = Path(finders.find("css/app.css")).read_bytes()
    assert linked == hashlib.md5(source).hexdigest()[:12]
    assert (collected / f"css/app.{linked}.css").read_bytes() == source


@pytest.mark.parametrize("accepted", [BROWSER, WITHOUT_BROTLI])
def test_the_scripts_of_a_public_page_and_the_table_phone_weigh_under_40_kb_on_the_wire(collected, accepted):
    pages = {**public_pages(), "table phone": table_phone_page()}
    phone = Client()

    def wire(url: str) -> int:
        response = phone.get(url, HTTP_ACCEPT_ENCODING=accepted)
        assert response.status_code == 200, url
        return len(body(response))

    weights = {url: wire(url) for url in {script for page in pages.values() for script in scripts(page)}}
    for name, page in pages.items():
        assert sum(weights[script] for script in set(scripts(page))) < WIRE_BUDGET, (name, weights)
    assert any("/js/table-offline." in script for script in scripts(pages["table phone"]))
    # a phone that opens them all fetches each file once
    assert sum(weights.values()) < WIRE_BUDGET, weights
