"""In a real browser at 1366 px and 390 px: a player opens the league's records from its page, reads
who won the most zolos, and follows the figure to the table where it was made and the name to the
player's page (issue 26)."""

from __future__ import annotations

import random
import re
from datetime import date
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from league.standings.cache import refresh
from league.standings.refresh import standings_touch
from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import (
    LeagueFactory,
    PlayerFactory,
    PreferansTournamentFactory,
    RegistrationFactory,
    TournamentFactory,
    played_series,
)

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/records")
POINTS = (45, 15, -20, -40)
NAMES = [
    ("Anna", "Kwidzińska-Wróblewska"), ("Bartłomiej", "Szczepańczyk"), ("Ewa", "Łoś"), ("Piotr", "Mak"),
    ("Zenon", "Żółtowski"), ("Jan", "Lis"), ("Łukasz", "Kąkol"), ("Grzegorz", "Formela"),
    ("Maria", "Kreft"), ("Kazimierz", "Wejher"), ("Halina", "Bork"), ("Roman", "Konkol"),
]  # fmt: skip


def league_history():
    """A league of three tournaments of twelve players at three tables, three series each, and a
    Preferans evening; Anna Kwidzińska-Wróblewska wins a zolo at her table in every series."""
    league = LeagueFactory(name="Liga Baśki Kaszuby")
    players = [PlayerFactory(first_name=first, last_name=last) for first, last in NAMES]
    anna = players[0]
    for day in (7, 14, 21):
        tournament = TournamentFactory(
            name=f"Turniej o Puchar Wójta Gminy Kartuzy {day}", league=league, date=date(2026, 3, day),
            draw_published=True, series_count=3,
        )  # fmt: skip
        for player in players:
            RegistrationFactory(tournament=tournament, player=player)
        for number in range(1, 4):
            seated = random.Random(day * 10 + number).sample(players, len(players))  # the same draw each run
            series = played_series(
                tournament, number, [list(zip(seated[i : i + 4], POINTS, strict=True)) for i in range(0, 12, 4)]
            )
            table = next(a for a in series.assignments.all() if a.player_id == anna.pk)
            values = {seat: (30 if seat == table.seat else -10) for seat in "ABCD"}
            series.protocols.get(table=table.table).rows.create(
                number=2, deal={"contract": "zolo", "old": [table.seat], "old_eyes": 80},
                **{f"value_{seat.lower()}": value for seat, value in values.items()},
            )  # fmt: skip
        standings_touch(tournament_id=tournament.pk)  # as saving the zolos does
        refresh(tournament.pk)
    evening = PreferansTournamentFactory(
        name="Wieczór Preferansa w Wejherowie", league=league, date=date(2026, 3, 28), series_count=1,
        draw_published=True,
    )  # fmt: skip
    for player in players[:4]:
        RegistrationFactory(tournament=evening, player=player)
    played_series(evening, 1, [list(zip(players[:4], (12, 4, -6, -10), strict=True))])
    refresh(evening.pk)
    return league, anna


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.viewport_size['width']}.png"), full_page=True)


def test_a_player_reads_the_leagues_records_and_follows_one_to_its_table(page, live_server):
    league, anna = league_history()

    page.goto(live_server.url + reverse("leagues:page", args=[league.slug]))
    page.locator(f'a[href="{reverse("public:records_league", args=[league.slug])}"]').click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("Liga Baśki Kaszuby")
    zolos = page.locator("#record-baska-contract-zolo")
    expect(zolos.locator("tbody tr")).to_have_count(1)
    first = zolos.locator("tbody tr").first
    expect(first.get_by_role("rowheader").get_by_role("link").first).to_have_text("Anna Kwidzińska-Wróblewska")
    expect(first.locator("td.figure")).to_have_text("9")  # a zolo in each of nine series
    expect(page.locator("#record-baska-best tbody tr")).to_have_count(10)
    expect(page.locator("#record-baska-deals tbody tr")).to_have_count(10)
    expect(page.locator("#records-preferans .record-card").first).to_be_visible()
    shoot(page, "league")
    assert fits_the_screen(page)
    accessible(page)

    # the figure leads to the table where the latest zolo was won
    first.locator(".where a").click()
    expect(page).to_have_url(re.compile(r"/t/turniej-\d+/seria/3/stolik/\d/$"))
    expect(page.get_by_text("Anna Kwidzińska-Wróblewska").first).to_be_visible()

    page.go_back()
    page.locator("#record-baska-contract-zolo tbody tr").first.get_by_role("link", name="Anna").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Anna Kwidzińska-Wróblewska")


def test_the_installations_records_fit_a_phone_and_name_the_leagues(page, live_server):
    league, _ = league_history()

    page.goto(live_server.url + reverse("public:records"))

    expect(page.locator(f'nav.pubnav a[href="{reverse("public:records_league", args=[league.slug])}"]')).to_be_visible()
    expect(page.locator(".record-card").first).to_be_visible()
    shoot(page, "installation")
    assert fits_the_screen(page)
    accessible(page)
