"""The counting bound on repeated meetings (docs/draw.md, "Counting bound")."""

from __future__ import annotations

from collections.abc import Sequence

from .model import DrawPlayer


def repeat_lower_bound(players: Sequence[DrawPlayer], series: int) -> int:
    """At least this many repeats are unavoidable in ``series`` series.

    A player who plays g series fills 3g seats beside him but has only
    N − 1 − (teammates) possible partners; each seat beyond that is a repeat
    seen from his side, and every repeat is seen from both sides.  A bye takes
    three seats away, so the byes are credited where they lower the bound most.
    """
    n = len(players)
    teams: dict[str, int] = {}
    for p in players:
        if p.team is not None:
            teams[p.team] = teams.get(p.team, 0) + 1
    shortfall = sorted(
        (max(0, 3 * series - (n - 1 - (teams[p.team] - 1 if p.team is not None else 0))) for p in players),
        reverse=True,
    )
    byes = min(n, (n % 4) * series)
    relieved = sum(min(3, s) for s in shortfall[:byes])
    return (sum(shortfall) - relieved + 1) // 2
