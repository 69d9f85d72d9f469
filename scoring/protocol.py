"""The table protocol ("protokół stołu"): the deals of one table in one series.

Each row carries the deal's values and the running totals, as psb keeps them
on paper.  Bok rounds are settled here, by the ruleset's ``bok_rounds.trigger``:

- ``tie``: derived. A 52:52 deal starts a round, the next ``length`` deals count
  ``factor`` times, a trigger inside a running round queues the next one, and no
  more than ``max_per_series`` rounds are started. A row's own ``bok_round``
  must agree with the derived one.
- ``marked`` (pomorska §12n read as rows pre-marked on the sheet): the scorer
  marks the bok rows (``"bok_round": true``), each counts ``factor`` times and
  ties start nothing. Only the maximum is checked: at most ``max_per_series ×
  length`` marked rows in the series, wherever they stand (the sheet's marks are
  trusted, their number is capped; a round cut short by the time limit is not
  an error).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .constants import SEATS
from .deal import Deal, DealResult, parse_deal, value_deal
from .errors import ScoringError
from .fields import fail, show
from .ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class ProtocolRow:
    """One deal in the protocol: its values, the running totals after it, and
    whether it was played in a bok round."""

    values: dict[str, int]
    totals: dict[str, int]
    bok_round: bool
    result: DealResult


@dataclass(frozen=True, slots=True)
class ProtocolResult:
    rows: tuple[ProtocolRow, ...]
    totals: dict[str, int]


class _BokRounds:
    """Which deals of a series fall in a bok round (see the module's docstring)."""

    __slots__ = ("ruleset", "enabled", "marked", "length", "cap", "left", "queued", "started", "marked_rows")

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.enabled = ruleset.bok_rounds.enabled
        self.marked = ruleset.bok_rounds.trigger == "marked"
        self.length = ruleset.bok_rounds.length
        self.cap = ruleset.bok_rounds.max_per_series
        self.left = 0  # deals still to play in the running round
        self.queued = 0
        self.started = 0
        self.marked_rows = 0

    def row(self, deal: Deal) -> bool:
        """Whether ``deal``, the next row, is in a bok round; refuses a mark the rules do not allow."""
        if self.marked:
            if deal.bok_round:
                self.marked_rows += 1
                if self.cap is not None and self.marked_rows > self.cap * self.length:
                    params = {
                        "count": self.marked_rows,
                        "ruleset": self.ruleset.id,
                        "max": self.cap * self.length,
                        "rounds": self.cap,
                        "length": self.length,
                    }
                    raise ScoringError("too_many_bok_rows", params, f"{deal.path}.bok_round")
            return bool(deal.bok_round)
        in_bok = self.left > 0
        if deal.bok_round is not None and deal.bok_round != in_bok:
            raise ScoringError(
                "bok_round_mismatch", {"given": show(deal.bok_round), "derived": show(in_bok)}, f"{deal.path}.bok_round"
            )
        return in_bok

    def after(self, tie: bool) -> None:
        """Move on past a deal, given whether it ended 52:52 (which starts nothing under ``marked``)."""
        if self.marked:
            return
        if self.left:
            self.left -= 1
        if tie and self.enabled and (self.cap is None or self.started < self.cap):
            self.started += 1
            self.queued += 1
        if not self.left and self.queued:
            self.queued -= 1
            self.left = self.length


def score_protocol(deals: list[dict[str, Any]], ruleset: Ruleset) -> ProtocolResult:
    """Value the deals of a table in order; errors name ``deals[i]``."""
    if not isinstance(deals, list):
        raise fail("invalid_input", "deals", "a list")
    bok = _BokRounds(ruleset)
    totals = dict.fromkeys(SEATS, 0)
    rows: list[ProtocolRow] = []
    for i, data in enumerate(deals):
        path = f"deals[{i}]"
        deal = parse_deal(data, ruleset, path=path)
        in_bok = bok.row(deal)
        result = value_deal(deal, ruleset, bok_round=in_bok)
        totals = {seat: totals[seat] + result.values[seat] for seat in SEATS}
        rows.append(ProtocolRow(result.values, totals, in_bok, result))
        bok.after(result.tie)
    return ProtocolResult(tuple(rows), dict(totals))
