"""Exporting: the file of a stored tournament, and export → import → export giving it back."""

import json
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.exchange import FORMAT, export_tournament, import_tournament
from league.games.baska.settings import own_ruleset_set
from league.models import Tournament
from players.models import Club, Player, Team
from scoring import load_ruleset, ruleset_to_dict
from tests.exchange.files import load

pytestmark = pytest.mark.django_db


def normalised(exported: dict[str, Any]) -> dict[str, Any]:
    """The file with its ids (made from primary keys) replaced by names, which
    survive a trip through another database."""
    players = {p["id"]: f"{p['first_name']} {p['last_name']}" for p in exported["players"]}
    teams = {t["id"]: t["name"] for t in exported["teams"]}
    data = json.loads(json.dumps(exported))
    for team in data["teams"]:
        team["id"] = teams[team["id"]]
    for player in data["players"]:
        player["id"] = players[player["id"]]
        player["team"] = teams.get(player["team"])
    for series in data["series"]:
        series["byes"] = [players[p] for p in series["byes"]]
        for table in series["tables"]:
            table["seats"] = {seat: players[p] for seat, p in table["seats"].items()}
    return data


def empty_the_database() -> None:
    Tournament.objects.all().delete()
    Team.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()


def with_everything_optional(data: dict[str, Any]) -> dict[str, Any]:
    """The small tournament with every optional field the format allows set."""
    rules = ruleset_to_dict(load_ruleset("puck"))
    rules["placement"]["points"] = [4, 3, 2, 1]
    data["tournament"].update(organiser="GKS Puck", uses_big_points=False, ruleset_data=rules, team_ranking="sum")
    data["teams"][0]["club"] = "GKS Puck"
    return data


def with_a_cicha_na_dobiciu(data: dict[str, Any]) -> dict[str, Any]:
    """The small tournament under gorzow with a cicha "na dobiciu" whose kontra is not counted."""
    data["tournament"]["ruleset"] = "gorzow"
    deal = {"contract": "cicha", "old": ["B"], "kontras": ["young"], "laid_down": True, "cicha_na_dobiciu": True}
    data["series"][0]["tables"][0]["deals"][1] = deal
    return data


@pytest.mark.parametrize(
    "data",
    [load("small_puck"), with_everything_optional(load("small_puck")), with_a_cicha_na_dobiciu(load("small_puck"))],
)
def test_export_then_import_into_an_empty_database_gives_the_same_tournament(data):
    first = export_tournament(import_tournament(data))
    empty_the_database()

    again = export_tournament(import_tournament(json.loads(json.dumps(first))))

    assert normalised(again) == normalised(first)
    deals = [deal for series in again["series"] for table in series["tables"] for deal in table["deals"]]
    marked = [deal for deal in deals if deal.get("cicha_na_dobiciu")]
    assert len(marked) == ("gorzow" == data["tournament"]["ruleset"])


def test_the_export_carries_the_file_content(django_assert_num_queries):
    tournament = import_tournament(load("small_puck"))
    with django_assert_num_queries(8):  # whatever the number of players, series, deals and penalties
        exported = export_tournament(tournament)

    assert exported["format"] == FORMAT
    # the file had no tournament id: the import gave the tournament its own, and the export writes it
    assert exported["tournament"].pop("tournament_id") == str(tournament.exchange_id)
    assert exported["tournament"] == {
        "name": "Mały turniej",
        "slug": "maly-turniej",
        "date": "2026-05-09",
        "venue": "Puck",
        "ruleset": "puck",
        "series_count": 2,
        "deals_per_series": 16,
        "team_ranking": "best3",
        "organiser": "",
        "uses_big_points": True,
    }
    data = normalised(exported)
    kiedrowska = next(p for p in data["players"] if p["last_name"] == "Kiedrowska")
    assert kiedrowska == {
        "id": "Zofia Kiedrowska",
        "first_name": "Zofia",
        "last_name": "Kiedrowska",
        "gender": "F",
        "club": None,
        "team": None,
        "licence": "KASZ-0042",
    }
    table = data["series"][1]["tables"][1]
    assert table == {
        "number": 2,
        "seats": {"A": "Jan Formela", "B": "Tomasz Bork", "C": "Piotr Konkol", "D": "Józef Recław"},
        "deals": [{"values": {"A": 5, "B": 20, "C": -5, "D": -20}}],
        "ended_early": True,
    }
    assert [s["byes"] for s in data["series"]] == [["Zofia Kiedrowska"], ["Maria Szulc"]]


def test_a_series_without_results_is_exported_empty():
    tournament = import_tournament(load("interfaces_example"))
    series = export_tournament(tournament)["series"]
    assert [s["number"] for s in series] == [1, 2, 3]
    assert series[1] == {"number": 2, "tables": [], "byes": []}


def test_the_command_prints_the_file_and_refuses_an_unknown_slug(capsys):
    import_tournament(load("small_puck"))
    call_command("export_tournament", "maly-turniej")
    printed = json.loads(capsys.readouterr().out)
    assert printed == export_tournament(Tournament.objects.get(slug="maly-turniej"))

    with pytest.raises(CommandError, match="No tournament with the slug 'nope'"):
        call_command("export_tournament", "nope")


def test_a_tournament_on_own_rules_exports_them_and_imports_to_the_same_standings():
    from league.exchange.standings import file_standings
    from tests.factories import OwnRulesetFactory

    tournament = import_tournament(load("small_puck"))
    own = OwnRulesetFactory(based_on="puck", data=ruleset_to_dict(load_ruleset("puck")))
    own.data["placement"]["points"] = [9, 3, 2, 0]  # placement unlike the preset's, so standings differ
    own.save()
    own_ruleset_set(tournament=tournament, ruleset=own)
    before = file_standings(tournament)
    exported = export_tournament(tournament)
    assert exported["tournament"]["ruleset_data"]["placement"]["points"] == [9, 3, 2, 0]

    empty_the_database()
    again = import_tournament(json.loads(json.dumps(exported)))
    assert file_standings(again)["individual"] == before["individual"] != []
