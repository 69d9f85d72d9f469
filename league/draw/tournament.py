"""``draw_tournament``: byes, then tables for all new series at once, then seats."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

import numpy as np

from .bound import repeat_lower_bound
from .byes import choose_byes
from .construct import algebraic_series, greedy_series
from .errors import DrawError
from .model import DrawPlayer, DrawResult, FixedSeat, Pair, SeriesDraw, count_repeats, max_meetings
from .problem import Problem, build_problem
from .search import add_meetings, tabu_search
from .seats import balance_seats
from .seeding import seeded_series, strength_array, strength_bands

ALGORITHM_VERSION = "baska-draw/1 (greedy+algebraic start, tabu C(m,2), seat sweep)"

# Iterations, not seconds: the same request gives the same draw on any machine.
DEFAULT_BUDGET = 3000
# Greedy orders tried before fixed seats are declared impossible to combine with the teams.
_PINNED_TRIES = 20


def _greedy_start(
    problem: Problem, byes: list[list[int]], rng: random.Random, first: np.ndarray | None = None
) -> np.ndarray:
    """Greedy series after ``first``, the seeded first series where there is one."""
    meet = problem.base.copy()
    out = [] if first is None else [first]
    if first is not None:
        add_meetings(meet, first)
    for s, bye in enumerate(byes[len(out) :], start=len(out)):
        on_bye = set(bye)
        playing = [p for p in range(len(problem.ids)) if p not in on_bye]
        pinned = {p: table for p, (table, _seat) in problem.pins[s].items()}
        # Without fixed seats the first try always succeeds; with them another order may fit the teams.
        for _ in range(_PINNED_TRIES):
            seating = greedy_series(
                playing,
                problem.team,
                problem.n_teams,
                meet,
                problem.tables,
                rng,
                size=problem.table_size,
                pinned=pinned,
            )
            if seating is not None:
                break
        else:
            raise DrawError(
                "fixed_seats_no_room",
                f"With the fixed seats of series {s + 1}, the teams' members cannot all sit at different tables.",
                series=s + 1,
            )
        add_meetings(meet, seating)
        out.append(seating)
    return np.array(out, dtype=np.int64)


def _algebraic_start(problem: Problem, rng: random.Random) -> np.ndarray | None:
    """Algebraic series where they reach, greedy ones after them; None if none reach."""
    built = algebraic_series(
        len(problem.ids),
        problem.team,
        problem.n_teams,
        problem.tables,
        problem.new_series,
        rng,
        size=problem.table_size,
    )
    if not built:
        return None
    meet = problem.base.copy()
    for seating in built:
        add_meetings(meet, seating)
    everyone = list(range(len(problem.ids)))
    while len(built) < problem.new_series:
        seating = greedy_series(
            everyone, problem.team, problem.n_teams, meet, problem.tables, rng, size=problem.table_size
        )
        add_meetings(meet, seating)
        built.append(seating)
    order = list(range(len(built)))
    rng.shuffle(order)
    return np.array([built[k] for k in order], dtype=np.int64)


def _seeded_first(
    problem: Problem, bye: list[int], strengths: Mapping[str, float], rng: random.Random
) -> tuple[np.ndarray, np.ndarray] | None:
    """The first new series seeded by strength and the band of each player in it (series × players)."""
    on_bye = set(bye)
    playing = [p for p in range(len(problem.ids)) if p not in on_bye]
    bands = strength_bands(playing, strength_array(problem.ids, strengths), problem.tables, rng)
    pinned = {p: table for p, (table, _seat) in problem.pins[0].items()}
    # Without fixed seats the first try always succeeds; with them another order may get round them.
    for _ in range(_PINNED_TRIES if pinned else 1):
        seating = seeded_series(bands, problem.team, problem.n_teams, problem.tables, problem.table_size, rng, pinned)
        if seating is not None:
            break
    else:
        return None
    # Band 0 for everybody in the later series: any swap there, as without seeding.
    grid = np.zeros((problem.new_series, len(problem.ids)), dtype=np.int64)
    grid[0, list(bands)] = list(bands.values())
    return seating, grid


def _fixed_seat_counts(problem: Problem, fixed: Sequence[SeriesDraw]) -> np.ndarray:
    index = {pid: i for i, pid in enumerate(problem.ids)}
    counts = np.zeros((len(problem.ids), problem.table_size), dtype=np.int64)
    for series in fixed:
        for table in series.tables:
            for seat, pid in enumerate(table):
                counts[index[pid], seat] += 1
    return counts


def draw_tournament(
    players: Sequence[DrawPlayer],
    series: int,
    seed: int,
    *,
    fixed: Sequence[SeriesDraw] = (),
    meetings: Mapping[Pair, int] | None = None,
    had_bye: Collection[str] = (),
    individuals_sit_out_first: bool = False,
    budget: int | None = None,
    table_size: int = 4,
    fixed_seats: Sequence[FixedSeat] = (),
    strengths: Mapping[str, float] | None = None,
) -> DrawResult:
    """Draw ``series`` series in total at tables of ``table_size``, the first ``len(fixed)`` being given.

    ``table_size`` is 4 (Baśka, Preferans) or 3 (Preferans): N players sit at
    N // size tables in every series and N mod size of them have a bye.

    Goals in order: teammates apart (hard), lowest maximum meeting count, fewest
    repeats, balanced seat letters.  ``meetings`` are earlier meeting counts
    (earlier tournaments of the season) treated as already played;
    ``had_bye`` players get no further bye.  ``budget`` is the number of
    search iterations.  ``fixed_seats`` keep players at their tables (and seats)
    in the new series; they hold in every drawn series or the draw is refused.
    ``strengths`` (player id → strength, e.g. a rating) seed the first new
    series (*rozstawienie*, ``league/draw/seeding.py``): one player of every
    strength band a table, those without a strength the weakest. Where the fixed
    seats leave no seeded seating it is drawn unseeded; later series are drawn as
    without strengths, and without strengths the draw is unchanged.
    Raises ``DrawError`` before any search on impossible input.
    """
    fixed = list(fixed)
    problem = build_problem(players, series, seed, fixed, meetings, had_bye, budget, table_size, fixed_seats)
    rng = random.Random(seed)
    byes = choose_byes(problem, rng, individuals_sit_out_first)
    new: list[SeriesDraw] = []
    first = None
    if problem.new_series:
        remaining = DEFAULT_BUDGET if budget is None else budget
        # The counting bound is only a stopping rule when nothing came before.
        floor = repeat_lower_bound(players, series, table_size) if not fixed and not meetings else None
        seeded = None if strengths is None else _seeded_first(problem, byes[0], strengths, rng)
        first, bands = (None, None) if seeded is None else seeded
        starts = [_greedy_start(problem, byes, rng, first)]
        # The algebraic layout places everyone by formula, so it cannot keep fixed seats nor bands.
        if problem.byes_per_series == 0 and not any(problem.pins) and first is None:
            alternative = _algebraic_start(problem, rng)
            if alternative is not None:
                starts.append(alternative)
        best = None
        for k, start in enumerate(starts):
            # Later starts are tried only when the earlier ones stall; unused budget carries on.
            share = remaining // (len(starts) - k)
            frozen = np.array([np.isin(seating.ravel(), list(problem.pins[s])) for s, seating in enumerate(start)])
            result = tabu_search(start, problem.base, problem.team, problem.n_teams, rng, share, floor, frozen, bands)
            remaining -= result.used
            if best is None or result.cost < best.cost:
                best = result
            if result.optimal:
                break
        assert best is not None
        letters = [{p: seat for p, (_table, seat) in pins.items() if seat is not None} for pins in problem.pins]
        seated = balance_seats(_fixed_seat_counts(problem, fixed), best.seatings, rng, letters)
        ids = problem.ids
        for s, seating in enumerate(seated):
            tables = [tuple(ids[p] for p in table) for table in seating]
            new.append(SeriesDraw(tables=tables, byes=[ids[p] for p in byes[s]]))
    drawn = fixed + new
    return DrawResult(
        seed=seed,
        series=drawn,
        repeats=count_repeats(drawn, meetings),
        max_meetings=max_meetings(drawn, meetings),
        algorithm=ALGORITHM_VERSION,
        seeded_by=None if first is None or strengths is None else dict(strengths),
    )
