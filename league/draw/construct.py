"""Starting points for the search: a greedy draw and an algebraic one.

Both only ever produce legal series: every table full (``size`` players, three
or four) and no two members of one team at a table (the hard rule is never
traded for cost).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

import numpy as np

_NO_TABLE = -1


def _round_robin(playing: list[int], team: np.ndarray, tables: int, size: int, rng: random.Random) -> np.ndarray:
    """Always-legal seating: teams laid out contiguously, position k goes to table k mod T.

    A team of at most T members occupies consecutive positions, hence distinct
    tables; this is why a team's surplus over the tables is on a bye before
    any seat is drawn (docs/draw.md, "Teams larger than the tables").
    """
    groups: dict[int, list[int]] = {}
    for p in playing:
        groups.setdefault(int(team[p]), []).append(p)
    order = sorted(groups, key=lambda g: (-len(groups[g]), rng.random()))
    flat = [p for g in order for p in groups[g]]
    seating = np.empty((tables, size), dtype=np.int64)
    labels = list(range(tables))
    rng.shuffle(labels)
    for k, p in enumerate(flat):
        seating[labels[k % tables], k // tables] = p
    return seating


def greedy_series(
    playing: list[int],
    team: np.ndarray,
    n_teams: int,
    meet: np.ndarray,
    tables: int,
    rng: random.Random,
    *,
    size: int = 4,
    pinned: Mapping[int, int] | None = None,
) -> np.ndarray | None:
    """Seat each player at the table where he adds the fewest repeat costs.

    Players with a fixed seat (``pinned``: player → table) sit there first.
    Larger teams are seated next because they have the fewest legal tables;
    if the greedy paints itself into a corner the round-robin seating is used,
    or, as that cannot keep fixed seats, None is returned (try another order).
    """
    pinned = pinned or {}
    members: dict[int, list[int]] = {}
    for p in playing:
        if p not in pinned:
            members.setdefault(int(team[p]), []).append(p)
    order = sorted(
        members,
        key=lambda g: (g == n_teams, -len(members[g]), rng.random()),
    )
    # Empty seats hold -1, which reads the zero column appended to the meeting matrix.
    padded = np.hstack([meet, np.zeros((meet.shape[0], 1), dtype=meet.dtype)])
    seating = np.full((tables, size), _NO_TABLE, dtype=np.int64)
    filled = np.zeros(tables, dtype=np.int64)
    has_team = np.zeros((tables, n_teams + 1), dtype=bool)
    for p, t in sorted(pinned.items()):
        seating[t, filled[t]] = p
        filled[t] += 1
        has_team[t, team[p]] = True
    for g in order:
        group = members[g]
        rng.shuffle(group)
        for p in group:
            free = filled < size
            if g < n_teams:
                free &= ~has_team[:, g]
            options = np.flatnonzero(free)
            if options.size == 0:
                return None if pinned else _round_robin(playing, team, tables, size, rng)
            cost = padded[p, seating[options]].sum(axis=1)
            best = options[cost == cost.min()]
            t = int(best[rng.randrange(best.size)])
            seating[t, filled[t]] = p
            filled[t] += 1
            has_team[t, g] = True
    return seating


# Irreducible polynomials for GF(2^k): addition is XOR, multiplication is carry-less mod these.
_IRREDUCIBLE = {
    2: 0b111,
    3: 0b1011,
    4: 0b10011,
    5: 0b100101,
    6: 0b1000011,
    7: 0b10000011,
    8: 0b100011011,
    9: 0b1000010001,
    10: 0b10000001001,
}


def _gf2_mul(a: int, b: int, k: int) -> int:
    product = 0
    while b:
        if b & 1:
            product ^= a
        b >>= 1
        a <<= 1
        if a >> k:
            a ^= _IRREDUCIBLE[k]
    return product


def _smallest_prime_factor(t: int) -> int:
    f = 2
    while f * f <= t:
        if t % f == 0:
            return f
        f += 1
    return t


def _line_tables(tables: int, size: int) -> tuple[list[int], list[list[list[int]]]] | None:
    """Usable slopes and the table of grid cell (row i, column j) for slope a.

    Over GF(2^k), or over Z_T when every difference of x_0..x_(size−1) =
    0..size−1 is invertible (T coprime to 6 for tables of four, odd for tables
    of three), the map (i, j) -> a·x_i + j gives every table one cell of each
    row, never joins two cells of a column (a team), and two slopes whose
    difference is invertible never join the same two cells.
    """
    k = tables.bit_length() - 1
    if tables >= size and tables == 1 << k and k in _IRREDUCIBLE:
        slopes = list(range(1, tables))
        return slopes, [[[_gf2_mul(a, x, k) ^ j for j in range(tables)] for x in range(size)] for a in slopes]
    if tables >= size and all(math.gcd(tables, d) == 1 for d in range(2, size)):
        slopes = list(range(1, _smallest_prime_factor(tables)))
        return slopes, [[[(a * x + j) % tables for j in range(tables)] for x in range(size)] for a in slopes]
    return None


def _grid(
    players: list[int], team: np.ndarray, n_teams: int, tables: int, size: int, rng: random.Random
) -> list[list[int]] | None:
    """Pack teams into the columns of a size × T grid (first fit, largest first).

    Teammates must share a column; individuals fill the gaps.  None when a team
    has more members than a table has seats or the packing fails.
    """
    members: dict[int, list[int]] = {}
    for p in players:
        members.setdefault(int(team[p]), []).append(p)
    loose = members.pop(n_teams, [])
    if any(len(m) > size for m in members.values()):
        return None
    columns: list[list[int]] = [[] for _ in range(tables)]
    for g in sorted(members, key=lambda g: (-len(members[g]), rng.random())):
        fits = [c for c in columns if len(c) + len(members[g]) <= size]
        if not fits:
            return None
        fits[0].extend(members[g])
    rng.shuffle(loose)
    for c in columns:
        while len(c) < size and loose:
            c.append(loose.pop())
    rng.shuffle(columns)
    for c in columns:
        rng.shuffle(c)
    return columns


def algebraic_series(
    n_players: int, team: np.ndarray, n_teams: int, tables: int, count: int, rng: random.Random, *, size: int = 4
) -> list[np.ndarray]:
    """Up to ``count`` series with no repeated pair among them (teams as columns).

    Only for draws without byes; returns fewer series (possibly none) where the
    construction does not reach, and the caller fills the rest greedily.  With
    as many tables as seats (T = size) the rows themselves form one more
    parallel class (the affine plane AG(2,4), or AG(2,3) at tables of three).
    """
    if n_players != size * tables:
        return []
    lines = _line_tables(tables, size)
    grid = _grid(list(range(n_players)), team, n_teams, tables, size, rng)
    if lines is None or grid is None:
        return []
    slopes, maps = lines
    chosen = sorted(rng.sample(range(len(slopes)), min(count, len(slopes))))
    out = []
    for s in chosen:
        seating = np.full((tables, size), _NO_TABLE, dtype=np.int64)
        for i in range(size):
            for j in range(tables):
                seating[maps[s][i][j], i] = grid[j][i]
        out.append(seating)
    if tables == size and len(out) < count:
        out.append(np.array([[grid[j][i] for j in range(size)] for i in range(size)], dtype=np.int64))
    return out
