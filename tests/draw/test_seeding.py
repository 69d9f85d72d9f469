"""Rozstawienie (seeding by rating): the first series seats one player of every strength band at
every table, so the strongest players do not meet in it; teammates stay apart, later series and
unseeded draws are drawn as before."""

from __future__ import annotations

import hashlib
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.draw import DrawError, DrawPlayer, FixedSeat, SeriesDraw, draw_tournament
from league.draw.model import teammates_apart


def field(team_sizes: list[int], individuals: int) -> list[DrawPlayer]:
    return [DrawPlayer(f"t{t}p{k}", f"t{t}") for t, size in enumerate(team_sizes) for k in range(size)] + [
        DrawPlayer(f"i{k}", None) for k in range(individuals)
    ]


def one_of_each_band(series: SeriesDraw, strengths: dict[str, float]) -> bool:
    """Every table's k-th strongest lies within the k-th band of the whole series (without a
    strength: weakest), which holds exactly when some way of breaking ties puts one of each band there."""
    tables = len(series.tables)
    value = {p: strengths.get(p, -math.inf) for table in series.tables for p in table}
    ranked = sorted(value.values(), reverse=True)
    for table in series.tables:
        at_table = sorted((value[p] for p in table), reverse=True)
        for k, own in enumerate(at_table):
            if not ranked[(k + 1) * tables - 1] <= own <= ranked[k * tables]:
                return False
    return True


def table_of(series: SeriesDraw, player: str) -> int | None:
    return next((t for t, table in enumerate(series.tables) if player in table), None)


