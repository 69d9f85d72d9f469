"""The final settlement of a pulka ("rozliczenie pulki"), variant 1 of the seed.

1. The pulka turns into mountain points: each point a pulka lacks of the total goes
   onto its owner's mountain ``short_factor`` times (closing by agreement: the points
   still missing), each point over it comes off ``over_factor`` times (Leningrad 2 / 2).
   After that the pulka column no longer counts: the pulkas are all equal.
2. Amnesty ("amnestia"): the smallest mountain is subtracted from every mountain.
3. Each mountain × 10 / number of players is what its owner owes each other player;
   it is added to the whists the others wrote on him. The remainder rule ("reszta",
   seed 4.2.12): where the final sums would have fractions (``remainder`` ``final``:
   the mountains together do not divide) or where a mountain's share does not divide
   (``mountain``: each mountain on its own), a mountain is moved by one point to a
   divisible number and the others compensate in whole whists: one point off a
   mountain among three, and each of the other two writes 3 whists on its owner
   (losing a third of a whist each); one point onto it, and its owner writes 3 on
   each of them.
4. The whists written on each other are netted pairwise; a player's balance is the
   sum of his nets. The game is zero-sum: the balances add up to nothing.

The stake per whist turns a balance into money; money is an integer in the smallest
unit or a :class:`~decimal.Decimal`, never a float.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import floor

from .sheet import Sheet


@dataclass(frozen=True, slots=True, kw_only=True)
class Adjustment:
    """The remainder rule applied to ``player``'s mountain: ``points`` (+1 or −1) and
    the whole whists that compensate each of the others."""

    player: str
    points: int
    whists_each: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Settlement:
    """``mountains_at_end`` after step 1; ``mountains`` after the amnesty and the
    remainder rule; ``whists[a][b]`` all that ``a`` has on ``b``, mountains included;
    ``net[a][b]`` what ``b`` pays ``a`` (``net[b][a]`` is its negative)."""

    mountains_at_end: Mapping[str, int]
    amnesty: int
    mountains: Mapping[str, int]
    adjustments: tuple[Adjustment, ...]
    whists: Mapping[str, Mapping[str, int]]
    net: Mapping[str, Mapping[str, int]]
    balance: Mapping[str, int]


def mountains_at_end(sheet: Sheet) -> dict[str, int]:
    """Step 1: the mountains once the pulkas are turned into mountain points."""
    variant = sheet.variant
    totals = sheet.totals
    mountains = {}
    # closed by agreement before it was played out: seed line 7, the missing points go onto
    # the mountain closing_factor times (once), not the played-out pulka's short_factor
    short = variant.closing_factor if sheet.closed and not sheet.finished else variant.short_factor
    for player in sheet.players:
        gap = sheet.total - totals.pulka[player]
        factor = short if gap > 0 else variant.over_factor
        mountains[player] = totals.gora[player] + factor * gap
    return mountains


def _divisible_step(mountain: int, per_point: int, players: int, *, lowest: int | None = None) -> int:
    """The smallest move (−1 before +1, none below ``lowest``) that makes ``mountain × per_point``
    divide by ``players``."""
    for size in range(players):
        for step in (-size, size):
            if lowest is not None and step < lowest:
                continue
            if (mountain + step) * per_point % players == 0:
                return step
    raise AssertionError("a multiple of the number of players lies within it")


def _write_mountains(whists: dict[str, dict[str, int]], mountains: Mapping[str, int], per_point: int) -> None:
    """Add each mountain × per_point / players to the whists of the others on its owner.

    Where every share divides (the ``mountain`` reading) that is all. Under the ``final``
    reading a share may be a fraction while the final sums are whole; the fractions then
    form a loop of debts that nets to nothing in any balance, so the whists of each pair
    without the first player are rounded down and the first player's pairs take up the
    difference: every balance stays exact and every whist whole.
    """
    players = tuple(mountains)
    n = len(players)
    exact = {
        a: {b: Fraction(whists[a][b]) + Fraction(mountains[b] * per_point, n) for b in players if b != a}
        for a in players
    }
    balance = {a: sum(exact[a][b] - exact[b][a] for b in exact[a]) for a in players}
    anchor, *rest = players
    for a in rest:
        for b in rest:
            if b != a:
                whists[a][b] = floor(exact[a][b])
    for a in rest:
        whists[anchor][a] = floor(exact[anchor][a])
        others = sum(whists[a][b] - whists[b][a] for b in rest if b != a)
        # balance[a] is whole: the loop of fractions nets out (the mountains together divide)
        whists[a][anchor] = int(balance[a]) - others + whists[anchor][a]
        if whists[a][anchor] < 0:
            # a share rounded down by less than a whist: the anchor's cell takes it instead
            whists[anchor][a] -= whists[a][anchor]
            whists[a][anchor] = 0


def settle(sheet: Sheet) -> Settlement:
    """Settle a pulka that is over (finished or closed)."""
    if not sheet.over:
        raise ValueError("only a finished or closed pulka is settled")
    players = sheet.players
    n = len(players)
    per_point = sheet.variant.whists_per_mountain_point
    at_end = mountains_at_end(sheet)
    amnesty = min(at_end.values())
    whists = {writer: dict(row) for writer, row in sheet.totals.whists.items()}
    mountains = {owner: at_end[owner] - amnesty for owner in players}
    adjustments: list[Adjustment] = []
    if sheet.variant.remainder == "mountain":
        steps = {owner: _divisible_step(mountains[owner], per_point, n) for owner in players}
    else:
        # seed line 20: only fractional final sums call for the rule; they are fractional
        # exactly when the mountains together do not divide, and moving the largest mountain
        # (ties: the first seated) mends that without taking any mountain below nothing
        largest = max(players, key=mountains.__getitem__)
        step = _divisible_step(sum(mountains.values()), per_point, n, lowest=-mountains[largest])
        steps = {largest: step}
    for owner, step in steps.items():
        if step:
            each = abs(step) * per_point // n
            adjustments.append(Adjustment(player=owner, points=step, whists_each=each))
            for other in players:
                if other != owner:
                    # off the mountain: the others write on its owner; onto it: he on them
                    writer, on = (other, owner) if step < 0 else (owner, other)
                    whists[writer][on] += each
            mountains[owner] += step
    _write_mountains(whists, mountains, per_point)
    net = {a: {b: whists[a][b] - whists[b][a] for b in players if b != a} for a in players}
    return Settlement(
        mountains_at_end=at_end,
        amnesty=amnesty,
        mountains=mountains,
        adjustments=tuple(adjustments),
        whists=whists,
        net=net,
        balance={player: sum(net[player].values()) for player in players},
    )


def money(balance: Mapping[str, int], stake: int | Decimal) -> dict[str, int | Decimal]:
    """Each balance in money at ``stake`` per whist (an int in the smallest unit, or a Decimal)."""
    if isinstance(stake, float):
        raise TypeError("money is never a float")
    return {player: whists * stake for player, whists in balance.items()}
