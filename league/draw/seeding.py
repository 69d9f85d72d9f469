"""*Rozstawienie* (seeding by rating): the first series spreads the strong players over the tables.

With T tables, the players of the first series ranked by strength form *strength
bands* (pasma siły) of T each: the T strongest, the next T, … (as many bands as a
table has seats). A seeded series seats one player of every band at every table,
so the strongest never meet in the first series. Players without a strength
(no rating yet) count as the weakest; ties are broken at random.

Seating one of every band a table while keeping teammates apart is an edge
colouring: each player is an edge between his band and his team (an individual
is a team of one), and a table is a colour. A band has T players and a team
plays at most T (the surplus of a larger team is on a bye), so by König's
theorem T colours always suffice; the alternating-path (Kempe chain) recolouring
below finds them. Fixed seats are colours given in advance, which can make the
colouring impossible; then None is returned and the series is drawn unseeded.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

import numpy as np

from .errors import DrawError


def strength_array(ids: Sequence[str], strengths: Mapping[str, float]) -> np.ndarray:
    """Strengths in player order, ``-inf`` for a player without one; refused unless finite numbers."""
    out = np.full(len(ids), -math.inf)
    for i, pid in enumerate(ids):
        value = strengths.get(pid)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise DrawError("invalid_input", f"Invalid input: strengths[{pid}] must be a number.", field="strengths")
        out[i] = value
    return out


def strength_bands(playing: Sequence[int], strength: np.ndarray, tables: int, rng: random.Random) -> dict[int, int]:
    """The band (0 the strongest) of each playing player: rank by strength // ``tables``."""
    order = list(playing)
    rng.shuffle(order)  # equal strengths, those without a rating above all, in random order
    order.sort(key=lambda p: -strength[p])
    return {p: rank // tables for rank, p in enumerate(order)}


class _Colouring:
    """Players as edges between a band vertex and a team vertex, each coloured with a table."""

    def __init__(self, ends: Mapping[int, tuple[int, int]], vertices: int) -> None:
        self.ends = ends
        self.at: list[dict[int, int]] = [{} for _ in range(vertices)]  # vertex -> table -> player
        self.table: dict[int, int] = {}

    def put(self, p: int, table: int) -> None:
        for v in self.ends[p]:
            self.at[v][table] = p
        self.table[p] = table

    def _take(self, p: int) -> None:
        for v in self.ends[p]:
            del self.at[v][self.table[p]]

    def flip(self, start: int, a: int, b: int, kept: Mapping[int, int]) -> bool:
        """Swap tables a and b along the a/b path from ``start``; False if it would move a fixed seat."""
        path, vertex, colour = [], start, a
        while colour in self.at[vertex]:
            p = self.at[vertex][colour]
            if p in kept:
                return False
            path.append(p)
            u, v = self.ends[p]
            vertex, colour = (v if vertex == u else u), (b if colour == a else a)
        for p in path:
            self._take(p)
        for p in path:
            self.put(p, b if self.table[p] == a else a)
        return True


def seeded_series(
    bands: Mapping[int, int],
    team: np.ndarray,
    n_teams: int,
    tables: int,
    size: int,
    rng: random.Random,
    pinned: Mapping[int, int],
) -> np.ndarray | None:
    """One series (tables × size) with one player of every band at every table and teammates apart.

    ``pinned`` (player → table) are fixed seats, never moved; None when no such seating is found round
    them (always found without them), and the caller may try again in another random order.
    """
    individual = size + n_teams  # each individual is a vertex of his own after the teams
    ends = {p: (b, size + int(team[p]) if team[p] < n_teams else individual + p) for p, b in sorted(bands.items())}
    colouring = _Colouring(ends, individual + len(team))
    for p, t in sorted(pinned.items()):
        if any(t in colouring.at[v] for v in ends[p]):
            return None  # two of one band kept at one table
        colouring.put(p, t)
    order = [p for p in sorted(bands) if p not in pinned]
    rng.shuffle(order)
    for p in order:
        u, v = ends[p]
        free_u = [t for t in range(tables) if t not in colouring.at[u]]
        free_v = [t for t in range(tables) if t not in colouring.at[v]]
        both = [t for t in free_u if t not in colouring.at[v]]
        if both:
            colouring.put(p, both[rng.randrange(len(both))])
            continue
        # Free the band's table at the team (or the team's at the band) along an alternating path.
        for a, b in ((a, b) for a in free_u for b in free_v):
            if colouring.flip(v, a, b, pinned):
                colouring.put(p, a)
                break
            if colouring.flip(u, b, a, pinned):
                colouring.put(p, b)
                break
        else:
            return None
    seating = np.empty((tables, size), dtype=np.int64)
    for p, t in colouring.table.items():
        seating[t, bands[p]] = p
    return seating
