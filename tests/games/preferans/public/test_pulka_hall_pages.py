"""The public pages of a Preferans evening at tables of three: the projector's seating and pulkas,
a player's series with the settled whists (small points), place at the table and big points,
the team page and "find my table" with two opponents."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league.games.preferans.pulka import protocol_pulka
from league.models import Series
from league.public.projector import ready_fragments
from league.standings.cache import refresh
from tests.factories import (
    PreferansTournamentFactory,
    RegistrationFactory,
    TeamFactory,
    UserFactory,
    drawn_series,
    pulka_entered,
)
from tests.public.test_player_page import rows_of
from tests.public.test_projector import page_keys, projector, seating_names

pytestmark = pytest.mark.django_db

# at table 1 A makes a seven whisted by B (2 tricks) and C (1); B fails an eight by two tricks, C whisting
SERIES_1 = [
    {
        "contract": "7H",
        "declarer": "A",
        "tricks": 7,
        "whisters": [{"player": "B", "tricks": 2}, {"player": "C", "tricks": 1}],
    },
    {"contract": "8S", "declarer": "B", "tricks": 6, "whisters": [{"player": "C", "tricks": 4}]},
]


@pytest.fixture(autouse=True)
def no_fragment_kept():
    ready_fragments.clear()
    yield
    ready_fragments.clear()


enter = pulka_entered


@pytest.fixture
def evening():
    """A published Preferans tournament at tables of three: series 1 (two tables) played, closed and
    published; series 2 drawn, table 1 with a seven entered."""
    tournament = PreferansTournamentFactory(
        name="Wieczór preferansa", table_size=3, draw_published=True, published=True
    )
    referee = UserFactory()
    tournament.referees.add(referee)
    first = drawn_series(tournament, tables=2, number=1)
    team = TeamFactory(name="Trefle")
    for assignment in first.assignments.all():
        RegistrationFactory(
            tournament=tournament, player=assignment.player, team=team if assignment.table == 1 else None
        )
    enter(first.protocols.get(table=1), SERIES_1, referee)
    enter(first.protocols.get(table=2), [{"contract": "6D", "declarer": "A"}], referee)
    Series.objects.filter(pk=first.pk).update(status="closed", results_published=True, results_entered=True)
    second = drawn_series(tournament, tables=2, number=2)
    enter(second.protocols.get(table=1), [{"contract": "7C", "declarer": "B"}], referee)
    refresh(tournament.pk)
    return tournament, first, second


def test_the_projector_seats_three_at_a_table_and_shows_each_pulka_filled(client, evening):
    tournament, _, second = evening

    html = projector(client, tournament)

    assert page_keys(html)[:2] == ["clock", "seating-1"] and page_keys(html)[-1] == "progress"
    assert len(seating_names(html)) == 6
    assert sorted(re.findall(r'class="projector-where">\d+&thinsp;([A-D])<', html)) == ["A", "A", "B", "B", "C", "C"]
    progress = html.split('data-page="progress"')[1]
    assert re.findall(r'class="projector-count">([^<]+)<', progress) == ["4/30", "0/30"]
    assert "Preferans, Sochi" in html.split('data-page="clock"')[1].split('class="projector-note"')[1].split("</p>")[0]


def test_a_preferans_players_series_show_the_settled_whists_place_and_big_points(client, evening):
    tournament, first, _ = evening
    protocol = first.protocols.get(table=1)
    balance = protocol_pulka(protocol=protocol).score.totals
    players = {a.seat: a.player for a in first.assignments.filter(table=1)}
    ranked = sorted(balance, key=balance.get, reverse=True)
    big = dict(zip(ranked, (2, 1, 0), strict=True))  # places at a table of three

    page = client.get(reverse("public:player", args=[players["A"].pk])).content.decode()

    assert "Preferans" in page.split('class="card player-tournament"')[1].split("</h3>")[0]
    assert "Settled whists" in page
    (row,) = rows_of(page)
    b, c = players["B"].full_name, players["C"].full_name
    assert row == f"1 table 1, A against {b} , {c} {balance['A']:+d} {ranked.index('A') + 1}. {big['A']}"


def test_the_team_page_of_a_preferans_team_says_settled_whists(client, evening):
    tournament, first, _ = evening
    team = first.assignments.filter(table=1).first().player.registrations.get(tournament=tournament).team

    page = client.get(reverse("public:team", args=[team.pk])).content.decode()

    assert "Preferans" in page and "Settled whists" in page


def test_find_my_table_names_the_two_opponents_at_a_table_of_three(client, evening):
    tournament, first, _ = evening
    player = first.assignments.get(table=2, seat="B").player

    page = client.get(reverse("public:find_table", args=[tournament.slug]), {"q": player.last_name}).content.decode()

    # the series of the evening's first table of three, wherever the series being played is listed
    found = next(item for item in page.split('class="found"')[1].split("<li")[1:] if "Series 1" in item)
    assert found.count("<b>") == 2
    assert "<b>A</b>" in found and "<b>C</b>" in found


def test_the_polish_player_page_calls_the_small_points_settled_whists(client, evening):
    _, first, _ = evening
    player = first.assignments.get(table=1, seat="A").player

    page = client.get(reverse("public:player", args=[player.pk]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    assert "Rozliczone wisty" in page and "rozliczone wisty" in page
