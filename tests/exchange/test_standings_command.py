"""Standings of a small hand-computed tournament (``files/small_puck.json``).

Puck rules: 5 / 3 / 1 / 0 big points per table and series, tied players share
their places' points, and a bonus of 3 is shared by the players who end the
series positive; a bye gives 4 big points and +40 small points.

Series 1, table 1: Kowalska 0, Bork +10, Formela 0, Labuda −10 (deals
zwykla +1, zolo by Bork +15, zwykla lost bez wyjścia +4): Bork 5 + 3 = 8,
Kowalska and Formela (3 + 1) / 2 = 2 each, Labuda 0.
Series 1, table 2: Konkol +30 (6.5), Mach +10 (4.5), Szulc −5 (1), Recław −35 (0).
Series 1, bye: Kiedrowska 4 / +40.
Series 2, table 1: Kiedrowska +20 (6.5), Kowalska +5 (4.5), Mach −5 (1), Labuda −20 (0).
Series 2, table 2: Formela +5 (4.5), Bork +20 (6.5), Konkol −5 (1), Recław −20 (0).
Series 2, bye: Szulc 4 / +40.
"""

import json

import pytest
from django.core.management import call_command

from league.exchange import export_tournament, file_standings, import_tournament
from league.models import Tournament
from league.standings.compute import tournament_standings
from tests.exchange.files import load

pytestmark = pytest.mark.django_db

KASZEBE, GRYF = "Kaszëbë Puck", "Gryf Kartuzy"
INDIVIDUAL = [
    (1, "Tomasz Bork", GRYF, 14.5, 30),
    (2, "Zofia Kiedrowska", None, 10.5, 60),
    (3, "Piotr Konkol", KASZEBE, 7.5, 25),
    (4, "Jan Formela", KASZEBE, 6.5, 5),  # tied on big and small points: both 4th, listed by name
    (4, "Anna Kowalska", KASZEBE, 6.5, 5),
    (6, "Karol Mach", GRYF, 5.5, 5),
    (7, "Maria Szulc", KASZEBE, 5, 35),
    (8, "Ewa Labuda", GRYF, 0, -30),  # equal big points: small points decide
    (9, "Józef Recław", GRYF, 0, -55),
]


def table(rows):
    return [(r["place"], r["name"], r["team"], r["big_points"], r["small_points"]) for r in rows]


def test_individual_standings_share_places_and_count_byes_and_the_plus_bonus():
    standings = tournament_standings(import_tournament(load("small_puck")))
    assert table(standings["individual"]) == INDIVIDUAL
    # whole big points are integers in the JSON, fractional ones floats
    assert [type(r["big_points"]) for r in standings["individual"]][5:7] == [float, int]


def test_women_and_men_are_ranked_separately():
    standings = tournament_standings(import_tournament(load("small_puck")))
    assert [(r["place"], r["name"]) for r in standings["women"]] == [
        (1, "Zofia Kiedrowska"),
        (2, "Anna Kowalska"),
        (3, "Maria Szulc"),
        (4, "Ewa Labuda"),
    ]
    assert [(r["place"], r["name"]) for r in standings["men"]] == [
        (1, "Tomasz Bork"),
        (2, "Piotr Konkol"),
        (3, "Jan Formela"),
        (4, "Karol Mach"),
        (5, "Józef Recław"),
    ]


def test_teams_count_their_best_three_of_four():
    # Kaszëbë: big 7.5 + 6.5 + 6.5 (Szulc's 5 dropped), small 35 + 25 + 5 (a 5 dropped)
    # Gryf: big 14.5 + 5.5 + 0, small 30 + 5 − 30 (Recław's −55 dropped)
    standings = tournament_standings(import_tournament(load("small_puck")))
    assert [(r["place"], r["name"], r["big_points"], r["small_points"]) for r in standings["teams"]] == [
        (1, KASZEBE, 20.5, 65),
        (2, GRYF, 20, 5),
    ]


