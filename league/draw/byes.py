"""Choosing the *wolny los* (bye): who sits out each new series.

Byes are chosen before any table is drawn (docs/draw.md: byes first, then seats).
Rules (docs/rules.md §5): at most one bye per player per tournament; with
``individuals_sit_out_first`` (puck) players without a team go first; after
that the byes are spread across teams, the team with the fewest byes so far
giving the next one.
"""

from __future__ import annotations

import random

import numpy as np

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

    result = []
    for _ in range(problem.new_series):
        chosen: list[int] = []
        for _ in range(problem.byes_per_series):
            # A random draw per candidate, taken in player order, breaks ties reproducibly.
            candidates = [
                (0 if (individuals_first and individual[p]) else 1, int(group_byes[group[p]]), rng.random(), p)
                for p in range(n)
                if not taken[p]
            ]
            p = min(candidates)[3]
            taken[p] = True
            group_byes[group[p]] += 1
            chosen.append(p)
        result.append(sorted(chosen))
    return result
