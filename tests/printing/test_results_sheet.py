"""The printed results equal the public standings: closed, published series only, and say after how many."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext

from league.models import Series
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory, played_series
from tests.printing.test_documents import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    """Series 1 closed and published, series 2 still being played with deals already entered."""
    tournament = TournamentFactory(name="Turniej o Puchar Wójta")
    # one-word first names: the sheet is read back word by word
    players = [PlayerFactory(first_name=f"Gracz{letter}", last_name=f"Kąkol{letter}") for letter in "ABCDEFGH"]
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    first = [
        list(zip(players[:4], (30, 10, -10, -30), strict=True)),
        list(zip(players[4:], (6, 2, -2, -6), strict=True)),
    ]
    played_series(tournament, 1, first)
    Series.objects.filter(tournament=tournament, number=1).update(results_published=True)
    # the series being played turns the order round: counting it would change every line
    second = [list(zip(players[:4], (-90, 0, 0, 90), strict=True)), list(zip(players[4:], (-9, 3, 3, 3), strict=True))]
    played_series(tournament, 2, second, status=Series.Status.DRAWN)
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    return tournament


def printed_text(client, tournament) -> str:
    """The results PDF as the organiser prints it in Polish, its words on one line."""
    client.force_login(tournament.organisers.get())
    response = client.get(reverse("printing:results", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="pl")
    return " ".join(pdf_text(response.content).split())


def number(printed: str) -> float:
    """A number as the sheet prints it ("6,5", "−60", "+5") read back."""
    return float(printed.replace(",", ".").replace("−", "-"))


def test_the_results_sheet_prints_the_public_standings_not_the_series_being_played(client, tournament):
    public = client.get(reverse("public:api_standings", args=[tournament.slug])).json()["individual"]
    text = printed_text(client, tournament)
    printed = re.findall(r"(\d+)\. (\S+ Kąkol[A-H]) (\d+(?:,\d+)?) ([+−]\d+|0)\b", text)
    assert [(int(place), name, number(big), number(small)) for place, name, big, small in printed] == [
        (row["place"], row["name"], row["big_points"], row["small_points"]) for row in public
    ]


def test_the_results_sheet_says_after_how_many_series(client, tournament):
    text = printed_text(client, tournament)
    with translation.override("pl"):
        after = ngettext("after %(count)s series", "after %(count)s series", 1) % {"count": 1}
    assert after == "po 1 serii"
    assert after in text
