"""Importing exchange files: what is written, how players are matched, and
that an invalid file changes nothing and says where it is wrong."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.exchange import ExchangeError, import_tournament
from league.models import Bye, Registration, Series, TableAssignment, TeamRanking, Tournament
from league.results.models import DealRow, DealRowVersion, Protocol
from league.standings.selectors import series_byes
from players.models import Club, Player, Team, TeamMember
from tests.exchange.files import DIRECTORY, load
from tests.factories import game_settings

pytestmark = pytest.mark.django_db

MODELS = [
    Club,
    Player,
    Team,
    TeamMember,
    Tournament,
    Series,
    Registration,
    TableAssignment,
    Bye,
    Protocol,
    DealRow,
    DealRowVersion,
]


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def test_the_example_of_the_interfaces_imports_with_everything_it_describes():
    tournament = import_tournament(load("interfaces_example"))

    assert (tournament.slug, game_settings(tournament).ruleset_preset) == ("puchar-wojta-2026", "puck")
    assert str(tournament.date) == "2026-03-14"
    assert (tournament.team_ranking, tournament.team_best_of) == (TeamRanking.BEST, 3)
    assert set(Club.objects.values_list("name", flat=True)) == {"GKS Puck", "Gryf Kartuzy"}
    teams = dict(tournament.registrations.values_list("player__last_name", "team__name"))
    assert teams == {
        "Kowalska": "Kaszëbë Puck",
        "Formela": "Kaszëbë Puck",
        "Bork": "Kaszëbë Puck",
        "Konkol": None,
        "Szulc": None,
    }
    # the file has series 1 of 3: the others wait, planned
    series = {s.number: s for s in tournament.series.all()}
    assert [(n, s.status, s.results_entered) for n, s in sorted(series.items())] == [
        (1, Series.Status.CLOSED, True),
        (2, Series.Status.PLANNED, False),
        (3, Series.Status.PLANNED, False),
    ]
    seats = series[1].assignments.values_list("table", "seat", "player__last_name")
    assert list(seats) == [(1, "A", "Kowalska"), (1, "B", "Formela"), (1, "C", "Konkol"), (1, "D", "Szulc")]
    [bye] = series_byes(series[1])  # what the file's rules pay a lone bye
    assert (Player.objects.get(pk=bye.player_id).last_name, bye.big_points, bye.small_points) == ("Bork", 4, 40)
    protocol = series[1].protocols.get()
    assert (protocol.table, protocol.status) == (1, Protocol.Status.CONFIRMED)
    row = protocol.rows.get()
    assert (row.number, row.values, row.doubled) == (1, {"A": 1, "B": -1, "C": 1, "D": -1}, False)
    assert row.deal == {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}
    history = protocol.history.get()
    assert (history.action, history.new_values, history.author) == ("add", row.values, "import")


def test_players_clubs_and_teams_already_stored_are_reused():
    puck = Club.objects.create(name="GKS Puck")
    by_licence = Player.objects.create(first_name="Anna", last_name="Kowalska-Bork", gender="F", licence="L-1")
    by_name = Player.objects.create(first_name="Jan", last_name="Formela", gender="M", club=puck)
    namesake = Player.objects.create(first_name="Piotr", last_name="Konkol", gender="M", club=puck, licence="L-9")
    team = Team.objects.create(name="Kaszëbë Puck")
    data = load("interfaces_example")
    players = data["players"]
    players[0]["licence"] = "L-1"
    players[1].update(first_name="JAN", club="gks puck")  # names and clubs match whatever the case
    players[2].update(club="GKS Puck", licence="L-2")  # the namesake has another licence: somebody else

    tournament = import_tournament(data)

    registered = set(tournament.registrations.values_list("player_id", flat=True))
    assert {by_licence.pk, by_name.pk} <= registered
    assert namesake.pk not in registered
    assert Player.objects.filter(last_name="Konkol", licence="L-2").exists()
    assert list(Club.objects.values_list("name", flat=True)) == ["GKS Puck"]
    assert set(tournament.registrations.exclude(team=None).values_list("team", flat=True)) == {team.pk}


def _bad_deal(data):
    deals = data["series"][1]["tables"][0]["deals"]
    deals.append({"contract": "zwykla", "old": ["A", "C"], "old_eyes": 140})


def _unknown_seat(data):
    seats = data["series"][0]["tables"][1]["seats"]
    seats["E"] = seats.pop("D")


def _wrong_format(data):
    data["format"] = "baska-league/2"


def _unknown_player(data):
    data["series"][1]["byes"] = ["zz"]


def _seated_twice(data):
    data["series"][0]["tables"][1]["seats"]["B"] = "a1"


def _second_bye(data):
    data["players"].append({"id": "x1", "first_name": "Jerzy", "last_name": "Treder", "gender": "M"})
    data["series"][0]["byes"].append("x1")
    data["series"][1]["byes"].append("x1")


def _unknown_team(data):
    data["players"][4]["team"] = "t9"


def _declarer_kontras_first(data):
    data["series"][0]["tables"][0]["deals"][1]["kontras"] = ["old", "young"]  # the declarer may not kontra first


def _same_player_twice(data):
    data["players"].append(dict(data["players"][0], id="a9"))


def _own_rules_broken(data):
    data["tournament"]["ruleset_data"] = {"id": "own"}


def _bad_date(data):
    data["tournament"]["date"] = "2026-02-30"


@pytest.mark.parametrize(
    ("spoil", "path"),
    [
        (_bad_deal, "series[1].tables[0].deals[1].old_eyes"),
        (_unknown_seat, "series[0].tables[1].seats.E"),
        (_wrong_format, "format"),
        (_unknown_player, "series[1].byes[0]"),
        (_seated_twice, "series[0].tables[1].seats.B"),
        (_second_bye, "series[1].byes[1]"),
        (_unknown_team, "players[4].team"),
        (_declarer_kontras_first, "series[0].tables[0].deals[1].kontras"),
        (_same_player_twice, "players[9]"),
        (_own_rules_broken, "tournament.ruleset_data"),
        (_bad_date, "tournament.date"),
    ],
)
def test_an_invalid_file_changes_nothing_and_names_the_place(spoil, path):
    Club.objects.create(name="Already here")
    data = load("small_puck")
    spoil(data)
    before = row_counts()

    with pytest.raises(ExchangeError) as caught:
        import_tournament(data)

    assert caught.value.path.startswith(path)
    assert str(caught.value).startswith(f"{caught.value.path}: ")
    assert row_counts() == before


def test_a_tournament_is_imported_once():
    import_tournament(load("small_puck"))
    before = row_counts()
    with pytest.raises(ExchangeError) as caught:
        import_tournament(load("small_puck"))
    assert caught.value.path == "tournament.slug"
    assert row_counts() == before


# --- the command ------------------------------------------------------------


def test_the_command_imports_a_file_and_exits_with_0(manage):
    status, out, _ = manage(str(DIRECTORY / "small_puck.json"))
    assert (status, out.strip()) == (0, "Imported Mały turniej (maly-turniej).")
    assert Tournament.objects.filter(slug="maly-turniej").exists()


def test_the_command_exits_with_1_and_names_the_place_on_an_invalid_file(manage, tmp_path: Path):
    data = load("small_puck")
    _bad_deal(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    before = row_counts()

    status, _, err = manage(str(bad))

    assert status == 1
    assert "series[1].tables[0].deals[1].old_eyes: The old side's eyes must be between 0 and 104" in err
    assert row_counts() == before


@pytest.mark.parametrize(("content", "message"), [('{"format": ', "not valid JSON"), (None, "cannot be read")])
def test_the_command_refuses_what_is_not_a_json_file(manage, tmp_path: Path, content, message):
    file = tmp_path / "file.json"
    if content is not None:
        file.write_text(content, encoding="utf-8")
    before = row_counts()

    status, _, err = manage(str(file))

    assert status == 1
    assert f"{file}: {message}" in err
    assert row_counts() == before


def test_call_command_raises_command_error_with_the_path():
    data = load("small_puck")
    _unknown_seat(data)
    with pytest.raises(CommandError, match=r"^series\[0\]\.tables\[1\]\.seats\.E: Unknown seat E"):
        call_command("import_tournament", _write(data))


def _write(data) -> str:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as file:
        json.dump(data, file)
    return file.name