def test_teams_count_all_members_with_the_sum():
    data = load("small_puck")
    data["tournament"]["team_ranking"] = "sum"
    standings = tournament_standings(import_tournament(data))
    assert [(r["name"], r["big_points"], r["small_points"]) for r in standings["teams"]] == [
        (KASZEBE, 25.5, 70),
        (GRYF, 20, -50),
    ]


def test_without_big_points_small_points_rank():
    data = load("small_puck")
    data["tournament"]["uses_big_points"] = False
    standings = tournament_standings(import_tournament(data))
    assert [r["name"] for r in standings["individual"][:3]] == ["Zofia Kiedrowska", "Maria Szulc", "Tomasz Bork"]
    assert [r["name"] for r in standings["teams"]] == [KASZEBE, GRYF]


def test_a_series_counts_once_it_has_results():
    # series 2 drawn, not played: its tables and Szulc's bye count nothing yet
    data = load("small_puck")
    for table_data in data["series"][1]["tables"]:
        table_data["deals"] = []
    standings = tournament_standings(import_tournament(data))
    rows = {r["name"]: (r["big_points"], r["small_points"]) for r in standings["individual"]}
    assert rows["Maria Szulc"] == (1, -5)
    assert rows["Zofia Kiedrowska"] == (4, 40)


def test_the_ids_are_those_of_the_export(django_assert_num_queries):
    tournament = import_tournament(load("small_puck"))
    exported = export_tournament(tournament)
    with django_assert_num_queries(6):  # whatever the number of players, series, deals and penalties
        standings = file_standings(tournament)
    player_ids = {f"{p['first_name']} {p['last_name']}": p["id"] for p in exported["players"]}
    team_ids = {t["name"]: t["id"] for t in exported["teams"]}
    assert {r["name"]: r["id"] for r in standings["individual"]} == player_ids
    assert {r["name"]: r["id"] for r in standings["teams"]} == team_ids


def test_the_ids_are_those_of_the_imported_file():
    standings = file_standings(import_tournament(load("small_puck")))
    assert standings["individual"][0]["id"] == "b1"
    assert standings["teams"][0]["id"] == "t1"


def test_the_command_prints_the_json_of_the_interfaces(capsys):
    tournament = import_tournament(load("small_puck"))
    call_command("standings", "maly-turniej", "--json")
    printed = json.loads(capsys.readouterr().out)
    assert list(printed) == ["individual", "women", "men", "teams"]
    assert printed == file_standings(Tournament.objects.get(pk=tournament.pk))
    # the fields of docs/interfaces.md §4, plus the optional printed label of the place
    assert set(printed["individual"][0]) == {"place", "label", "name", "id", "team", "big_points", "small_points"}
    assert set(printed["teams"][0]) == {"place", "label", "name", "id", "big_points", "small_points"}


def test_the_standings_name_players_and_teams_by_primary_key_and_the_command_by_file_id(capsys):
    tournament = import_tournament(load("small_puck"))
    standings = tournament_standings(tournament)
    call_command("standings", "maly-turniej", "--json")
    printed = json.loads(capsys.readouterr().out)
    bork = tournament.registrations.get(player__last_name="Bork")
    konkol = tournament.registrations.get(player__last_name="Konkol")  # of Kaszëbë, the best team
    assert standings["individual"][0]["pk"] == bork.player_id and "id" not in standings["individual"][0]
    assert standings["teams"][0]["pk"] == konkol.team_id
    assert printed["individual"][0]["id"] == "b1" and "pk" not in printed["individual"][0]
    # the file id takes the primary key's place, so the printed fields keep their order
    assert list(printed["individual"][0]) == ["place", "label", "name", "id", "team", "big_points", "small_points"]


def test_the_command_prints_a_readable_table_without_json(capsys):
    import_tournament(load("small_puck"))
    call_command("standings", "maly-turniej")
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "Individual"
    assert lines[2].split() == ["1.", "Tomasz", "Bork", "14.5", "30"]
