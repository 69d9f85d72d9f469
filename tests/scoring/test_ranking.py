"""Team points, rankings with shared places, tournament and season totals (docs/rules.md §6)."""

import pytest

from scoring import (
    Ranked,
    ScoringError,
    SeriesResult,
    Standing,
    TableResult,
    accumulate,
    award_points,
    load_ruleset,
    rank,
    season_totals,
    team_small_points,
    team_standing,
)

GORZOW = load_ruleset("gorzow")


def test_team_sums_all_members():
    assert team_small_points([50, 92, 4, -109], None) == 37


def test_team_best_three_of_four_drops_the_worst():
    assert team_small_points([50, 92, 4, -109], 3) == 146


def test_team_of_five_best_four():
    assert team_small_points([10, -5, 7, 3, -20], 4) == 15


def test_rank_gives_competition_places_and_labels():
    entries = [Standing(p, small_points=s) for p, s in [("a", 30), ("b", 20), ("c", 10), ("d", 10), ("e", -70)]]
    ranked = rank(entries, ["small_points"])
    assert [(r.standing.id, r.place, r.label) for r in ranked] == [
        ("a", 1, "1."),
        ("b", 2, "2."),
        ("c", 3, "3–4."),
        ("d", 3, "3–4."),
        ("e", 5, "5."),
    ]


def test_gorzow_tie_breaks_after_small_points_count_places():
    more_firsts = Standing("x", 10, 5, (2, 0, 1, 1))
    more_seconds = Standing("y", 10, 5, (1, 2, 1, 0))
    fewer_fourths = Standing("z", 10, 5, (1, 2, 0, 1))
    more_fourths = Standing("w", 10, 5, (1, 2, 0, 2))
    ranked = rank([more_fourths, fewer_fourths, more_seconds, more_firsts], GORZOW.tiebreaks)
    assert [r.standing.id for r in ranked] == ["x", "y", "z", "w"]


def test_big_points_come_before_small_points():
    ranked = rank([Standing("a", 10, 50), Standing("b", 12, -30)], load_ruleset("puck").tiebreaks)
    assert [r.standing.id for r in ranked] == ["b", "a"]


def test_unknown_tiebreak_is_rejected():
    with pytest.raises(ScoringError) as error:
        rank([Standing("a")], ["luck"])
    assert error.value.code == "unknown_tiebreak"


def table(players, points):
    return TableResult(dict(zip("ABCD", players, strict=True)), dict(zip("ABCD", points, strict=True)))


def test_accumulate_adds_placements_small_points_and_byes():
    series = [
        SeriesResult([table(["p1", "p2", "p3", "p4"], [20, 20, -10, -30])], byes=["p5"]),
        SeriesResult([table(["p5", "p2", "p3", "p1"], [5, 5, -5, -5])], byes=["p4"]),
    ]
    totals = accumulate(series, GORZOW)
    # gorzow compares shared places by the points earned (IX: "4,0, 2,5"), so each result is kept
    assert totals["p1"] == Standing("p1", 4 + 1.5, 15, (0.5, 0.5, 0.5, 0.5), series_played=2, table_points=(4.0, 1.5))
    assert totals["p5"] == Standing("p5", 3 + 4, 5, (0.5, 0.5, 0, 0), series_played=1, byes=1, table_points=(4.0,))


def test_second_bye_in_a_tournament_is_rejected():
    series = [SeriesResult([table(["p1", "p2", "p3", "p4"], [1, 1, -1, -1])], byes=["p5"])] * 2
    with pytest.raises(ScoringError) as error:
        accumulate(series, GORZOW)
    assert error.value.code == "too_many_byes"


def test_player_seated_twice_in_a_series_is_rejected():
    series = [SeriesResult([table(["p1", "p2", "p3", "p4"], [1, 1, -1, -1])], byes=["p1"])]
    with pytest.raises(ScoringError) as error:
        accumulate(series, GORZOW)
    assert error.value.code == "duplicate_player"


def test_season_sums_small_and_big_points():
    tournaments = [{"p": Standing("p", 100, 178)}, {"p": Standing("p", 0, -100)}, {"p": Standing("p", 25, 50)}]
    total = season_totals(tournaments)["p"]
    assert (total.big_points, total.small_points) == (125, 128)


def test_season_best_two_of_three_by_big_then_small_points():
    tournaments = [{"p": Standing("p", 100, 178)}, {"p": Standing("p", 0, -100)}, {"p": Standing("p", 0, 50)}]
    total = season_totals(tournaments, best=2)["p"]
    assert (total.big_points, total.small_points) == (100, 228)


def test_awards_go_to_positive_places_and_shared_places_share():
    ranked = rank(
        [Standing(i, small_points=s) for i, s in [("a", 30), ("b", 10), ("c", 10), ("d", -5)]], ["small_points"]
    )
    assert award_points(ranked, [100, 80, 60, 50]) == {"a": 100, "b": 70, "c": 70, "d": 0}
    assert isinstance(ranked[0], Ranked)


def test_a_team_counts_its_best_members_apart_for_big_and_small_points():
    members = [
        Standing("a", big_points=10, small_points=-40),
        Standing("b", big_points=2, small_points=90),
        Standing("c", big_points=6, small_points=10),
        Standing("d", big_points=4, small_points=5),
    ]
    team = team_standing("t1", members, 3)
    assert (team.big_points, team.small_points) == (20, 105)
    assert team_standing("t1", members, None).small_points == 65
