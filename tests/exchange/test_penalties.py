"""Referee penalties in the exchange file (docs/interfaces.md §4, ``penalties`` per series) and in
``standings --json``: entered through the referee's screens, exported, imported, the same standings."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from league.exchange import ExchangeError, export_tournament, external_ids, file_standings, import_tournament
from league.exchange.standings import file_penalties
from league.models import Tournament
from league.results.models import Penalty, PenaltyVersion
from scoring import load_ruleset, ruleset_to_dict
from tests.exchange.files import load
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# Series 2 of small_puck: Kowalska (a1) at table 1, Szulc (a4) the bye.
PENALTIES = [
    {"player": "a1", "small_points": -10, "big_points": 0, "reason": "wpis niezgodny z przebiegiem gry"},
    {"player": "a4", "small_points": -4, "big_points": 0, "reason": "spóźnienie"},
]


def with_penalties(penalties=PENALTIES):
    data = load("small_puck")
    data["series"][1]["penalties"] = penalties
    return data


def standings_json(capsys, slug: str) -> dict:
    call_command("standings", slug, "--json")
    return json.loads(capsys.readouterr().out)


def test_the_import_stores_each_penalty_with_its_history_and_the_standings_count_it():
    importer = UserFactory()
    before = {row["id"]: row for row in file_standings(import_tournament(load("small_puck")))["individual"]}
    Tournament.objects.all().delete()

    tournament = import_tournament(with_penalties(), user=importer)

    after = {row["id"]: row for row in file_standings(tournament)["individual"]}
    assert after["a1"]["small_points"] == before["a1"]["small_points"] - 10
    assert after["a4"]["small_points"] == before["a4"]["small_points"] - 4
    assert [(p.player.last_name, p.small_points, p.reason) for p in Penalty.objects.order_by("pk")] == [
        ("Kowalska", -10, "wpis niezgodny z przebiegiem gry"),
        ("Szulc", -4, "spóźnienie"),
    ]
    versions = PenaltyVersion.objects.order_by("pk")
    assert [(v.action, v.user, v.reason) for v in versions] == [
        ("add", importer, "wpis niezgodny z przebiegiem gry"),
        ("add", importer, "spóźnienie"),
    ]


def test_the_export_writes_penalties_only_for_the_series_that_have_them():
    exported = export_tournament(import_tournament(with_penalties()))
    assert "penalties" not in exported["series"][0]
    assert exported["series"][1]["penalties"] == PENALTIES


@pytest.mark.parametrize(
    ("penalty", "path", "message"),
    [
        ({"player": "zz", "small_points": -1, "reason": "x"}, "series[1].penalties[0].player", "unknown player"),
        ({"player": "a1", "small_points": 0, "big_points": 0, "reason": "x"}, "series[1].penalties[0]", "both are 0"),
        ({"player": "a1", "small_points": -1}, "series[1].penalties[0].reason", "given"),
        ({"player": "a1", "small_points": -1, "reason": " "}, "series[1].penalties[0].reason", "needs a reason"),
        ({"player": "a1", "small_points": 1.5, "reason": "x"}, "series[1].penalties[0].small_points", "integer"),
        ({"player": "a1", "big_points": -1, "reason": "x"}, "series[1].penalties[0].big_points", "does not allow"),
        ({"player": "a1", "big_points": -0.125, "reason": "x"}, "series[1].penalties[0].big_points", "two decimal"),
        ({"player": "a1", "small_points": -1, "reason": "x", "kind": 1}, "series[1].penalties[0].kind", "absent"),
    ],
)
def test_a_wrong_penalty_is_refused_at_its_place_and_nothing_is_imported(penalty, path, message):
    with pytest.raises(ExchangeError) as refusal:
        import_tournament(with_penalties([penalty]))
    assert refusal.value.path == path and message in refusal.value.message
    assert not Tournament.objects.exists() and not Penalty.objects.exists()


def test_a_penalty_of_a_player_who_did_not_play_the_series_is_refused_by_the_rules():
    data = load("small_puck")
    data["players"].append({"id": "x1", "first_name": "Adam", "last_name": "Spóźniony", "gender": "M"})
    data["series"][0]["penalties"] = [{"player": "x1", "small_points": -5, "reason": "nie grał"}]
    with pytest.raises(ExchangeError) as refusal:
        import_tournament(data)
    assert refusal.value.path == "series[0].penalties[0].player"
    assert "neither played nor had a bye in it" in refusal.value.message
    assert not Tournament.objects.exists()


def test_big_points_are_exchanged_where_the_rules_allow_them():
    data = with_penalties([{"player": "a1", "small_points": 0, "big_points": -1.5, "reason": "walkower"}])
    data["tournament"]["ruleset_data"] = ruleset_to_dict(load_ruleset("puck")) | {"penalty_big_points": True}
    tournament = import_tournament(data)
    assert export_tournament(tournament)["series"][1]["penalties"][0]["big_points"] == -1.5
    kowalska = next(row for row in file_standings(tournament)["individual"] if row["id"] == "a1")
    assert kowalska["big_points"] == 6.5 - 1.5


def test_the_standings_json_lists_the_penalties_it_counts(capsys):
    import_tournament(with_penalties())
    printed = standings_json(capsys, "maly-turniej")
    assert list(printed) == ["individual", "women", "men", "teams", "penalties"]
    assert printed["penalties"] == [
        {
            "series": 2,
            "player": "a1",
            "name": "Anna Kowalska",
            "small_points": -10,
            "big_points": 0,
            "reason": "wpis niezgodny z przebiegiem gry",
        },
        {
            "series": 2,
            "player": "a4",
            "name": "Maria Szulc",
            "small_points": -4,
            "big_points": 0,
            "reason": "spóźnienie",
        },
    ]


def test_penalties_entered_by_the_referee_survive_export_and_import_with_the_same_standings(client, capsys):
    """Done when (issue 13): penalties through entry → standings → export → import → the same standings."""
    tournament = import_tournament(load("small_puck"))
    referee = UserFactory()
    tournament.referees.add(referee)
    client.force_login(referee)
    ids = {ref: pk for pk, ref in external_ids(tournament)[0].items()}
    untouched = standings_json(capsys, tournament.slug)

    for number, ref, small in [(1, "b1", -15), (2, "a1", -10), (2, "a4", 3)]:  # a4: the bye of series 2
        response = client.post(
            reverse("results:penalty_add", args=[tournament.slug, number]),
            {"penalty-player": ids[ref], "penalty-small_points": small, "penalty-reason": f"kara {ref}"},
        )
        assert response.status_code == 302
    entered = standings_json(capsys, tournament.slug)
    assert entered["individual"] != untouched["individual"]
    assert len(entered["penalties"]) == 3

    exported = export_tournament(tournament)
    exported["tournament"]["slug"] = "maly-turniej-kopia"
    del exported["tournament"]["tournament_id"]  # a copy beside it is another tournament; the id would replace it
    copy = import_tournament(json.loads(json.dumps(exported)))

    assert standings_json(capsys, copy.slug) == entered
    assert file_penalties(copy) == file_penalties(tournament)