@st.composite
def seeded_requests(draw):
    size = draw(st.sampled_from([3, 4]))
    players = draw(st.integers(2 * size, 28))
    tables = players // size
    team_sizes = draw(st.lists(st.integers(2, min(4, tables)), max_size=players // 3))
    while sum(team_sizes) > players:
        team_sizes.pop()
    byes = players % size
    series = draw(st.integers(1, min(4, players // byes) if byes else 4))
    drawn = field(team_sizes, players - sum(team_sizes))
    # Some without a rating, and ties: both count as the draw says.
    strengths = {
        p.id: value
        for p in drawn
        if (value := draw(st.one_of(st.none(), st.integers(900, 1100).map(float)))) is not None
    }
    return drawn, series, size, strengths, draw(st.integers(0, 2**31))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeded_requests())
def test_seeded_first_series_has_one_player_of_every_band_at_every_table_and_teammates_apart(request):
    players, series, size, strengths, seed = request
    result = draw_tournament(players, series, seed, table_size=size, strengths=strengths, budget=400)
    assert one_of_each_band(result.series[0], strengths)
    assert teammates_apart(result.series, {p.id: p.team for p in players})
    assert all(len(table) == size for drawn in result.series for table in drawn.tables)


def spread_exists(players: list[DrawPlayer], strength: dict[str, float], kept: dict[str, int], size: int) -> bool:
    """Exhaustive search: can one of each band sit at each table, teammates apart, the kept at their tables?"""
    order = sorted(players, key=lambda p: -strength[p.id])
    tables = len(players) // size
    seated: list[list[DrawPlayer]] = [[] for _ in range(tables)]

    def place(k: int) -> bool:
        if k == len(order):
            return True
        p = order[k]
        for t in [kept[p.id] - 1] if p.id in kept else range(tables):
            # players go in band order, so a table holding k // tables players has none of this band yet
            if len(seated[t]) == k // tables and all(p.team is None or q.team != p.team for q in seated[t]):
                seated[t].append(p)
                if place(k + 1):
                    return True
                seated[t].pop()
        return False

    return place(0)


@st.composite
def kept_requests(draw):
    size = draw(st.sampled_from([3, 4]))
    tables = draw(st.integers(2, 5))
    team_sizes = draw(st.lists(st.integers(2, min(4, tables)), max_size=tables))
    while sum(team_sizes) > size * tables:
        team_sizes.pop()
    players = field(team_sizes, size * tables - sum(team_sizes))
    values = draw(st.permutations(range(len(players))))
    kept = draw(st.lists(st.sampled_from(players), max_size=tables, unique=True))
    at = draw(st.permutations(range(1, tables + 1)))
    seats = [FixedSeat(p.id, t) for p, t in zip(kept, at, strict=False)]
    return (
        players,
        size,
        {p.id: float(v) for p, v in zip(players, values, strict=True)},
        seats,
        draw(st.integers(0, 99)),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kept_requests())
def test_with_fixed_seats_the_first_series_is_spread_whenever_a_spread_exists(request):
    players, size, strengths, seats, seed = request
    first = draw_tournament(
        players, 1, seed, table_size=size, strengths=strengths, budget=50, fixed_seats=seats
    ).series[0]
    assert all(first.tables[seat.table - 1].count(seat.player) == 1 for seat in seats)
    assert teammates_apart([first], {p.id: p.team for p in players})
    if spread_exists(players, strengths, {seat.player: seat.table for seat in seats}, size):
        assert one_of_each_band(first, strengths)


def by_member(players: list[DrawPlayer]) -> dict[str, float]:
    """Every team's first member stronger than every second member, and so on: each band spans the teams."""
    return {p.id: float(100 - 10 * int(p.id[3:]) + int(p.id[1:2])) for p in players}


def test_the_four_strongest_of_sixteen_never_meet_in_the_first_series():
    players = field([4, 4, 4, 4], 0)
    strengths = by_member(players)
    result = draw_tournament(players, 4, seed=3, strengths=strengths)
    strongest = ["t0p0", "t1p0", "t2p0", "t3p0"]
    assert sorted(table_of(result.series[0], p) for p in strongest) == [0, 1, 2, 3]
    assert one_of_each_band(result.series[0], strengths)
    assert result.repeats == 0  # 16 players in 4 teams over 4 series: still no pair meets twice
    assert result.seeded_by == strengths  # kept with the seed, they reproduce the draw


def test_players_without_a_rating_count_as_the_weakest_band():
    players = field([], 12)  # three tables
    strengths = {"i0": 1200.0, "i1": 1100.0, "i2": 1000.0}
    result = draw_tournament(players, 1, seed=8, strengths=strengths)
    rated = [table_of(result.series[0], p) for p in strengths]
    assert sorted(rated) == [0, 1, 2]


def test_a_player_on_a_bye_leaves_the_bands_to_those_who_play():
    players = field([], 13)  # three tables and one bye
    strengths = {p.id: float(k) for k, p in enumerate(players)}
    first = draw_tournament(players, 1, seed=4, strengths=strengths).series[0]
    assert len(first.byes) == 1
    assert one_of_each_band(first, strengths)


def test_fixed_seats_are_kept_and_the_bands_spread_around_them():
    players = field([4, 4, 4, 4], 0)
    strengths = by_member(players)
    fixed = [FixedSeat("t3p3", 2, seat=0), FixedSeat("t0p0", 2)]
    first = draw_tournament(players, 3, seed=6, strengths=strengths, fixed_seats=fixed).series[0]
    assert first.tables[1][0] == "t3p3" and "t0p0" in first.tables[1]
    assert one_of_each_band(first, strengths)


def test_two_of_one_band_kept_at_one_table_give_an_unseeded_first_series_with_the_seats_kept():
    players = field([4, 4, 4, 4], 0)
    strengths = by_member(players)
    fixed = [FixedSeat("t3p0", 1), FixedSeat("t2p0", 1)]  # the two strongest, both at table 1
    result = draw_tournament(players, 2, seed=6, strengths=strengths, fixed_seats=fixed)
    assert {"t3p0", "t2p0"} <= set(result.series[0].tables[0])
    assert teammates_apart(result.series, {p.id: p.team for p in players})
    assert result.seeded_by is None


@pytest.mark.parametrize("value", [math.nan, math.inf, "1000", True])
def test_a_strength_that_is_not_a_number_is_refused(value):
    with pytest.raises(DrawError) as caught:
        draw_tournament(field([], 8), 1, seed=1, strengths={"i0": value})
    assert caught.value.code == "invalid_input"


def _digest(players, series, size, fixed_seats, seed, **extra) -> str:
    result = draw_tournament(players, series, seed, table_size=size, fixed_seats=fixed_seats, **extra)
    return hashlib.sha256(repr([(s.tables, s.byes) for s in result.series]).encode()).hexdigest()[:16]


# Draws made before seeding existed (the merge of issue 41): without strengths nothing may change.
BEFORE_SEEDING = [
    ((field([4] * 4, 0), 4, 4, ()), ["4755f20f3b2df9b6", "b2d78a452888dc7c", "aa5958bf517a6579"]),
    ((field([4] * 5, 1), 5, 4, (FixedSeat("i0", 1),)), ["6d3757f44f887812", "f3b49124cfb025a4", "46085975de0c8f77"]),
    ((field([4] * 8, 8), 4, 4, ()), ["343d43dcd59a5f88", "7b7a8aa72cce45c6", "c4d2e9b184f88536"]),
    ((field([3] * 5, 0), 4, 3, ()), ["994859f5f5f1ebce", "e190e5e1466daf98", "4c981ee2dff5167b"]),
    ((field([4] * 3, 3), 3, 4, ()), ["f7143b858f40ff13", "380d37a922375cbe", "826e72f710644706"]),
]


@pytest.mark.parametrize(("request_", "digests"), BEFORE_SEEDING)
def test_without_strengths_the_draw_is_the_same_seed_for_seed(request_, digests):
    for seed, digest in zip((1, 7, 2026), digests, strict=True):
        assert _digest(*request_, seed) == digest
        assert _digest(*request_, seed, strengths=None) == digest
    assert draw_tournament(*request_[:2], 1, table_size=request_[2], fixed_seats=request_[3]).seeded_by is None
