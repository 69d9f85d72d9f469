"""Rankings against hand-computed tables (docs/rules.md §6): shared places, gorzow
tie-breaks, women/men, best three of four in teams, season best K of N, and
no stale standings after a correction."""

from __future__ import annotations

import pytest

from league.models import TeamRanking, Tournament
from league.results import services as results
from league.results.models import Protocol
from league.standings.cache import season_rankings, stamp_of, stamps, tournament_rankings
from league.standings.refresh import standings_touch
from players.models import Gender
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    played_series,
)

pytestmark = pytest.mark.django_db


def players(tournament, names: str, team=None, women: str = "") -> dict[str, object]:
    """Registered players named by single letters; those in ``women`` are women."""
    made = {}
    for name in names:
        player = PlayerFactory(first_name=name, last_name=name, gender=Gender.WOMAN if name in women else Gender.MAN)
        RegistrationFactory(tournament=tournament, player=player, team=team)
        made[name] = player
    return made


def summary(entries) -> list[tuple]:
    return [(e["label"], e["name"], e.get("big_points"), e["small_points"]) for e in entries]


def test_gorzow_tiebreaks_places_then_shared_places():
    t = TournamentFactory(ruleset_preset="gorzow")
    p = players(t, "XYPQRSUV")
    played_series(
        t,
        1,
        [
            [(p["X"], 20), (p["Y"], 5), (p["P"], -10), (p["Q"], -15)],  # 5 3 2 1
            [(p["R"], 20), (p["S"], 10), (p["U"], -10), (p["V"], -20)],  # 5 3 2 1
        ],
    )
    played_series(
        t,
        2,
        [
            [(p["R"], 35), (p["Y"], -5), (p["U"], -10), (p["X"], -20)],  # 5 3 2 1
            [(p["S"], 10), (p["P"], 0), (p["V"], 0), (p["Q"], -10)],  # 5, 2.5 and 2.5 shared, 1
        ],
    )

    individual = tournament_rankings(t)["individual"]

    # X and Y: 6 big, 0 small; X has a 1st place, Y none, so X is ahead
    assert summary(individual) == [
        ("1.", "R R", 10, 55),
        ("2.", "S S", 8, 20),
        ("3.", "X X", 6, 0),
        ("4.", "Y Y", 6, 0),
        ("5.", "P P", 4.5, -10),
        ("6.", "U U", 4, -20),
        ("7.", "V V", 3.5, -20),
        ("8.", "Q Q", 2, -25),
    ]


@pytest.fixture
def puck_two_teams():
    """Puck (5/3/1/0 plus 3 shared by the positive), teams of four counting the best three."""
    t = TournamentFactory(
        ruleset_preset="puck", team_ranking=TeamRanking.BEST, team_best_of=3, publish_women=True, publish_men=True
    )
    team_a, team_b = TeamFactory(name="Gryf"), TeamFactory(name="Remus")
    p = players(t, "abcd", team=team_a, women="ac") | players(t, "efgh", team=team_b, women="f")
    played_series(
        t,
        1,
        [
            [(p["a"], 50), (p["e"], 20), (p["b"], -30), (p["f"], -40)],  # 6.5 4.5 1 0
            [(p["g"], 60), (p["c"], 20), (p["h"], -30), (p["d"], -50)],  # 6.5 4.5 1 0
        ],
    )
    return t


def test_puck_shared_places_are_labelled(puck_two_teams):
    individual = tournament_rankings(puck_two_teams)["individual"]

    assert summary(individual) == [
        ("1.", "g g", 6.5, 60),
        ("2.", "a a", 6.5, 50),
        ("3–4.", "c c", 4.5, 20),
        ("3–4.", "e e", 4.5, 20),
        ("5–6.", "b b", 1, -30),
        ("5–6.", "h h", 1, -30),
        ("7.", "f f", 0, -40),
        ("8.", "d d", 0, -50),
    ]
    assert [e["place"] for e in individual] == [1, 2, 3, 3, 5, 5, 7, 8]


def test_women_and_men_are_ranked_apart(puck_two_teams):
    lists = tournament_rankings(puck_two_teams)

    assert [(e["label"], e["name"]) for e in lists["women"]] == [("1.", "a a"), ("2.", "c c"), ("3.", "f f")]
    assert [(e["label"], e["name"]) for e in lists["men"]] == [
        ("1.", "g g"),
        ("2.", "e e"),
        ("3–4.", "b b"),
        ("3–4.", "h h"),
        ("5.", "d d"),
    ]


def test_teams_count_their_best_three_of_four(puck_two_teams):
    teams = tournament_rankings(puck_two_teams)["teams"]

    # Gryf +50 +20 −30 (−50 dropped) = +40; Remus +60 +20 −30 (−40 dropped) = +50; both 12 big
    assert summary(teams) == [("1.", "Remus", 12, 50), ("2.", "Gryf", 12, 40)]


