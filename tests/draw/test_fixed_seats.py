"""Fixed seats (stałe miejsca): a player kept at one table, perhaps at one seat, in every drawn
series or in chosen ones; the draw keeps them or refuses, saying why, before seating anybody."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from league.draw import DrawError, DrawPlayer, FixedSeat, draw_tournament
from league.draw.model import SeriesDraw, count_repeats, teammates_apart


def teams_of_four(teams: int, individuals: int = 0) -> list[DrawPlayer]:
    return [DrawPlayer(f"t{t}p{k}", f"t{t}") for t in range(teams) for k in range(4)] + [
        DrawPlayer(f"i{k}", None) for k in range(individuals)
    ]


def where(series: SeriesDraw, player: str) -> tuple[int, int] | None:
    """(table from 1, seat from 0) of a player, None on a bye."""
    for t, table in enumerate(series.tables, start=1):
        if player in table:
            return t, table.index(player)
    return None


def holds(result, fixed_seats) -> bool:
    for fixed in fixed_seats:
        numbers = range(1, len(result.series) + 1) if fixed.series is None else [fixed.series]
        for number in numbers:
            place = where(result.series[number - 1], fixed.player)
            if place is None or place[0] != fixed.table or fixed.seat not in (None, place[1]):
                return False
    return True


def test_a_wheelchair_user_stays_at_table_one_and_a_referee_at_seat_a_of_table_two_in_every_series():
    players = teams_of_four(5, individuals=1)  # 21 players: 5 tables, 1 bye a series
    fixed = [FixedSeat("i0", 1), FixedSeat("t2p1", 2, seat=0)]
    result = draw_tournament(players, 5, seed=11, fixed_seats=fixed)
    assert holds(result, fixed)
    assert all("i0" not in series.byes for series in result.series)
    assert teammates_apart(result.series, {p.id: p.team for p in players})


def test_a_fixed_seat_for_one_series_leaves_the_other_series_free():
    players = teams_of_four(4)
    fixed = [FixedSeat("t0p0", 4, seat=3, series=2)]
    result = draw_tournament(players, 3, seed=5, fixed_seats=fixed)
    assert holds(result, fixed)


def test_fixed_seats_cost_few_repeats_with_teams_of_four():
    players = teams_of_four(5)  # 20 players, 4 series: zero repeats exist
    free = draw_tournament(players, 4, seed=2)
    fixed = [FixedSeat("t0p0", 1), FixedSeat("t1p0", 2)]
    kept = draw_tournament(players, 4, seed=2, fixed_seats=fixed)
    assert holds(kept, fixed)
    assert kept.repeats <= free.repeats + 2


def test_the_same_fixed_seats_and_seed_give_the_same_draw():
    players = teams_of_four(4, individuals=2)
    fixed = [FixedSeat("i1", 3, seat=2)]
    assert draw_tournament(players, 3, seed=9, fixed_seats=fixed) == draw_tournament(
        players, 3, seed=9, fixed_seats=fixed
    )


@pytest.mark.parametrize(
    ("players", "fixed", "code", "params"),
    [
        (
            teams_of_four(4),
            [FixedSeat("t0p0", 5)],
            "fixed_table_missing",
            {"player": "t0p0", "table": 5, "series": 1, "tables": 4},
        ),
        (
            teams_of_four(4),
            [FixedSeat("t0p0", 1), FixedSeat("t0p1", 1)],
            "fixed_teammates",
            {"player": "t0p0", "other": "t0p1", "team": "t0", "table": 1, "series": 1},
        ),
        (
            teams_of_four(4),
            [FixedSeat("t0p0", 2, seat=1), FixedSeat("t1p0", 2, seat=1)],
            "fixed_seat_taken",
            {"player": "t0p0", "other": "t1p0", "table": 2, "seat": "B", "series": 1},
        ),
        (
            teams_of_four(5),
            [FixedSeat(f"t{t}p0", 1) for t in range(5)],
            "fixed_table_full",
            {"table": 1, "series": 1, "count": 5, "table_size": 4},
        ),
        (
            teams_of_four(4),
            [FixedSeat("t0p0", 1), FixedSeat("t0p0", 2, series=2)],
            "fixed_seat_twice",
            {"player": "t0p0", "table": 2, "series": 2},
        ),
        (
            [DrawPlayer(f"i{k}", None) for k in range(5)],  # one table, one bye a series
            [FixedSeat(f"i{k}", 1) for k in range(4)],  # i4 sits out series 1; nobody is left for series 2
            "fixed_seats_block_byes",
            {"series": 2, "byes": 1},
        ),
        (teams_of_four(4), [FixedSeat("nobody", 1)], "unknown_player", {"player": "nobody"}),
    ],
    ids=["no-such-table", "teammates", "same-seat", "table-overfull", "twice", "no-one-left-to-sit-out", "unknown"],
)
def test_fixed_seats_that_cannot_all_hold_are_refused_with_the_reason(players, fixed, code, params):
    with pytest.raises(DrawError) as caught:
        draw_tournament(players, 2, seed=1, fixed_seats=fixed)
    assert caught.value.code == code
    assert dict(caught.value.params) == params


@st.composite
def fixed_instances(draw):
    """A field, and fixed seats taken from a draw of it, so that they can all hold together."""
    table_size = draw(st.sampled_from([3, 4]))
    team_sizes = draw(st.lists(st.integers(1, 3), max_size=6))
    individuals = draw(st.integers(0, 8))
    players = [DrawPlayer(f"t{t}p{k}", f"t{t}") for t, size in enumerate(team_sizes) for k in range(size)]
    players += [DrawPlayer(f"i{k}", None) for k in range(individuals)]
    tables, byes = divmod(len(players), table_size)
    assume(tables >= max(team_sizes, default=1) and tables >= 1)
    series = draw(st.integers(1, 4))
    assume(byes * series <= len(players))
    witness = draw_tournament(players, series, seed=draw(st.integers(0, 999)), budget=50, table_size=table_size)
    fixed = []
    for number, drawn in enumerate(witness.series, start=1):
        seated = [(p, t, s) for t, table in enumerate(drawn.tables, start=1) for s, p in enumerate(table)]
        for p, t, s in draw(st.lists(st.sampled_from(seated), unique_by=lambda x: x[0], max_size=3)):
            fixed.append(FixedSeat(p, t, seat=draw(st.sampled_from([None, s])), series=number))
    return players, series, table_size, fixed, draw(st.integers(0, 2**32))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(fixed_instances())
def test_every_fixed_seat_holds_in_every_series_whenever_they_can_all_hold(instance):
    players, series, table_size, fixed, seed = instance
    result = draw_tournament(players, series, seed, fixed_seats=fixed, table_size=table_size, budget=300)
    assert holds(result, fixed)
    assert teammates_apart(result.series, {p.id: p.team for p in players})
    byes = [p for drawn in result.series for p in drawn.byes]
    assert len(byes) == len(set(byes))
    assert result.repeats == count_repeats(result.series)
