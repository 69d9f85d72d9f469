"""Filling a benchmark database fast: one series seated and, when played, its deals.

Rows are written in bulk as values-only deals (four numbers summing to zero), the
way a paper protocol can be entered; the benchmarks time reading them, not typing.
"""

from __future__ import annotations

import random
from typing import Any


def seat_and_fill(series: Any, players: list[Any], rng: random.Random, *, deals: int, played: bool) -> list[Any]:
    """Seat ``players`` at tables of four in a random order and, if ``played``, give
    every table ``deals`` confirmed deals; returns the series' protocols."""
    from league.models import TableAssignment
    from league.results.models import DealRow, Protocol

    seated = players[:]
    rng.shuffle(seated)
    tables = [seated[k : k + 4] for k in range(0, len(seated), 4)]
    TableAssignment.objects.bulk_create(
        TableAssignment(series=series, table=t, seat=seat, player=p)
        for t, four in enumerate(tables, start=1)
        for seat, p in zip("ABCD", four, strict=True)
    )
    status = Protocol.Status.CONFIRMED if played else Protocol.Status.OPEN
    protocols = Protocol.objects.bulk_create(
        Protocol(series=series, table=t, status=status) for t in range(1, len(tables) + 1)
    )
    if played:
        rows = []
        for protocol in protocols:
            for deal in range(1, deals + 1):
                a, b, c = (rng.randint(-12, 12) for _ in range(3))
                values = {"A": a, "B": b, "C": c, "D": -(a + b + c)}
                rows.append(
                    DealRow(
                        protocol=protocol,
                        number=deal,
                        deal={"values": values},
                        value_a=a,
                        value_b=b,
                        value_c=c,
                        value_d=values["D"],
                    )
                )
        DealRow.objects.bulk_create(rows, batch_size=2000)
    return protocols
