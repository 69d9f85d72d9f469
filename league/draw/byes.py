"""Choosing the *wolny los* (bye): who sits out each new series.

Byes are chosen before any table is drawn (docs/draw.md: byes first, then seats).
Rules (docs/rules.md §5): at most one bye per player per tournament; with
``individuals_sit_out_first`` (puck) players without a team go first; after
that the byes are spread across teams, the team with the fewest byes so far
giving the next one; a player kept at a table (fixed seat) in a series never
sits it out. A team with more players than tables first gets the byes
that keep its members apart: those are drawn for every new series before any
other bye (docs/draw.md, "Teams larger than the tables").
"""

from __future__ import annotations

import random

import numpy as np

from .errors import DrawError
from .problem import Problem


def choose_byes(problem: Problem, rng: random.Random, individuals_first: bool) -> list[list[int]]:
    """Bye players (player numbers) for every new series, in series order."""
    n = len(problem.ids)
    taken = problem.bye_taken.copy()
    # Individuals each form their own group so they too are spread by the same rule.
    group = np.where(problem.team < problem.n_teams, problem.team, problem.n_teams + np.arange(n))
    group_byes = np.zeros(problem.n_teams + n, dtype=np.int64)
    np.add.at(group_byes, group[taken], 1)
    individual = problem.team == problem.n_teams

    result: list[list[int]] = [[] for _ in range(problem.new_series)]
    excess = np.array([_team_excess(problem, s) for s in range(problem.new_series)], dtype=np.int64).reshape(
        problem.new_series, problem.n_teams + 1
    )
    # The teams larger than the tables first, in team order, then those that fixed seats crowd out.
    crowded = [int(g) for g in np.flatnonzero(problem.excess)]
    crowded += [int(g) for g in np.flatnonzero(excess.any(axis=0)) if g not in crowded]
    for g in crowded:
        # A random draw per member, taken in player order, breaks ties reproducibly (as below).
        members = sorted((rng.random(), p) for p in np.flatnonzero((problem.team == g) & ~taken))
        for s, chosen in enumerate(result):
            needed = int(excess[s, g])
            # A member kept at a table (fixed seat) in this series cannot be the one who sits out.
            free = [int(p) for _, p in members if not taken[p] and p not in problem.pins[s]][:needed]
            if len(free) < needed or len(chosen) + needed > problem.byes_per_series:
                raise _blocked(problem, s)
            taken[free] = True
            chosen.extend(free)
            group_byes[g] += needed
    for s, chosen in enumerate(result):
        while len(chosen) < problem.byes_per_series:
            # Among equals, the player kept at a table (fixed seat) in more of the later series goes first,
            # so the later series still find somebody free to sit out; without fixed seats all are equal.
            candidates = [
                (
                    0 if (individuals_first and individual[p]) else 1,
                    int(group_byes[group[p]]),
                    -sum(p in pins for pins in problem.pins[s + 1 :]),
                    rng.random(),
                    p,
                )
                for p in range(n)
                if not taken[p] and p not in problem.pins[s]
            ]
            if not candidates:
                raise _blocked(problem, s)
            p = min(candidates)[4]
            taken[p] = True
            group_byes[group[p]] += 1
            chosen.append(p)
        chosen.sort()
    return result


def _team_excess(problem: Problem, s: int) -> list[int]:
    """Per team number, the members who must sit out series ``s`` so that the rest sit apart.

    A team's members at the tables take one table each: their own fixed tables, or tables
    with a seat left that no teammate is kept at. Without fixed seats that is every table,
    and the excess is ``problem.excess``.
    """
    pinned = problem.pins[s]
    full = {
        t for t in range(problem.tables) if sum(table == t for table, _seat in pinned.values()) >= problem.table_size
    }
    out = []
    for g in range(problem.n_teams):
        kept = {table for p, (table, _seat) in pinned.items() if problem.team[p] == g}
        room = len(kept) + sum(t not in full and t not in kept for t in range(problem.tables))
        out.append(max(0, int((problem.team == g).sum()) - room))
    return out + [0]


def _blocked(problem: Problem, s: int) -> DrawError:
    """The byes of series ``s`` cannot be given: who may still sit out is kept at a table."""
    return DrawError(
        "fixed_seats_block_byes",
        f"In series {s + 1}, {problem.byes_per_series} players must sit out, but the players who may "
        "still get a bye are kept at tables (fixed seats).",
        series=s + 1,
        byes=problem.byes_per_series,
    )
