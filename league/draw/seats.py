"""Seat order A–D at each table, balanced over the tournament.

Seats matter (A deals first in the protocol, partnerships follow the seats),
so nobody should sit at the same letter every series.  With the tables fixed,
each table picks the one of its 24 seat orders that adds least to
Σ over players and letters of count², where count is how often the player
has had that letter; a few sweeps over all new tables settle it.
"""

from __future__ import annotations

import itertools
import random

import numpy as np

_ORDERS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)  # order[k] = seat of member k
_SWEEPS = 3


def balance_seats(fixed_seats: np.ndarray, seatings: np.ndarray, rng: random.Random) -> np.ndarray:
    """Reorder the members of every table of ``seatings`` (series × tables × 4).

    ``fixed_seats`` (players × 4) counts the letters already taken in fixed
    series.  Returns the seatings with column k holding seat letter "ABCD"[k].
    """
    counts = fixed_seats.copy()
    out = seatings.copy()
    placed = False
    for _ in range(_SWEEPS):
        for s in range(out.shape[0]):
            for t in range(out.shape[1]):
                members = out[s, t]
                if placed:
                    counts[members, np.arange(4)] -= 1
                # Adding one to count c costs 2c + 1, so minimise Σ c over the chosen letters.
                cost = counts[members[:, None], _ORDERS.T].sum(axis=0)
                best = np.flatnonzero(cost == cost.min())
                order = _ORDERS[best[rng.randrange(best.size)]]
                seated = np.empty(4, dtype=np.int64)
                seated[order] = members
                out[s, t] = seated
                counts[seated, np.arange(4)] += 1
        placed = True
    return out
