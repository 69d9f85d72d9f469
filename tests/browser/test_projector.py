"""In a real browser, at 1366 px and 390 px: the projector turns its pages by itself, from the clock
through the seating and the rankings to the tables' progress, and when the server stops answering
it keeps turning them, says "łączenie…", and shows fresh data once the server is back."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from league.public import projector
from league.results import services
from tests.browser.conftest import accessible, fits_the_screen
from tests.browser.test_control_room import blocked_by_policy, viewport_name
from tests.factories import ByeFactory, PlayerFactory, UserFactory, drawn_series
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/projector")
DEAL = {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}
PAGES = ["clock", "seating-1", "individual-1", "teams-1", "progress"]


@pytest.fixture(autouse=True)
def quick_projector(monkeypatch):
    """Pages that turn every 2 s and a poll every second, so the test need not wait an evening."""
    monkeypatch.setattr(projector, "MIN_PAGE_SECONDS", 1)
    monkeypatch.setattr(projector, "POLL_SECONDS", 1)
    projector.ready_fragments.clear()
    yield
    projector.ready_fragments.clear()


def test_the_projector_turns_its_pages_and_recovers_after_the_server_stops_answering(page, live_server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    tournament = league_tournament(tables=3, series=1, time_limit_minutes=55)
    series = drawn_series(tournament, tables=12, number=2)
    ByeFactory(series=series, player=PlayerFactory(first_name="Maria-Magdalena", last_name="Konkel-Szczypiorowska"))
    series.clock_started_at, series.clock_limit_minutes = timezone.now() - timedelta(minutes=20), 55
    series.save()
    refused = blocked_by_policy(page)
    size = viewport_name(page)

    page.goto(live_server.url + reverse("public:projector", args=[tournament.slug]) + "?co=2")

    for key in PAGES:  # each page in turn, with nobody touching anything
        shown = page.locator(f'[data-page="{key}"]')
        expect(shown).to_be_visible(timeout=5000)
        expect(page.locator(".projector-page.shown")).to_have_count(1)
        assert fits_the_screen(page)
        # no name is cut, a bye's neither; the rankings say what each column is
        cut = shown.locator(".projector-who").evaluate_all("nodes => nodes.filter(n => n.scrollWidth > n.clientWidth)")
        assert cut == [], key
        if key in ("individual-1", "teams-1"):
            expect(shown.locator(".projector-ranking-head").first).to_contain_text("Małe punkty")
        page.screenshot(path=str(SHOTS / f"{key}-{size}.png"))
    expect(page.locator('[data-page="clock"]')).to_contain_text("Seria 2")
    expect(page.locator("[data-clock-time]")).to_have_text(re.compile(r"^3\d:\d\d$"))
    if size == "desktop":  # readable from 10 m: body type of 28 px or more on the hall's screen
        assert float(page.evaluate("getComputedStyle(document.body).fontSize").removesuffix("px")) >= 28

    # the server goes away: the screen keeps its pages and keeps turning them
    page.route("**/rzutnik/strony/**", lambda route: route.abort())
    offline = page.get_by_text("łączenie…")
    expect(offline).to_be_visible(timeout=5000)
    page.screenshot(path=str(SHOTS / f"offline-{size}.png"))
    before = page.locator(".projector-page.shown").get_attribute("data-page")
    expect(page.locator(".projector-page.shown")).not_to_have_attribute("data-page", before, timeout=5000)
    protocol = series.protocols.get(table=3)
    services.protocol_row_save(
        protocol=protocol, number=1, deal=DEAL, expected_version=protocol.version, user=UserFactory()
    )

    # back again: the mark goes and the deal saved meanwhile shows
    page.unroute("**/rzutnik/strony/**")
    expect(offline).to_be_hidden(timeout=15000)
    expect(page.locator('[data-page="progress"] [data-table="3"]')).to_contain_text("1/40")
    expect(page.locator('[data-page="progress"]')).to_be_visible(timeout=12000)
    page.screenshot(path=str(SHOTS / f"progress-after-{size}.png"))
    assert refused == []


LONG_NAMES = [
    ("Urszula", "Grzenia-Wielgosz"),
    ("Grażyna", "Żmuda-Trzebiatowska"),
    ("Maria-Magdalena", "Konkel-Szczypiorowska"),
    ("Krzysztof-Bonawentura", "Wiśniewski-Chrząszcz"),
]


@pytest.mark.viewport("desktop")  # the hall's screen
@pytest.mark.parametrize("screen", [(1920, 1080), (1366, 768)], ids=["1920x1080", "1366x768"])
def test_every_player_is_fully_visible_on_exactly_one_seating_page(page, live_server, screen):
    """Issue 41: two-line entries (a long name, "wolny los") pushed "Grzenia Urszula 3 A" below a
    1920×1080 screen, and a bye was on no page. Each entry's box is measured on its page."""
    width, height = screen
    page.set_viewport_size({"width": width, "height": height})
    tournament = league_tournament(tables=1, series=1)
    series = drawn_series(tournament, tables=16, number=2)
    seated = [a.player for a in series.assignments.select_related("player").order_by("table", "seat")]
    for player, (first, last) in zip(seated[::9], LONG_NAMES, strict=False):
        player.first_name, player.last_name = first, last
        player.save()
    for first, last in LONG_NAMES[:2]:
        ByeFactory(series=series, player=PlayerFactory(first_name=f"{first} Anna", last_name=last))
    everybody = {f"{p.last_name} {p.first_name}" for p in seated} | {
        f"{last} {first} Anna" for first, last in LONG_NAMES[:2]
    }

    page.goto(live_server.url + reverse("public:projector", args=[tournament.slug]) + "?co=2")
    shown_names: list[str] = []
    keys = page.locator('[data-page^="seating-"]').evaluate_all("nodes => nodes.map(n => n.dataset.page)")
    assert len(keys) >= 2
    for key in keys:
        shown = page.locator(f'[data-page="{key}"]')
        expect(shown).to_be_visible(timeout=10000)
        page.wait_for_timeout(200)  # the type fitted to the screen
        boxes = shown.locator("li").evaluate_all(
            "items => items.map(li => { const r = li.getBoundingClientRect();"
            " return [li.querySelector('.projector-who').textContent, r.top, r.bottom, r.left, r.right]; })"
        )
        for name, top, bottom, left, right in boxes:
            assert 0 <= top and bottom <= height and 0 <= left and right <= width, (key, name, top, bottom)
        shown_names += [name for name, *_ in boxes]
        page.screenshot(path=str(SHOTS / f"{key}-{width}x{height}.png"))
        accessible(page)
    assert sorted(shown_names) == sorted(everybody)  # each once, nobody missing
