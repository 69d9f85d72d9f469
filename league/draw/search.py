"""Tabu search over all new series together (Dotú & Van Hentenryck style).

State: for every new series the players of its tables, flattened so that
position k sits at table k // size (size: 3 or 4 players a table).  The cost
is Σ over pairs of C(m, 2), m being the pair's total meetings (earlier
meetings and fixed series included): one pair meeting three times costs more
than two pairs meeting twice, which pushes the maximum meeting count down
before the number of repeats.

A move swaps a *conflicting* player (one who shares his table with somebody he
has met before) with any player at another table of the same series.  Every
such move of every series is evaluated at once with numpy each step; moves that
would seat teammates together are never generated (the hard rule is not a
penalty).  Moved players are tabu for a random tenure unless the move beats
the best cost so far (aspiration); after a stretch without improvement the
search restarts from the best state with a few random legal swaps.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

_PATIENCE = 300
_TENURE = (3, 12)


@dataclass
class SearchResult:
    """Best seatings found (series × tables × size), their cost, and iterations used."""

    seatings: np.ndarray
    cost: int
    used: int
    optimal: bool


def pair_cost(meet: np.ndarray) -> int:
    """Σ over unordered pairs of C(m, 2) for a symmetric meeting matrix."""
    return int((meet * (meet - 1) // 2).sum() // 2)


def add_meetings(meet: np.ndarray, seatings: np.ndarray, sign: int = 1) -> None:
    """Add (or with sign -1 remove) the meetings of the given seatings in place."""
    size = seatings.shape[-1]
    for a in range(size):
        for b in range(size):
            if a != b:
                np.add.at(meet, (seatings[..., a].ravel(), seatings[..., b].ravel()), sign)


def _swap(flat: np.ndarray, meet: np.ndarray, size: int, s: int, i: int, j: int) -> None:
    """Exchange positions i and j of series s, keeping the meeting matrix in step."""
    p, q = flat[s, i], flat[s, j]
    ti, tj = i // size, j // size
    x = flat[s, size * ti : size * ti + size]
    x = x[x != p]
    y = flat[s, size * tj : size * tj + size]
    y = y[y != q]
    for a, b, d in ((p, x, -1), (q, x, 1), (p, y, 1), (q, y, -1)):
        meet[a, b] += d
        meet[b, a] += d
    flat[s, i], flat[s, j] = q, p


def _legal(flat: np.ndarray, team: np.ndarray, n_teams: int, size: int, s: int, i: int, j: int) -> bool:
    """Whether swapping positions i and j of series s keeps teammates apart."""
    ti, tj = i // size, j // size
    if ti == tj:
        return False
    p, q = flat[s, i], flat[s, j]
    if team[p] == team[q]:
        return True
    rest_i = team[[flat[s, k] for k in range(size * ti, size * ti + size) if k != i]]
    rest_j = team[[flat[s, k] for k in range(size * tj, size * tj + size) if k != j]]
    return (team[p] == n_teams or team[p] not in rest_j) and (team[q] == n_teams or team[q] not in rest_i)


def _kick(
    flat: np.ndarray,
    meet: np.ndarray,
    team: np.ndarray,
    n_teams: int,
    size: int,
    rng: random.Random,
    frozen: np.ndarray,
    bands: np.ndarray | None,
) -> None:
    """A few random legal swaps to leave a basin the tabu list cannot escape."""
    series, width = flat.shape
    done = 0
    for _ in range(50 * (2 + series)):
        if done == 2 + series:
            break
        s, i, j = rng.randrange(series), rng.randrange(width), rng.randrange(width)
        if (
            not (frozen[s, i] or frozen[s, j])
            and (bands is None or bands[s, flat[s, i]] == bands[s, flat[s, j]])
            and _legal(flat, team, n_teams, size, s, i, j)
        ):
            _swap(flat, meet, size, s, i, j)
            done += 1


def tabu_search(
    seatings: np.ndarray,
    base: np.ndarray,
    team: np.ndarray,
    n_teams: int,
    rng: random.Random,
    budget: int,
    floor: int | None,
    frozen: np.ndarray | None = None,
    bands: np.ndarray | None = None,
) -> SearchResult:
    """Improve legal ``seatings`` for at most ``budget`` iterations.

    ``frozen`` (series × positions) marks the players kept at their table
    (fixed seats): they never move, and nobody is swapped into their place.
    ``bands`` (series × players), where given, lets a swap exchange only two
    players of one strength band, so a seeded series keeps one of each band a table.
    Stops early when no movable player is in conflict (with nobody in conflict
    nothing better exists) or when the cost reaches ``floor``, a proven lower bound.
    """
    n_series, tables, size = seatings.shape
    width = size * tables
    flat = seatings.reshape(n_series, width).copy()
    meet = base.copy()
    add_meetings(meet, seatings)
    cost = pair_cost(meet)
    best, best_cost = flat.copy(), cost
    column = np.arange(width) // size
    positions = np.arange(width)
    same_table = column[:, None] == column[None, :]
    series_of = np.repeat(np.arange(n_series), width)
    frozen = np.zeros((n_series, width), dtype=bool) if frozen is None else frozen
    tabu = np.zeros((n_series, len(team)), dtype=np.int64)
    stale = 0
    if tables < 2:  # one table per series: nothing to swap, the draw is forced
        return SearchResult(seatings.copy(), cost, 0, True)
    for it in range(budget):
        mm = meet[flat[:, :, None], flat[:, None, :]]  # meetings between positions of one series
        clash = (np.where(same_table, mm, 0) >= 2).any(axis=2)
        conflict = clash & ~frozen
        if not conflict.any() or (floor is not None and cost <= floor):
            return SearchResult(flat.reshape(seatings.shape), cost, it, not clash.any() or cost <= (floor or 0))
        at_table = mm.reshape(n_series, width, tables, size).sum(axis=3)  # [s, pos, t]: meetings with table t
        own = at_table[:, positions, column]
        s_i, i_i = np.nonzero(conflict)
        t_i = column[i_i]
        # Moving p (table ti) and q (table tj): p leaves the others of his table, meets q's others, and
        # vice versa.  Leaving a pair that met m times saves m − 1, one less than at_table counts,
        # hence the 2·(size − 1) for the pairs left by both.
        delta = (
            2 * (size - 1)
            + at_table[s_i[:, None], positions[None, :], t_i[:, None]]
            - own[s_i]
            + at_table[s_i, i_i][:, column]
            - own[s_i, i_i][:, None]
            - 2 * mm[s_i, i_i]
        )
        teams = team[flat]
        count = np.zeros((n_series, tables, n_teams + 1), dtype=np.int64)
        np.add.at(count, (series_of, np.tile(column, n_series), teams.ravel()), 1)
        count[:, :, n_teams] = 0  # individuals never clash
        tp, tq = teams[s_i, i_i][:, None], teams[s_i]
        legal = (
            (column[None, :] != t_i[:, None])
            & ~frozen[s_i]
            & (
                (tq == tp)
                | ((count[s_i[:, None], column[None, :], tp] == 0) & (count[s_i[:, None], t_i[:, None], tq] == 0))
            )
        )
        if bands is not None:
            legal &= bands[s_i, flat[s_i, i_i]][:, None] == bands[s_i[:, None], flat[s_i]]
        free = (tabu[s_i, flat[s_i, i_i]] <= it)[:, None] & (tabu[s_i[:, None], flat[s_i]] <= it)
        allowed = legal & (free | (cost + delta < best_cost))
        if not allowed.any():
            allowed = legal
        if not allowed.any():
            _kick(flat, meet, team, n_teams, size, rng, frozen, bands)
            cost = pair_cost(meet)
            continue
        masked = np.where(allowed, delta, np.iinfo(np.int64).max)
        ties = np.flatnonzero(masked == masked.min())
        k, j = divmod(int(ties[rng.randrange(ties.size)]), width)
        s, i = int(s_i[k]), int(i_i[k])
        cost += int(delta[k, j])
        tabu[s, flat[s, i]] = it + rng.randint(*_TENURE)
        tabu[s, flat[s, j]] = it + rng.randint(*_TENURE)
        _swap(flat, meet, size, s, i, j)
        if cost < best_cost:
            best, best_cost, stale = flat.copy(), cost, 0
        else:
            stale += 1
        if stale > _PATIENCE:
            flat = best.copy()
            meet = base.copy()
            add_meetings(meet, flat.reshape(seatings.shape))
            _kick(flat, meet, team, n_teams, size, rng, frozen, bands)
            cost, stale = pair_cost(meet), 0
            tabu[:] = 0
    return SearchResult(best.reshape(seatings.shape), best_cost, budget, False)
