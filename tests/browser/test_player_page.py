"""In a real browser at 1366 px and 390 px: a player opens their page, reads their series one
by one and the chart of their place after each series, and follows an opponent (issue 14)."""

from __future__ import annotations

import random
import re
from datetime import date
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from league.models import Series, TeamRanking
from league.results.models import Penalty
from league.standings.cache import refresh
from league.standings.refresh import standings_touch
from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TeamFactory,
    TournamentFactory,
    played_series,
)

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/player-pages")
POINTS = (45, 15, -20, -40)


def hall_evening():
    """Anna Kwidzińska-Wróblewska in a team, in three tournaments of a season (best 2 of 3): 16 players at four
    tables, four series, her seat moving from table to table; a penalty in series 2."""
    season = SeasonFactory(name="Liga Kaszubska", best_of=2)
    anna = PlayerFactory(first_name="Anna", last_name="Kwidzińska-Wróblewska")
    team = TeamFactory(name="Gryf Kartuzy", members=3)
    team.memberships.create(player=anna)
    mates = [m.player for m in team.memberships.exclude(player=anna)]
    others = [
        PlayerFactory(first_name=first, last_name=last)
        for first, last in [
            ("Bartłomiej", "Szczepańczyk"), ("Ewa", "Łoś"), ("Piotr", "Mak"), ("Zenon", "Żółtowski"),
            ("Jan", "Lis"), ("Łukasz", "Kąkol"), ("Grzegorz", "Formela"), ("Maria", "Kreft"),
            ("Kazimierz", "Wejher"), ("Halina", "Bork"), ("Roman", "Konkol"), ("Teresa", "Dawidowska"),
        ]
    ]  # fmt: skip
    players = [anna, *mates, *others]
    for day in (7, 14, 21):
        tournament = TournamentFactory(
            name=f"Turniej o Puchar Wójta Gminy Kartuzy {day}", season=season, date=date(2026, 3, day),
            draw_published=True, team_ranking=TeamRanking.BEST, team_best_of=3,
        )  # fmt: skip
        for player in players:
            RegistrationFactory(tournament=tournament, player=player, team=team if player in [anna, *mates] else None)
        for number in range(1, 5):
            seated = random.Random(day * 10 + number).sample(players, len(players))  # the same draw each run
            played_series(
                tournament, number, [list(zip(seated[i : i + 4], POINTS, strict=True)) for i in range(0, 16, 4)]
            )
        Penalty.objects.create(
            series=Series.objects.get(tournament=tournament, number=2),
            player=anna,
            small_points=-10,
            reason="Spóźnienie do stolika po przerwie",
        )
        standings_touch(tournament_id=tournament.pk)  # as adding the penalty does
        refresh(tournament.pk)
    return anna


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.viewport_size['width']}.png"), full_page=True)


def test_a_player_reads_their_series_and_the_chart_of_their_place(page, live_server):
    anna = hall_evening()

    page.goto(live_server.url + reverse("public:player", args=[anna.pk]))

    expect(page.get_by_role("heading", name="Anna Kwidzińska-Wróblewska")).to_be_visible()
    tournaments = page.locator("section.player-tournament")
    expect(tournaments).to_have_count(3)
    newest = tournaments.first
    expect(newest.get_by_role("heading")).to_contain_text("Turniej o Puchar Wójta Gminy Kartuzy 21")
    expect(newest.locator("table.series-rows tbody tr:not(.penalty)")).to_have_count(4)
    expect(newest.locator("tr.penalty")).to_contain_text("Kara sędziowska: −10 małe punkty — Spóźnienie do stolika")
    expect(newest.get_by_role("columnheader", name="Miejsce przy stoliku")).to_be_visible()
    expect(newest.locator("tfoot")).to_contain_text("Razem")

    chart = newest.get_by_role("img", name="Anna Kwidzińska-Wróblewska — miejsce po każdej serii")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["width"] <= page.viewport_size["width"] and box["height"] > 100
    expect(newest.locator("svg.chart circle")).to_have_count(4)
    assert fits_the_screen(page)
    # the seasons table shows every column, "Turnieje" too, without a sideways scroll (issue 41)
    seasons = page.locator("table#seasons")
    expect(seasons.get_by_role("columnheader", name="Turnieje")).to_be_visible()
    assert seasons.evaluate("t => t.scrollWidth <= t.clientWidth + 1")
    assert seasons.bounding_box()["x"] + seasons.bounding_box()["width"] <= page.viewport_size["width"]
    shoot(page, "player")

    newest.get_by_text("Dane wykresu").click()
    expect(newest.locator(".chart-data table td")).to_have_count(4)
    shoot(page, "player-chart-numbers")
    assert fits_the_screen(page)

    # head to head: the opponent met most often, as many times as the series rows name them
    rivals = page.locator("#rivals")
    expect(rivals.get_by_role("heading", name="Najczęstsi rywale")).to_be_visible()
    expect(rivals.get_by_role("columnheader", name="Małe punkty (Anna : rywal)")).to_be_visible()
    expect(rivals.locator("tbody tr")).to_have_count(10)
    first = rivals.locator("tbody tr").first
    rival, together = first.locator("th").inner_text(), int(first.locator("td").first.inner_text())
    assert together == page.locator(".opponents a", has_text=rival).count() > 1
    assert fits_the_screen(page)
    accessible(page)
    rivals.scroll_into_view_if_needed()
    shoot(page, "player-rivals")
    # the deals she sat at: 4 series of one deal each in 3 tournaments, as the protocols hold them
    figures = page.locator("#statistics dl div")
    expect(figures.filter(has_text="Rozegrane rozdania")).to_have_text(re.compile(r"Rozegrane rozdania\s*12"))
    expect(figures.filter(has_text="Serie przy stoliku")).to_have_text(re.compile(r"Serie przy stoliku\s*12"))

    opponent = newest.locator(".opponents a").first
    name = opponent.inner_text()
    opponent.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    assert fits_the_screen(page)


def test_the_team_page_fits_a_phone_and_says_who_counted(page, live_server):
    anna = hall_evening()
    team = anna.memberships.get().team

    page.goto(live_server.url + reverse("public:team", args=[team.pk]))

    section = page.locator("section.team-tournament").first
    expect(section.locator(".team-rule")).to_contain_text("Do klasyfikacji drużyn liczą się 3 najlepsze wyniki z 4.")
    expect(section.get_by_text("nie liczony")).not_to_have_count(0)
    expect(section.locator("table.team-members tbody tr")).to_have_count(4)
    assert fits_the_screen(page)
    shoot(page, "team")


def test_the_season_page_shows_the_leaders_chart_and_the_dropped_results(page, live_server):
    anna = hall_evening()
    season = anna.registrations.select_related("tournament__season").first().tournament.season

    page.goto(live_server.url + reverse("public:season", args=[season.slug]))

    chart = page.get_by_role("img", name="Najlepsi w sezonie (10) po każdym turnieju")
    expect(chart).to_be_visible()
    expect(page.locator("#season-chart .legend li")).to_have_count(10)
    expect(page.locator("#individual s.dropped").first).to_be_visible()
    assert fits_the_screen(page)
    shoot(page, "season")
