"""Names in Polish alphabetical order: a letter with a diacritic right after its base letter
(Kąkol before Kwidziński, Ł after L, Ż last), in the standings' shared places and in lists."""

from __future__ import annotations

import pytest

from league.standings.compute import tournament_standings
from players.names import name_key, player_key
from tests.factories import PlayerFactory, RegistrationFactory, TeamFactory, TournamentFactory, played_series

# shuffled: code-point order would put Łoś and Żak after every plain letter, and Ćwik after Zieliński
SURNAMES = ["Żak", "Mak", "Łoś", "Lis", "Kwidziński", "Kąkol", "Ćwik", "Zieliński"]
POLISH = ["Ćwik", "Kąkol", "Kwidziński", "Lis", "Łoś", "Mak", "Zieliński", "Żak"]


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("Kąkol", "Kwidziński"),
        ("Lis", "Łoś"),
        ("Łoś", "Mak"),
        ("Lzy", "Łabuda"),  # Ł is a letter of its own, after every L
        ("Zieliński", "Żak"),
        ("Źrebiec", "Żak"),
        ("Cybulski", "Ćwik"),
        ("Abramek", "Ąbek"),
        ("Szulc", "Śliwa"),
        ("Osowski", "Ósma"),
        ("kąkol", "Kwidziński"),  # case does not matter
    ],
)
def test_a_letter_with_a_diacritic_comes_right_after_its_base_letter(earlier, later):
    assert name_key(earlier) < name_key(later)


def test_players_are_ordered_by_surname_then_first_name():
    players = [PlayerFactory.build(first_name=first, last_name="Łoś") for first in ("Żaneta", "Zofia", "Ewa")]
    players.append(PlayerFactory.build(first_name="Adam", last_name="Lis"))

    assert [p.full_name for p in sorted(players, key=player_key)] == ["Adam Lis", "Ewa Łoś", "Zofia Łoś", "Żaneta Łoś"]


@pytest.mark.django_db
def test_players_sharing_a_place_are_listed_in_polish_order():
    tournament = TournamentFactory()
    players = [PlayerFactory(first_name="Jan", last_name=surname) for surname in SURNAMES]
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    # every deal even: all eight share the first place
    played_series(tournament, 1, [[(p, 0) for p in players[:4]], [(p, 0) for p in players[4:]]])

    individual = tournament_standings(tournament)["individual"]

    assert {row["place"] for row in individual} == {1}
    assert [row["name"].split()[-1] for row in individual] == POLISH


@pytest.mark.django_db
def test_teams_sharing_a_place_are_listed_in_polish_order():
    tournament = TournamentFactory()
    names = ["Żukowo", "Łebsko", "Zblewo", "Lipnica"]
    people = []
    for name in names:
        team = TeamFactory(name=name, members=4)
        for member in team.memberships.select_related("player"):
            RegistrationFactory(tournament=tournament, player=member.player, team=team)
            people.append(member.player)
    played_series(tournament, 1, [[(p, 0) for p in people[4 * t : 4 * t + 4]] for t in range(4)])

    teams = tournament_standings(tournament)["teams"]

    assert [row["name"] for row in teams] == ["Lipnica", "Łebsko", "Zblewo", "Żukowo"]
