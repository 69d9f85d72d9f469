"""Seat order at each table (A–D, or A–C at a table of three), balanced over the tournament.

Seats matter (A deals first in the protocol, partnerships follow the seats),
so nobody should sit at the same letter every series.  With the
tables fixed, each table picks the one of its seat orders (24 at a table of
four, 6 at a table of three) that adds least to Σ over players and letters of
count², where count is how often the player has had that letter; a few sweeps
over all new tables settle it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

import numpy as np

from .model import TABLE_SIZES

# _ORDERS[size][k] is one seat order: order[m] = seat of member m.
_ORDERS = {size: np.array(list(itertools.permutations(range(size))), dtype=np.int64) for size in TABLE_SIZES}
_SWEEPS = 3


def balance_seats(
    fixed_seats: np.ndarray,
    seatings: np.ndarray,
    rng: random.Random,
    letters_kept: Sequence[Mapping[int, int]] = (),
) -> np.ndarray:
    """Reorder the members of every table of ``seatings`` (series × tables × size).

    ``fixed_seats`` (players × size) counts the letters already taken in fixed
    series; ``letters_kept`` holds, per series, the seat of each player whose
    fixed seat names one (player → seat number), and only orders that keep it
    are chosen.  Returns the seatings with column k holding seat letter "ABCD"[k].
    """
    size = seatings.shape[-1]
    orders = _ORDERS[size]
    letters = np.arange(size)
    counts = fixed_seats.copy()
    out = seatings.copy()
    placed = False
    for _ in range(_SWEEPS):
        for s in range(out.shape[0]):
            for t in range(out.shape[1]):
                members = out[s, t]
                if placed:
                    counts[members, letters] -= 1
                # Adding one to count c costs 2c + 1, so minimise Σ c over the chosen letters.
                cost = counts[members[:, None], orders.T].sum(axis=0)
                kept = letters_kept[s] if letters_kept else {}
                for m, player in enumerate(members):
                    if int(player) in kept:
                        cost = np.where(orders[:, m] == kept[int(player)], cost, np.iinfo(np.int64).max)
                best = np.flatnonzero(cost == cost.min())
                order = orders[best[rng.randrange(best.size)]]
                seated = np.empty(size, dtype=np.int64)
                seated[order] = members
                out[s, t] = seated
                counts[seated, letters] += 1
        placed = True
    return out
