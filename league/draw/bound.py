"""The counting bound on repeated meetings (docs/draw.md, "Counting bound")."""

from __future__ import annotations

from collections.abc import Sequence

from .model import DrawPlayer


def repeat_lower_bound(players: Sequence[DrawPlayer], series: int, table_size: int = 4) -> int:
    """At least this many repeats are unavoidable in ``series`` series at tables of ``table_size``.

    A player who plays g series fills (size − 1)·g seats beside him but has
    only N − 1 − (teammates) possible partners; each seat beyond that is a
    repeat seen from his side, and every repeat is seen from both sides.  A
    bye takes size − 1 seats away, so the byes are credited where they lower
    the bound most.
    """
    n = len(players)
    beside = table_size - 1
    teams: dict[str, int] = {}
    for p in players:
        if p.team is not None:
            teams[p.team] = teams.get(p.team, 0) + 1
    shortfall = sorted(
        (max(0, beside * series - (n - 1 - (teams[p.team] - 1 if p.team is not None else 0))) for p in players),
        reverse=True,
    )
    byes = min(n, (n % table_size) * series)
    relieved = sum(min(beside, s) for s in shortfall[:byes])
    return (sum(shortfall) - relieved + 1) // 2
