"""A protocol of plain rows (wiersze liczb: rows of numbers): each row one integer per seat, as the
table writes it, summing to zero; the running totals are the plain sums, as on paper.

The engine of a game whose deals are written as their values rather than valued by rules
(``league.games.plain``): a row is ``{"values": {"A": 3, "B": -3, ...}}`` for the table's seats.
The result has the shape the rooms read of a Baśka protocol (``scoring.ProtocolResult``): each
row's values, the running totals after it and its bok round (never, here), and the totals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import ScoringError
from .fields import join, read_int, read_list, read_object

RowCheck = Callable[[Mapping[str, int], str], None]
"""A game's one rule of a row's values (given them and their path): raises ``ScoringError``."""


@dataclass(frozen=True, slots=True)
class RowsLine:
    """One row: its values by seat and the running totals after it."""

    values: dict[str, int]
    totals: dict[str, int]
    doubled: bool = False  # the stored rows' shared mark (DealRow.doubled); plain rows count once


@dataclass(frozen=True, slots=True)
class RowsResult:
    rows: tuple[RowsLine, ...]
    totals: dict[str, int]


def zero_sum(values: Mapping[str, int], path: str) -> None:
    """The usual rule: what one seat wins the others lose."""
    if total := sum(values.values()):
        raise ScoringError("values_not_zero_sum", {"total": total}, path)


def read_row(data: Any, seats: Sequence[str], path: str) -> dict[str, int]:
    """A stored or typed row's values by seat, every seat given once as an integer."""
    row = read_object(data, path, "invalid_input", allowed=("values",), required=("values",))
    values_path = join(path, "values")
    values = read_object(row["values"], values_path, "invalid_input", allowed=seats, required=seats)
    return {seat: read_int(values[seat], join(values_path, seat), "invalid_input") for seat in seats}


def score_rows(entries: Any, seats: Sequence[str], check: RowCheck = zero_sum) -> RowsResult:
    """The rows in order with running totals; errors name ``deals[i]`` as ``score_protocol``'s do."""
    totals = dict.fromkeys(seats, 0)
    lines = []
    for i, data in enumerate(read_list(entries, "deals", "invalid_input")):
        path = join("deals", i)
        values = read_row(data, seats, path)
        check(values, join(path, "values"))
        totals = {seat: totals[seat] + values[seat] for seat in seats}
        lines.append(RowsLine(values, totals))
    return RowsResult(tuple(lines), totals)
