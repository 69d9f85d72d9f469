"""The draw at tables of three (Preferans) and four: the same rules with the size in place of four."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.draw import DrawError, DrawPlayer, SeriesDraw, count_repeats, draw_tournament, repeat_lower_bound
from league.draw.construct import algebraic_series
from league.draw.model import seat_balance, teammates_apart
from league.draw.search import add_meetings


def field(players: int, size: int) -> list[DrawPlayer]:
    """``players`` players, a third of them in pairs of teammates once there are two tables."""
    pairs = players // 6 if players >= 2 * size else 0
    teams = [DrawPlayer(f"t{t}p{k}", f"t{t}") for t in range(pairs) for k in range(2)]
    return teams + [DrawPlayer(f"i{k}", None) for k in range(players - 2 * pairs)]


def series_for(players: int, size: int) -> int:
    """Four series, or fewer when the byes would run out (one bye per player)."""
    byes = players % size
    return min(4, players // byes) if byes else 4


def assert_well_formed(players: list[DrawPlayer], result, series: int, size: int) -> None:
    ids = sorted(p.id for p in players)
    assert len(result.series) == series
    for drawn in result.series:
        assert all(len(table) == size for table in drawn.tables)
        assert len(drawn.tables) == len(players) // size
        assert len(drawn.byes) == len(players) % size
        assert sorted([p for table in drawn.tables for p in table] + drawn.byes) == ids
    assert teammates_apart(result.series, {p.id: p.team for p in players})
    byes = [p for drawn in result.series for p in drawn.byes]
    assert len(byes) == len(set(byes))


FIELDS = [(3, n) for n in range(3, 41)] + [(4, n) for n in range(4, 41)]


@pytest.mark.parametrize(("size", "players"), FIELDS, ids=[f"tables_of_{s}-{n}_players" for s, n in FIELDS])
def test_every_field_sits_everybody_once_a_series_with_the_remainder_on_a_bye(size, players):
    roster = field(players, size)
    series = series_for(players, size)
    result = draw_tournament(roster, series, seed=players, table_size=size)
    assert_well_formed(roster, result, series, size)
    bound = repeat_lower_bound(roster, series, size)
    assert result.repeats == count_repeats(result.series) >= bound
    # With twice the fresh partners everybody needs, the draw repeats no meeting at all.
    if players - 1 >= 2 * (size - 1) * series:
        assert result.repeats == bound == 0


@st.composite
def fields_of_three(draw):
    """Random rosters for tables of three: teams of 1–3, individuals, enough tables to part every team."""
    team_sizes = draw(st.lists(st.integers(1, 3), max_size=8))
    individuals = draw(st.integers(0, 9))
    players = [DrawPlayer(f"t{t}p{k}", f"t{t}") for t, size in enumerate(team_sizes) for k in range(size)]
    players += [DrawPlayer(f"i{k}", None) for k in range(individuals)]
    players = draw(st.permutations(players))
    if len(players) < 3 or max(team_sizes, default=0) > len(players) // 3:
        players += [DrawPlayer(f"x{k}", None) for k in range(3 * max(team_sizes + [1]) - len(players) + 3)]
    byes = len(players) % 3
    series = draw(st.integers(1, min(6, len(players) // byes) if byes else 6))
    return list(players), series, draw(st.integers(0, 2**32))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields_of_three(), st.booleans())
def test_every_draw_at_tables_of_three_keeps_teammates_apart_and_one_bye_each(instance, individuals_first):
    players, series, seed = instance
    result = draw_tournament(
        players, series, seed, budget=40, individuals_sit_out_first=individuals_first, table_size=3
    )
    assert_well_formed(players, result, series, 3)
    assert result.repeats >= repeat_lower_bound(players, series, 3)


# Drawn by the draw before tables of three existed; the size must not change a single seat.
GOLDEN_18_PLAYERS_SEED_7 = [
    (
        [
            ("t3p1", "t0p0", "t2p3", "t1p3"),
            ("t3p2", "t0p2", "t2p2", "t1p2"),
            ("t1p0", "t0p1", "i0", "t3p3"),
            ("t2p1", "t3p0", "t1p1", "i1"),
        ],
        ["t0p3", "t2p0"],
    ),
    (
        [
            ("t0p0", "t3p2", "t1p0", "t2p1"),
            ("t1p3", "t2p2", "t0p1", "t3p0"),
            ("t3p3", "i1", "t0p3", "t2p3"),
            ("t2p0", "t1p1", "t3p1", "t0p2"),
        ],
        ["t1p2", "i0"],
    ),
    (
        [
            ("t3p0", "t2p3", "t0p2", "t1p0"),
            ("t0p3", "t2p0", "t1p3", "t3p2"),
            ("t2p2", "i0", "t0p0", "t1p1"),
            ("t0p1", "t1p2", "t2p1", "t3p1"),
        ],
        ["t3p3", "i1"],
    ),
]


def test_tables_of_four_are_the_draw_it_always_was():
    players = [DrawPlayer(f"t{t}p{k}", f"t{t}") for t in range(4) for k in range(4)]
    players += [DrawPlayer("i0", None), DrawPlayer("i1", None)]
    result = draw_tournament(players, 3, seed=7)
    assert result == draw_tournament(players, 3, seed=7, table_size=4)
    assert [(drawn.tables, drawn.byes) for drawn in result.series] == GOLDEN_18_PLAYERS_SEED_7


def test_fifteen_players_in_five_teams_of_three_meet_nobody_twice_in_six_series():
    # Kirkman's schoolgirls, the teams being the first of the seven days.
    players = [DrawPlayer(f"t{t}p{k}", f"t{t}") for t in range(5) for k in range(3)]
    result = draw_tournament(players, 6, seed=2026, table_size=3)
    assert_well_formed(players, result, 6, 3)
    assert result.repeats == 0


def test_nine_players_in_three_teams_reach_the_counting_bound_in_four_series():
    players = [DrawPlayer(f"t{t}p{k}", f"t{t}") for t in range(3) for k in range(3)]
    # Each player has 6 possible partners and 8 seats beside him: 2 repeats seen from each of 9.
    assert repeat_lower_bound(players, 4, 3) == 9
    assert draw_tournament(players, 4, seed=1, table_size=3).repeats == 9


def test_tables_of_three_use_seats_a_to_c_and_spread_them():
    players = field(24, 3)
    result = draw_tournament(players, 6, seed=3, table_size=3)
    assert all(len(table) == 3 for drawn in result.series for table in drawn.tables)
    assert seat_balance(result.series) <= 3  # six series over three letters: twice each, at most once more


def test_a_bye_at_tables_of_three_goes_to_individuals_first_when_asked():
    players = field(13, 3)
    result = draw_tournament(players, 3, seed=4, individuals_sit_out_first=True, table_size=3)
    assert all(bye.startswith("i") for drawn in result.series for bye in drawn.byes)


def test_fixed_series_at_tables_of_three_are_kept_and_their_pairs_avoided():
    players = field(12, 3)
    first = draw_tournament(players, 1, seed=5, table_size=3).series[0]
    result = draw_tournament(players, 3, seed=6, fixed=[first], table_size=3)
    assert result.series[0] == first
    assert result.repeats == 0


@pytest.mark.parametrize(
    ("players", "kwargs", "code", "params"),
    [
        (field(2, 3), {}, "too_few_players", {"players": 2, "table_size": 3}),
        (
            field(6, 3),
            {"fixed": [SeriesDraw([("t0p0", "t0p1", "i0", "i1")], ["i2", "i3"])]},
            "invalid_fixed_series",
            None,
        ),
        (field(12, 3), {"table_size": 5}, "invalid_input", {"field": "table_size"}),
        (field(12, 3), {"table_size": True}, "invalid_input", {"field": "table_size"}),
        (field(12, 3), {"table_size": 3.0}, "invalid_input", {"field": "table_size"}),
        # 7 players: two tables and one bye, so a team of four cannot sit apart.
        ([DrawPlayer(f"t0p{k}", "t0") for k in range(4)] + field(3, 3), {}, "team_too_large", None),
    ],
)
def test_impossible_requests_at_tables_of_three_are_refused_with_a_code(players, kwargs, code, params):
    with pytest.raises(DrawError) as caught:
        draw_tournament(players, 2, 1, **({"table_size": 3} | kwargs))
    assert caught.value.code == code
    if params is not None:
        assert dict(caught.value.params) == params


def test_tables_of_four_still_need_four_players():
    with pytest.raises(DrawError) as caught:
        draw_tournament(field(3, 4), 1, 1)
    assert dict(caught.value.params) == {"players": 3, "table_size": 4}


@pytest.mark.parametrize(("tables", "series"), [(3, 3), (4, 3), (5, 4), (7, 6), (8, 7), (9, 2), (13, 12)])
def test_algebraic_construction_at_tables_of_three_seats_teams_apart_without_any_repeat(tables, series):
    team = np.repeat(np.arange(tables), 3)
    built = algebraic_series(3 * tables, team, tables, tables, series, random.Random(0), size=3)
    meet = np.zeros((3 * tables, 3 * tables), dtype=np.int64)
    for seating in built:
        add_meetings(meet, seating)
        assert sorted(seating.ravel()) == list(range(3 * tables))
        assert all(len(set(team[table])) == 3 for table in seating)
    assert len(built) == series and meet.max() == 1