def test_teams_sum_all_four_when_so_set(puck_two_teams):
    puck_two_teams.team_ranking = TeamRanking.SUM
    puck_two_teams.save()

    teams = tournament_rankings(puck_two_teams)["teams"]

    assert summary(teams) == [("1.", "Remus", 12, 10), ("2.", "Gryf", 12, -10)]


def small_points_season(best_of: int | None):
    """Three psb tournaments (small points only) of the same four players."""
    season = SeasonFactory(best_of=best_of)
    people = [PlayerFactory(first_name=name, last_name="") for name in "PQRS"]
    for n, points in enumerate([(178, -100, -50, -28), (-100, 100, 50, -50), (50, -30, -10, -10)], start=1):
        t = TournamentFactory(season=season, ruleset_preset="psb", uses_big_points=False, slug=f"psb-{n}")
        for player in people:
            RegistrationFactory(tournament=t, player=player)
        played_series(t, 1, [list(zip(people, points, strict=True))])
    # a tournament that does not count for the season changes nothing
    outside = TournamentFactory(season=season, ruleset_preset="psb", counts_for_season=False)
    RegistrationFactory(tournament=outside, player=people[3])
    played_series(outside, 1, [[(people[3], 999), *[(PlayerFactory(), -333) for _ in range(3)]]])
    return season


def test_season_adds_up_all_tournaments():
    individual = season_rankings(small_points_season(None))["individual"]

    # psb example I: +178 −100 +50 = +128
    assert [(e["label"], e["name"].strip(), e["small_points"], e["tournaments"]) for e in individual] == [
        ("1.", "P", 128, 3),
        ("2.", "R", -10, 3),
        ("3.", "Q", -30, 3),
        ("4.", "S", -88, 3),
    ]


def test_season_counts_the_best_two_of_three():
    individual = season_rankings(small_points_season(2))["individual"]

    assert [(e["name"].strip(), e["small_points"]) for e in individual] == [
        ("P", 228),
        ("Q", 70),
        ("R", 40),
        ("S", -38),
    ]


def test_season_team_table_adds_team_results():
    season = SeasonFactory()
    team = TeamFactory(name="Gryf", members=4)
    members = [m.player for m in team.memberships.order_by("pk")]
    for _ in range(2):
        t = TournamentFactory(season=season, ruleset_preset="puck")
        for player in members:
            RegistrationFactory(tournament=t, player=player, team=team)
        played_series(t, 1, [list(zip(members, (30, 10, -10, -30), strict=True))])

    teams = season_rankings(season)["teams"]

    # each tournament: 6.5 + 4.5 + 1 + 0 = 12 big, 0 small
    assert [(e["name"], e["big_points"], e["small_points"], e["tournaments"]) for e in teams] == [("Gryf", 24, 0, 2)]


def test_a_correction_is_never_served_stale(django_capture_on_commit_callbacks, django_assert_num_queries):
    t = TournamentFactory(ruleset_preset="puck")
    p = players(t, "abcd")
    series = played_series(t, 1, [[(p["a"], 30), (p["b"], 10), (p["c"], -10), (p["d"], -30)]])
    assert tournament_rankings(t)["individual"][0]["name"] == "a a"

    referee = UserFactory()
    t.referees.add(referee)
    protocol = Protocol.objects.get(series=series, table=1)
    with django_capture_on_commit_callbacks(execute=True):
        results.protocol_row_save(
            protocol=protocol,
            number=1,
            deal={"values": {"A": -30, "B": 10, "C": -10, "D": 30}},
            expected_version=protocol.version,
            user=referee,
            reason="A and D swapped on paper",
        )
        standings_touch(tournament_id=t.pk)

    # the task has already put the new standings in the cache: reading them costs only the stamp
    with django_assert_num_queries(1):
        individual = tournament_rankings(t)["individual"]
    assert [(e["name"], e["small_points"]) for e in individual] == [
        ("d d", 30),
        ("b b", 10),
        ("c c", -10),
        ("a a", -30),
    ]


def test_the_stamp_of_a_tournament_is_its_stamp_and_moves_with_its_results_a_second_later_at_least():
    t = TournamentFactory(ruleset_preset="puck")
    p = players(t, "ABCD")
    played_series(t, 1, [[(p["A"], 10), (p["B"], 5), (p["C"], -5), (p["D"], -10)]])
    before = stamp_of(Tournament.objects.filter(slug=t.slug))

    assert before[:2] == (t.pk, stamps(Tournament.objects.filter(pk=t.pk))[t.pk])
    played_series(t, 2, [[(p["A"], -10), (p["B"], 5), (p["C"], -5), (p["D"], 10)]])
    after = stamp_of(Tournament.objects.filter(slug=t.slug))
    assert after.token != before.token
    # a page's date counts whole seconds: the change after is dated in a later one, however soon
    assert int(after.changed.timestamp()) > int(before.changed.timestamp())
    assert stamp_of(Tournament.objects.filter(slug="no-such-tournament")) is None
