"""A season of three tournaments, psb §14.4 examples I and II (docs/rules.md §6)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import Standing, award_points, rank, season_place_points, season_running_totals, season_totals

# psb example II: "nagradza się … najlepszych 50 zawodników z wynikiem plusowym" — 1st 100 … 25th 25 …
PLAYER_POINTS = [100, 90, 80] + [50 - place for place in range(4, 51)]
TEAM_POINTS = [100, 90, 80, 70, 60, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5]  # the best 15 positive teams


def field(entry, small_points, others):
    """One tournament: ``entry`` with its small points among ``others`` (id → small points)."""
    return rank(
        [Standing(entry, small_points=small_points), *(Standing(i, small_points=s) for i, s in others.items())],
        ["small_points"],
    )


def tournaments_of_example_two():
    """The player of example II: +178 and 1st, −100 and not classified, +50 and 25th."""
    return [
        field("player", 178, {f"a{i}": 100 - i for i in range(30)}),
        field("player", -100, {f"b{i}": 10 - i for i in range(30)}),
        field("player", 50, {**{f"c{i}": 200 - i for i in range(24)}, **{f"d{i}": 40 - i for i in range(10)}}),
    ]


def test_psb_example_one_adds_the_small_points():
    seasons = season_totals([{r.standing.id: r.standing for r in t} for t in tournaments_of_example_two()])
    assert seasons["player"].small_points == 128


def test_psb_example_two_turns_places_into_season_points():
    tournaments = tournaments_of_example_two()
    per_tournament = [season_place_points(ranked, PLAYER_POINTS)["player"] for ranked in tournaments]
    assert [(s.big_points, s.small_points) for s in per_tournament] == [(100, 178), (0, -100), (25, 50)]
    total = season_totals(season_place_points(ranked, PLAYER_POINTS) for ranked in tournaments)["player"]
    assert (total.big_points, total.small_points) == (125, 128)


def test_psb_example_two_for_a_team():
    tournaments = [
        field("team", 280, {"t1": 400, "t2": 300, "t3": 100}),  # 3rd: 80
        field("team", 310, {"t1": 200, "t2": -5}),  # 1st: 100
        field("team", -20, {"t1": 50, "t2": 10}),  # negative: nothing
    ]
    per_tournament = [season_place_points(ranked, TEAM_POINTS) for ranked in tournaments]
    assert [t["team"].big_points for t in per_tournament] == [80, 100, 0]
    total = season_totals(per_tournament)["team"]
    assert (total.big_points, total.small_points) == (180, 570)


@pytest.mark.parametrize(
    ("best", "big_points", "small_points"),
    [
        (None, 125, 128),
        (2, 125, 228),  # 100 + 25: the unclassified tournament is dropped
        (1, 100, 178),
    ],
)
def test_a_season_of_places_counts_the_best_k_of_n(best, big_points, small_points):
    season = season_totals((season_place_points(r, PLAYER_POINTS) for r in tournaments_of_example_two()), best)
    assert (season["player"].big_points, season["player"].small_points) == (big_points, small_points)


def test_season_points_go_only_to_positive_results_and_shared_places_share():
    ranked = rank(
        [Standing(i, small_points=s) for i, s in [("a", 30), ("b", 10), ("c", 10), ("d", 0)]], ["small_points"]
    )
    awarded = season_place_points(ranked, [100, 80, 60, 50])
    assert {i: s.big_points for i, s in awarded.items()} == award_points(ranked, [100, 80, 60, 50])
    assert {i: s.big_points for i, s in awarded.items()} == {"a": 100, "b": 70, "c": 70, "d": 0}
    assert awarded["b"].small_points == 10


halves = st.integers(min_value=0, max_value=200).map(lambda n: n / 2)
results = st.lists(
    st.one_of(st.none(), st.builds(Standing, st.just("player"), halves, st.integers(-300, 300))), max_size=30
)


@given(results=results, best=st.one_of(st.none(), st.integers(min_value=1, max_value=8)))
def test_the_season_after_each_tournament_is_the_season_of_the_tournaments_so_far(results, best):
    running = season_running_totals(results, best)
    for count in range(1, len(results) + 1):
        so_far = season_totals(({"player": r} for r in results[:count] if r is not None), best)
        assert running[count - 1] == so_far.get("player")
