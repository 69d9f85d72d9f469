"""The table draw without a database: hard rules, byes, reproducibility, refusals."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.draw import (
    ALGORITHM_VERSION,
    DrawError,
    DrawPlayer,
    SeriesDraw,
    check_swap,
    count_repeats,
    draw_tournament,
    repeat_lower_bound,
    swap,
)
from league.draw.model import pair, seat_balance, teammates_apart


def roster(teams: int, individuals: int = 0, size: int = 4) -> list[DrawPlayer]:
    players = [DrawPlayer(f"t{t}p{k}", f"t{t}") for t in range(teams) for k in range(size)]
    return players + [DrawPlayer(f"i{k}", None) for k in range(individuals)]


def team_map(players: list[DrawPlayer]) -> dict[str, str | None]:
    return {p.id: p.team for p in players}


def assert_well_formed(players: list[DrawPlayer], result, series: int) -> None:
    ids = sorted(p.id for p in players)
    assert len(result.series) == series
    for s in result.series:
        assert all(len(t) == 4 for t in s.tables)
        assert len(s.byes) == len(players) % 4
        assert sorted([p for t in s.tables for p in t] + s.byes) == ids
    assert teammates_apart(result.series, team_map(players))
    byes = [p for s in result.series for p in s.byes]
    assert len(byes) == len(set(byes))


@st.composite
def instances(draw):
    """Random rosters: teams of 1–4, some individuals, enough players for every team to sit apart."""
    team_sizes = draw(st.lists(st.integers(1, 4), max_size=8))
    individuals = draw(st.integers(0, 9))
    players = [DrawPlayer(f"t{t}p{k}", f"t{t}") for t, size in enumerate(team_sizes) for k in range(size)]
    players += [DrawPlayer(f"i{k}", None) for k in range(individuals)]
    players = draw(st.permutations(players))
    tables = len(players) // 4
    if len(players) < 4 or max(team_sizes, default=0) > tables:
        players += [DrawPlayer(f"x{k}", None) for k in range(4 * max(team_sizes + [1]) - len(players) + 4)]
    series_cap = len(players) // max(1, len(players) % 4) if len(players) % 4 else 6
    series = draw(st.integers(1, min(6, series_cap)))
    return list(players), series, draw(st.integers(0, 2**32))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(), st.booleans())
def test_every_draw_keeps_teammates_apart_and_gives_each_player_one_bye_at_most(instance, individuals_first):
    players, series, seed = instance
    result = draw_tournament(players, series, seed, budget=40, individuals_sit_out_first=individuals_first)
    assert_well_formed(players, result, series)
    assert result.repeats == count_repeats(result.series)
    assert result.repeats >= repeat_lower_bound(players, series)


def test_teammates_never_share_a_table_when_teams_fill_every_table():
    players = roster(7)  # 7 teams of 4 over 7 tables: every table holds four teams
    result = draw_tournament(players, 6, seed=3)
    assert_well_formed(players, result, 6)
    assert result.repeats == 0


def test_sixteen_players_in_four_teams_meet_nobody_twice_in_four_series():
    result = draw_tournament(roster(4), 4, seed=11)
    assert result.repeats == 0 and result.max_meetings == 1


def test_forty_players_with_individuals_meet_nobody_twice_in_four_series():
    players = roster(8, 8)
    result = draw_tournament(players, 4, seed=11)
    assert_well_formed(players, result, 4)
    assert result.repeats == 0


def test_twenty_players_in_five_teams_over_six_series_stay_near_the_lower_bound():
    players = roster(5)
    assert repeat_lower_bound(players, 6) == 20
    result = draw_tournament(players, 6, seed=5)
    assert 20 <= result.repeats <= 24
    assert result.max_meetings == 2


def test_seat_letters_are_spread_so_nobody_always_sits_at_a():
    result = draw_tournament(roster(8, 8), 4, seed=2)
    assert seat_balance(result.series) <= 2


def test_each_series_gives_byes_to_the_remainder_and_nobody_twice():
    players = roster(5, 3)  # 23 players: three byes per series
    result = draw_tournament(players, 5, seed=9)
    assert_well_formed(players, result, 5)
    assert all(len(s.byes) == 3 for s in result.series)


def test_individuals_sit_out_first_when_the_ruleset_says_so():
    players = roster(6, 2) + [DrawPlayer("i2", None), DrawPlayer("i3", None), DrawPlayer("i4", None)]
    result = draw_tournament(players, 3, seed=4, individuals_sit_out_first=True)
    byes = [p for s in result.series for p in s.byes]
    assert len(byes) == 3 and all(p.startswith("i") for p in byes)


def test_team_byes_are_spread_across_teams():
    players = roster(6)[:-1]  # 23 players: 3 byes per series
    result = draw_tournament(players, 4, seed=8)
    teams = team_map(players)
    per_team: dict[str, int] = {}
    for s in result.series:
        assert len({teams[p] for p in s.byes}) == len(s.byes)
        for p in s.byes:
            per_team[teams[p]] = per_team.get(teams[p], 0) + 1
    assert max(per_team.values()) - min(per_team.values()) <= 1


def test_players_who_already_had_a_bye_get_no_other():
    players = roster(4, 1)  # 17 players: one bye per series
    result = draw_tournament(players, 3, seed=1, had_bye=["i0", "t0p0"])
    byes = [p for s in result.series for p in s.byes]
    assert "i0" not in byes and "t0p0" not in byes


def test_same_seed_gives_the_same_draw():
    players = roster(8, 3)
    first = draw_tournament(players, 4, seed=77)
    second = draw_tournament(list(players), 4, seed=77)
    assert first == second
    assert first.algorithm == ALGORITHM_VERSION


def test_different_seeds_usually_give_different_draws():
    players = roster(8, 3)
    draws = {repr(draw_tournament(players, 4, seed=s).series) for s in range(4)}
    assert len(draws) >= 3


def test_fixed_earlier_series_are_kept_and_their_pairs_avoided():
    players = roster(8, 8)
    first = draw_tournament(players, 1, seed=21).series[0]
    result = draw_tournament(players, 4, seed=22, fixed=[first])
    assert result.series[0] == first
    assert_well_formed(players, result, 4)
    assert result.repeats == 0


def test_earlier_meetings_are_avoided():
    players = roster(8, 8)
    earlier = draw_tournament(players, 3, seed=31)
    meetings: dict[tuple[str, str], int] = {}
    for s in earlier.series:
        for table in s.tables:
            for a, b in itertools.combinations(table, 2):
                meetings[pair(a, b)] = meetings.get(pair(a, b), 0) + 1
    result = draw_tournament(players, 3, seed=32, meetings=meetings)
    assert result.repeats == 0
    assert count_repeats(earlier.series + result.series) == 0


def test_count_repeats_counts_a_triple_meeting_twice():
    table = ("a", "b", "c", "d")
    other = ("a", "b", "x", "y")
    assert count_repeats([SeriesDraw([table]), SeriesDraw([table])]) == 6
    assert count_repeats([SeriesDraw([table]), SeriesDraw([other]), SeriesDraw([other])]) == 1 + 6
    assert count_repeats([SeriesDraw([other])], meetings={("b", "a"): 2}) == 1


@pytest.mark.parametrize(
    ("players", "series", "kwargs", "code"),
    [
        (roster(0, 3), 1, {}, "too_few_players"),
        (roster(3, 0, size=4) + [DrawPlayer("t0p0", None)], 1, {}, "duplicate_player"),
        (roster(1, 2), 1, {}, "team_too_large"),
        (roster(4), 0, {}, "invalid_series_count"),
        (roster(4, 3), 7, {}, "not_enough_bye_players"),
        (roster(4, 1), 3, {"had_bye": [f"t{t}p{k}" for t in range(4) for k in range(4)]}, "not_enough_bye_players"),
        (roster(4), 1, {"fixed": [SeriesDraw([])] * 2}, "too_many_fixed_series"),
        (roster(4), 2, {"fixed": [SeriesDraw([("t0p0", "t1p0", "zz", "t2p0")])]}, "unknown_player"),
        (roster(4), 2, {"fixed": [SeriesDraw([("t0p0", "t1p0", "t2p0")])]}, "invalid_fixed_series"),
        (roster(4), 1, {"budget": -1}, "invalid_input"),
    ],
)
def test_impossible_requests_are_refused_with_a_code(players, series, kwargs, code):
    with pytest.raises(DrawError) as caught:
        draw_tournament(players, series, 1, **kwargs)
    assert caught.value.code == code
    assert caught.value.message


def test_too_many_byes_are_refused_with_the_numbers():
    with pytest.raises(DrawError) as caught:
        draw_tournament(roster(4, 3), 7, 1)  # 19 players: 3 byes × 7 series > 19
    assert caught.value.params == {"byes_per_series": 3, "series": 7, "needed": 21, "eligible": 19}
    assert "21" in caught.value.message and "19" in caught.value.message


def test_a_team_larger_than_the_tables_and_byes_is_refused_before_any_work(monkeypatch):
    import league.draw.tournament as tournament

    monkeypatch.setattr(tournament, "choose_byes", lambda *a: pytest.fail("worked before refusing"))
    with pytest.raises(DrawError) as caught:
        draw_tournament(roster(2, 0, size=5), 2, 1)
    assert caught.value.code == "team_too_large"
    assert caught.value.params == {"team": "t0", "members": 5, "tables": 2, "byes": 2}
    assert "5 players" in caught.value.message and "2 tables and 2 byes" in caught.value.message


def test_swap_exchanging_a_seat_and_a_bye():
    series = SeriesDraw([("a", "b", "c", "d")], ["e"])
    assert swap(series, "b", "e") == SeriesDraw([("a", "e", "c", "d")], ["b"])


def test_swap_check_refuses_to_seat_teammates_together():
    series = SeriesDraw([("a", "b", "c", "d"), ("e", "f", "g", "h")], ["i"])
    teams = {"a": "T", "e": "T", "i": "T", "b": None, "c": None, "d": None, "f": None, "g": None, "h": None}
    with pytest.raises(DrawError) as caught:
        check_swap(series, "b", "e", teams)
    assert caught.value.code == "teammates_at_table"
    with pytest.raises(DrawError):
        check_swap(series, "c", "i", teams)
    check_swap(series, "a", "e", teams)  # teammates trading places stay apart
    check_swap(series, "b", "f", teams)


def test_swap_of_a_player_not_in_the_series_is_refused():
    with pytest.raises(DrawError) as caught:
        swap(SeriesDraw([("a", "b", "c", "d")]), "a", "z")
    assert caught.value.code == "player_not_in_series"


@pytest.mark.parametrize(("tables", "series"), [(4, 4), (5, 4), (7, 6), (8, 7), (25, 4)])
def test_algebraic_construction_seats_teams_apart_without_any_repeat(tables, series):
    import random

    import numpy as np

    from league.draw.construct import algebraic_series
    from league.draw.search import add_meetings

    team = np.repeat(np.arange(tables), 4)
    built = algebraic_series(4 * tables, team, tables, tables, series, random.Random(0))
    meet = np.zeros((4 * tables, 4 * tables), dtype=np.int64)
    for seating in built:
        add_meetings(meet, seating)
        assert sorted(seating.ravel()) == list(range(4 * tables))
        assert all(len(set(team[table])) == 4 for table in seating)
    assert len(built) == series and meet.max() == 1
