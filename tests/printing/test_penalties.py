"""Referee penalties on paper: the results sheets list them under the rankings that count them,
and the archive copy of a protocol names those of its table's players under its rows."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Series
from league.results.penalties import services as penalties
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory, played_series
from tests.printing.test_documents import pdf_text

pytestmark = pytest.mark.django_db

REASON = "wpis niezgodny z przebiegiem gry — żółta kartka"


@pytest.fixture
def tournament():
    """Series 1 closed and published, series 2 still being played; Gracz Kąkol A penalised in both."""
    tournament = TournamentFactory(name="Turniej o Puchar Wójta", organiser_name="Kaszubski Klub Baśki")
    players = [PlayerFactory(first_name=f"Gracz{letter}", last_name=f"Kąkol{letter}") for letter in "ABCDEFGH"]
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    first = [
        list(zip(players[:4], (30, 10, -10, -30), strict=True)),
        list(zip(players[4:], (6, 2, -2, -6), strict=True)),
    ]
    played_series(tournament, 1, first)
    Series.objects.filter(tournament=tournament, number=1).update(results_published=True)
    second = [list(zip(players[:4], (5, -5, 5, -5), strict=True)), list(zip(players[4:], (1, -1, 1, -1), strict=True))]
    played_series(tournament, 2, second, status=Series.Status.DRAWN)
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    for number, small, reason in [(1, -15, REASON), (2, -99, "kara w serii w toku")]:
        penalties.penalty_add(
            series=Series.objects.get(tournament=tournament, number=number),
            player=players[0],
            small_points=small,
            reason=reason,
            user=organiser,
        )
    return tournament


def printed(client, tournament, name: str, *args) -> str:
    """A PDF as the organiser prints it in Polish, its words on one line."""
    client.force_login(tournament.organisers.get())
    response = client.get(reverse(f"printing:{name}", args=[tournament.slug, *args]), HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return " ".join(pdf_text(response.content).split())


def test_the_results_sheets_list_the_published_penalties_and_count_them(client, tournament):
    text = printed(client, tournament, "results")
    assert "Kary sędziowskie" in text
    assert f"1 GraczA KąkolA −15 {REASON}" in text
    assert "kara w serii w toku" not in text  # series 2 is not published yet
    # 30 at the table, less the penalty: still first, with +15
    assert "1. GraczA KąkolA" in text and "+15" in text


def test_the_archive_protocol_names_the_penalties_of_its_table_under_the_rows(client, tournament):
    table_1 = printed(client, tournament, "archive", 1, 1)
    assert f"Kary sędziowskie: GraczA KąkolA −15 — {REASON}." in table_1
    assert "Kary sędziowskie" not in printed(client, tournament, "archive", 1, 2)  # nobody at table 2
