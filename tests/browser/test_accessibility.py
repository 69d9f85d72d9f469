"""Every room of the day, walked in a real browser at 1366 px and 390 px: axe-core finds no
violation, nothing scrolls sideways, and the first Tab reaches "skip to the content".

The pages are those the issue of the day lists: the public site (with the calculators and
the projector), the organiser's registration, draw and control room, the referee's entry and
the phone at the table, online and offline. The phone's conflict dialog is checked where it
is produced (``test_offline_table``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import accessible, fits_the_screen
from tests.browser.test_offline_table import let_in
from tests.browser.test_one_register import PASSWORD, organiser
from tests.factories import drawn_series
from tests.games.preferans.public.test_pulka_pages import FAILED_BY_C, MADE_BY_B, played_pulka
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-accessibility")


def looked_at(page, name: str) -> None:
    """The page passes axe and fits the screen; its picture is kept to be looked at."""
    width = page.viewport_size["width"]
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    accessible(page)
    assert fits_the_screen(page), f"{name} scrolls sideways at {width} px"


def skips_to_the_content(page) -> None:
    """The first Tab on the page lands on the skip link, which leads to the main content."""
    page.keyboard.press("Tab")
    skip = page.locator(":focus")
    expect(skip).to_have_text("Przejdź do treści")
    skip.press("Enter")
    assert page.evaluate("location.hash") == "#tresc"


def test_the_public_site_and_the_calculators_have_no_accessibility_violation(page, live_server):
    tournament = league_tournament(tables=3, series=2)
    player = tournament.registrations.select_related("player").first().player
    team = tournament.registrations.exclude(team=None).first().team
    pages = {
        "home": reverse("home"),
        "season": reverse("public:season", args=[tournament.season.slug]),
        "tournament": reverse("public:tournament", args=[tournament.slug]),
        "standings": reverse("public:standings", args=[tournament.slug]),
        "series": reverse("public:series", args=[tournament.slug, 1]),
        "table": reverse("public:table", args=[tournament.slug, 1, 1]),
        "find-my-table": reverse("public:find_table", args=[tournament.slug]) + f"?q={player.last_name}",
        "player": reverse("public:player", args=[player.pk]),
        "team": reverse("public:team", args=[team.pk]),
        "ranking": reverse("rating:list"),
        "calculator": reverse("calculator"),
        "pulka-calculator": reverse("pulka_calculator"),
    }
    for name, url in pages.items():
        page.goto(live_server.url + url)
        looked_at(page, name)
    skips_to_the_content(page)


def test_the_pulka_sheet_fits_a_wide_screen_and_scrolls_as_one_block_the_keyboard_reaches_on_a_phone(page, live_server):
    series = played_pulka([MADE_BY_B, FAILED_BY_C], table_size=4)
    page.goto(live_server.url + reverse("public:table", args=[series.tournament.slug, series.number, 1]))
    looked_at(page, "pulka-table")
    box = page.locator(".pulka-scroll")
    # one scrolling box, not a table scrolling inside another
    assert page.evaluate("getComputedStyle(document.querySelector('.pulka-scroll > table')).display") == "table"
    if page.viewport_size["width"] >= 1366:
        overflow = box.evaluate("node => node.scrollWidth - node.clientWidth")
        assert overflow <= 0, overflow
    else:
        box.focus()
        box.press("ArrowRight")
        expect(box).to_be_focused()


def test_the_projector_has_no_accessibility_violation(page, live_server):
    tournament = league_tournament(tables=3, series=2)
    page.goto(live_server.url + reverse("public:projector", args=[tournament.slug]))
    page.locator(".projector-page.shown").wait_for()
    looked_at(page, "projector")


def test_the_organiser_and_the_referee_rooms_have_no_accessibility_violation(page, live_server):
    tournament = league_tournament(tables=2, series=2)
    series = drawn_series(tournament, tables=2, number=3, status="in_play")
    user = organiser(tournament)
    tournament.referees.add(user)
    page.goto(live_server.url + reverse("login"))
    looked_at(page, "login")
    page.locator("#id_username").fill(user.username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Zaloguj").click()
    slug = tournament.slug
    pages = {
        "tournaments": reverse("tournaments:list"),
        "organiser-tournament": reverse("tournaments:detail", args=[slug]),
        "settings": reverse("tournaments:update", args=[slug]),
        "registrations": reverse("tournaments:registrations", args=[slug]),
        "draw": reverse("tournaments:draw", args=[slug]),
        "hall": reverse("hall:room", args=[slug, series.number]),
        "printing": reverse("printing:index", args=[slug]),
        "pins": reverse("printing:pins", args=[slug, series.number]),
        "referee-series": reverse("results:series", args=[slug, series.number]),
        "referee-entry": reverse("results:protocol", args=[slug, series.number, 1]),
        "players": reverse("players:player_list"),
        "import": reverse("players:import_upload"),
    }
    for name, url in pages.items():
        page.goto(live_server.url + url)
        looked_at(page, name)
    skips_to_the_content(page)


def test_the_phone_at_the_table_has_no_accessibility_violation_online_or_offline(page, live_server):
    protocol = drawn_series(tables=1, status="in_play").protocols.get()
    series = protocol.series
    page.goto(live_server.url + reverse("table:protocol", args=[series.tournament.slug, series.number, 1]))
    looked_at(page, "phone-pin")
    let_in(page, live_server, protocol, "A")
    looked_at(page, "phone-online")
    page.context.set_offline(True)
    expect(page.locator("#netbar")).to_have_attribute("data-state", "offline")
    looked_at(page, "phone-offline")
    page.context.set_offline(False)


def test_a_long_seasons_pages_of_columns_have_no_accessibility_violation(page, live_server, monkeypatch):
    from tests.public.test_season_page import season_of_three

    monkeypatch.setattr("league.public.views.SEASON_COLUMNS", 2)
    season, _ = season_of_three()
    page.goto(live_server.url + reverse("public:season", args=[season.slug]))
    pager = page.locator("#season-columns-pages")
    expect(pager).to_contain_text("Kolumny: turnieje 2–3 z 3")
    looked_at(page, "season-columns")

    pager.get_by_role("link", name="Starsze turnieje").click()

    expect(page.locator("#season-columns-pages")).to_contain_text("Kolumny: turnieje 1–1 z 3")
    assert "strona=2" in page.url
    looked_at(page, "season-older-columns")
