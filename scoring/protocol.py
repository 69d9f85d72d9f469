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

Under ``tie`` the rounds are a small machine whose state is what :class:`_BokRounds` remembers
(deals left in the running round, rounds queued, rounds started), named ``left.queued.started``
(``left.queued`` without a cap).
:func:`bok_walk` writes the machine out as data, so that a phone without the network can follow
it over its queued deals from the state the server gave it (each row's ``bok_state``) and learn
whether a deal falls in a bok round without holding the rule (scoring.value_table).
"""

from __future__ import annotations

from copy import copy
from dataclasses import dataclass
from typing import Any

from .constants import SEATS
from .deal import Deal, DealResult, parse_deal, value_deal
from .errors import ScoringError
from .fields import fail, show
from .ruleset import MAX_DEALS, Ruleset


@dataclass(frozen=True, slots=True)
class ProtocolRow:
    """One deal in the protocol: its values, the running totals after it, and
    whether it was played in a bok round."""

    values: dict[str, int]
    totals: dict[str, int]
    bok_round: bool
    result: DealResult
    bok_state: str  # the bok rounds' state before this deal (see the module)

    @property
    def doubled(self) -> bool:
        """The row counts its values ×factor, as every game's scored row says it (the stored rows'
        shared mark, ``DealRow.doubled``): here, it is in a bok round."""
        return self.bok_round


@dataclass(frozen=True, slots=True)
class ProtocolResult:
    rows: tuple[ProtocolRow, ...]
    totals: dict[str, int]
    bok_state: str  # the bok rounds' state after the last deal: the next deal's


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

    @property
    def state(self) -> str:
        """The name of what the rounds remember, ``left.queued.started`` (see the module); without a
        cap the rounds started change nothing, so the name leaves them out."""
        started = "" if self.cap is None else f".{self.started}"
        return f"{self.left}.{self.queued}{started}"

    def row(self, deal: Deal) -> bool:
        """Whether ``deal``, the next row, is in a bok round; refuses a mark the rules do not allow."""
        if self.marked:
            if deal.bok_round:
                self.marked_rows += 1
                if self.cap is not None and self.marked_rows > self.cap * self.length:
                    params = {
                        "count": self.marked_rows,
                        "ruleset": self.ruleset.id,
                        "ruleset_name": self.ruleset.name,
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
        state = bok.state
        in_bok = bok.row(deal)
        result = value_deal(deal, ruleset, bok_round=in_bok)
        totals = {seat: totals[seat] + result.values[seat] for seat in SEATS}
        rows.append(ProtocolRow(result.values, totals, in_bok, result, state))
        bok.after(result.tie)
    return ProtocolResult(tuple(rows), dict(totals), bok.state)


BOK_WALK_STATES = 2000  # the most states a walk writes out (a phone's page carries them all)


def bok_walk(ruleset: Ruleset) -> dict[str, Any] | None:
    """The bok rounds of a ``tie`` trigger as data (None under ``marked`` or without bok rounds):
    ``{"from": state, "steps": {state: {"tie": state, "plain": state}}, "in_bok": [state, …]}``,
    the states a series reaches in at most :data:`~scoring.ruleset.MAX_DEALS` deals, each step what
    :class:`_BokRounds` does after a deal that ended 52:52 (``tie``) or not (``plain``), and
    ``in_bok`` the states whose next deal counts ``factor`` times. A custom ruleset whose machine
    has more than :data:`BOK_WALK_STATES` states is cut there: a missing step is "not known"."""
    if not ruleset.bok_rounds.enabled or ruleset.bok_rounds.trigger != "tie":
        return None
    first = _BokRounds(ruleset)
    steps: dict[str, dict[str, str]] = {}
    in_bok: list[str] = []
    level = [first]
    for _deal in range(MAX_DEALS + 1):
        following = []
        for bok in level:
            if bok.state in steps or len(steps) >= BOK_WALK_STATES:
                continue
            steps[bok.state] = {}
            if bok.left:
                in_bok.append(bok.state)
            for name, tie in (("plain", False), ("tie", True)):
                after = copy(bok)
                after.after(tie)
                steps[bok.state][name] = after.state
                following.append(after)
        level = following
    return {"from": first.state, "steps": steps, "in_bok": in_bok}
