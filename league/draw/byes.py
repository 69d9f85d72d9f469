"""Choosing the *wolny los* (bye): who sits out each new series.

Byes are chosen before any table is drawn (docs/draw.md: byes first, then seats).
Rules (docs/rules.md §5): at most one bye per player per tournament; with
``individuals_sit_out_first`` (puck) players without a team go first; after
that the byes are spread across teams, the team with the fewest byes so far
giving the next one. A team with more players than tables first gets the byes
that keep its members apart: those are drawn for every new series before any
other bye (docs/draw.md, "Teams larger than the tables").
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

    result: list[list[int]] = [[] for _ in range(problem.new_series)]
    for g in np.flatnonzero(problem.excess):
        # A random draw per member, taken in player order, breaks ties reproducibly (as below).
        members = sorted((rng.random(), p) for p in np.flatnonzero((problem.team == g) & ~taken))
        needed = int(problem.excess[g])
        for s, chosen in enumerate(result):
            for _, p in members[s * needed : (s + 1) * needed]:
                taken[p] = True
                chosen.append(int(p))
        group_byes[g] += needed * problem.new_series
    for chosen in result:
        while len(chosen) < problem.byes_per_series:
            candidates = [
                (0 if (individuals_first and individual[p]) else 1, int(group_byes[group[p]]), rng.random(), p)
                for p in range(n)
                if not taken[p]
            ]
            p = min(candidates)[3]
            taken[p] = True
            group_byes[group[p]] += 1
            chosen.append(p)
        chosen.sort()
    return result
