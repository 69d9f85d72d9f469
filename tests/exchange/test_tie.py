"""A deal recorded as a tie (``"tie": true``, 52:52 without eyes) survives export and import."""

import json

import pytest

from league.exchange import export_tournament, import_tournament
from league.games.baska.settings import tournament_ruleset
from league.models import Tournament
from league.results.models import DealRow
from league.standings.compute import tournament_standings
from players.models import Club, Player, Team
from scoring import score_deal
from tests.exchange.files import load

pytestmark = pytest.mark.django_db

TIE = {"contract": "zwykla", "old": ["B", "D"], "tie": True}
EYES_52 = {"contract": "zwykla", "old": ["B", "D"], "old_eyes": 52}


def with_a_tie() -> dict:
    """The small tournament whose first deal at table 1 ended 52:52 without its eyes counted."""
    data = load("small_puck")
    data["series"][0]["tables"][0]["deals"][0] = TIE
    return data


def ranking(standings: dict) -> list[tuple]:
    return [(row["place"], row["name"], row["big_points"], row["small_points"]) for row in standings["individual"]]


def test_a_tie_deal_is_exported_as_a_tie_and_imported_again_with_the_same_standings():
    tournament = import_tournament(with_a_tie())
    before = ranking(tournament_standings(tournament))
    exported = export_tournament(tournament)
    Tournament.objects.all().delete()
    Team.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()

    again = import_tournament(json.loads(json.dumps(exported)))

    assert exported["series"][0]["tables"][0]["deals"][0] == TIE
    assert ranking(tournament_standings(again)) == before
    stored = DealRow.objects.get(
        protocol__series__tournament=again, protocol__series__number=1, protocol__table=1, number=1
    )
    assert stored.deal == TIE
    assert stored.values == score_deal(EYES_52, tournament_ruleset(again)).values
