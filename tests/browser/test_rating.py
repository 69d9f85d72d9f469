"""In a real browser at 1366 px and 390 px: a player opens the rating list, keeps to the women of
the league, follows a name to the player's page and reads the rating there, its chart and the
places expected and taken; a table's page shows the order expected before its series (issue 42).
Each page fits the screen and axe-core finds nothing."""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from league.standings.tasks import recompute_standings
from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import LeagueFactory, PlayerFactory, RegistrationFactory, TournamentFactory, played_series

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/rating")
POINTS = (45, 15, -20, -40)
NAMES = [
    ("Anna", "Kwidzińska-Wróblewska", "F"), ("Bartłomiej", "Szczepańczyk", "M"), ("Ewa", "Łoś", "F"),
    ("Piotr", "Mak", "M"), ("Zenon", "Żółtowski", "M"), ("Jan", "Lis", "M"), ("Łucja", "Kąkol", "F"),
    ("Grzegorz", "Formela", "M"), ("Maria", "Kreft", "F"), ("Kazimierz", "Wejher", "M"),
    ("Halina", "Bork", "F"), ("Roman", "Konkol", "M"),
]  # fmt: skip


def league_history():
    """Four evenings of a league, twelve players at three tables, three series each; Anna wins her
    table every time."""
    league = LeagueFactory(name="Liga Baśki Kaszuby")
    players = [PlayerFactory(first_name=first, last_name=last, gender=sex) for first, last, sex in NAMES]
    anna = players[0]
    tournaments = []
    for day in (7, 14, 21, 28):
        tournament = TournamentFactory(
            name=f"Turniej o Puchar Wójta Gminy Kartuzy {day}", league=league, date=date(2026, 3, day),
            draw_published=True, series_count=3,
        )  # fmt: skip
        for player in players:
            RegistrationFactory(tournament=tournament, player=player)
        for number in range(1, 4):
            others = random.Random(day * 10 + number).sample(players[1:], len(players) - 1)  # the same draw each run
            seated = [anna, *others]
            played_series(
                tournament, number, [list(zip(seated[i : i + 4], POINTS, strict=True)) for i in range(0, 12, 4)]
            )
        recompute_standings(tournament.pk)
        tournaments.append(tournament)
    return league, anna, tournaments


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.viewport_size['width']}.png"), full_page=True)


def test_a_player_reads_the_rating_list_of_the_leagues_women_and_a_players_rating(page, live_server):
    league, anna, _ = league_history()

    page.goto(live_server.url + reverse("home"))
    menu = page.get_by_role("button", name="Menu", exact=True)
    if menu.is_visible():  # a phone shows the main menu behind its button
        menu.click()
    page.locator(f'nav.mainnav a[href="{reverse("rating:list")}"]').click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ranking")
    rows = page.locator("#rating-list tbody tr")
    expect(rows).to_have_count(12)
    expect(rows.first).to_contain_text("Anna Kwidzińska-Wróblewska")
    shoot(page, "list")
    assert fits_the_screen(page)
    accessible(page)

    page.get_by_label("Liga").select_option(league.slug)
    page.get_by_label("Kobiety czy mężczyźni").select_option("F")
    page.get_by_role("button", name="Pokaż").click()
    expect(rows).to_have_count(5)
    expect(page.locator("#rating-list h2")).to_have_text("5 zawodników")
    shoot(page, "women")
    assert fits_the_screen(page)
    accessible(page)

    rows.first.get_by_role("link", name="Anna Kwidzińska-Wróblewska").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Anna Kwidzińska-Wróblewska")
    card = page.locator("#rating")
    expect(card.locator("dl")).to_contain_text("1. z 12")
    expect(card.locator("dl")).to_contain_text("pewny")
    expect(card.locator("svg.chart")).to_be_visible()
    expect(card.locator("table.rating-series tbody tr")).to_have_count(10)
    card.scroll_into_view_if_needed()
    shoot(page, "player")
    assert fits_the_screen(page)
    accessible(page)


def test_a_tables_page_shows_the_order_expected_before_the_series(page, live_server):
    _, anna, tournaments = league_history()
    last = tournaments[-1]

    page.goto(live_server.url + reverse("public:table", args=[last.slug, 1, 1]))

    expected = page.locator("#expected-order")
    expect(expected.locator("tbody tr")).to_have_count(4)
    expect(expected.locator("tbody tr").first).to_contain_text(anna.full_name)
    expected.scroll_into_view_if_needed()
    shoot(page, "table")
    assert fits_the_screen(page)
    accessible(page)
