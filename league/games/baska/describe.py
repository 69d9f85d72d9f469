"""A stored deal in words, for the protocol pages and the history of changes.

The one place that turns a deal object (docs/interfaces.md §1) into what a person
reads in a protocol row: the contract's translated name, the old seats, the
kontras as the stake's multiplier ("×4"), the result (the old side's eyes, a
tie 52:52 recorded without eyes, who won and at which level, or a misplay), whether the hand was laid down,
and the note of the kind of offence ("rodzaj przewinienia": renege, cards shown, out of turn, deal already
decided) where the row has one. The shorthand line stays beside it, small, for whoever copies from paper.

It needs no ruleset: it describes what was entered, not whether it is valid
(``scoring`` decides that when the row is saved).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.games.baska.shorthand import format_deal
from league.games.labels import CONTRACT_LABELS, LEVEL_LABELS, OFFENCE_LABELS, SIDE_LABELS
from league.results.selectors import protocol_sheet
from scoring import SEATS, counted_doublings

if TYPE_CHECKING:
    from league.results.models import Protocol


@dataclass(frozen=True)
class DealDescription:
    """The parts of a deal's description; ``str()`` joins them into one line (for a title or plain text).

    ``offence`` is the row's note of the kind of offence, translated; empty for none."""

    contract: str
    old: str
    kontra: str
    kontra_sides: str
    result: str
    laid_down: str
    shorthand: str
    offence: str = ""

    @property
    def parts(self) -> list[str]:
        head = " ".join(part for part in (self.contract, self.old, self.kontra) if part)
        return [part for part in (head, self.laid_down, self.result, self.offence) if part]

    def __str__(self) -> str:
        return " · ".join(self.parts)


def _result(deal: dict[str, Any]) -> str:
    if "old_eyes" in deal:
        eyes = deal["old_eyes"]
        return ngettext("%(eyes)s eye", "%(eyes)s eyes", eyes) % {"eyes": eyes}
    if deal.get("tie"):
        return _("tie at 52:52")
    if "winner" in deal:
        text = str(_("won") if deal["winner"] == "old" else _("lost"))
        if level := deal.get("level"):
            text += f", {LEVEL_LABELS.get(level, level)}"
        return text
    if "misplay" in deal:
        return _("misplay by %(seat)s") % {"seat": deal["misplay"]}
    return ""


def describe_deal(deal: Mapping[str, Any] | None) -> DealDescription | None:
    """``deal`` in words; None for no deal (the new side of a deleted row)."""
    if not deal:
        return None
    try:
        shorthand = format_deal(deal)
    except (KeyError, TypeError):  # not something the parser gives: show it as stored
        shorthand = str(deal)
    contract = str(CONTRACT_LABELS.get(deal.get("contract", ""), deal.get("contract", "")))
    if deal.get("cicha_na_dobiciu"):
        contract += " " + _("“na dobiciu”")
    offence = str(OFFENCE_LABELS.get(deal["offence"], deal["offence"])) if deal.get("offence") else ""
    if "old" not in deal:  # the four values copied from paper
        values = deal.get("values") or {}
        written = ", ".join(f"{seat} {values[seat]}" for seat in SEATS if seat in values)
        return DealDescription(
            contract, "", "", "", _("values from paper: %(values)s") % {"values": written}, "", shorthand, offence
        )
    kontras = list(deal.get("kontras", []))
    count, _last = counted_doublings(kontras)
    return DealDescription(
        contract=contract,
        old="+".join(deal["old"]),
        kontra=f"×{2**count}" if count else "",
        kontra_sides=", ".join(str(SIDE_LABELS.get(side, side)) for side in kontras),
        result=_result(deal),
        laid_down=str(_("laid down")) if deal.get("laid_down") else "",
        shorthand=shorthand,
        offence=offence,
    )


def protocol_lines(protocol: Protocol) -> list[dict[str, Any]]:
    """The protocol's rows for the public table page as the paper has them: the deal (contract,
    old seats, kontras, eyes or result), and value and running total per seat."""
    return [
        {
            "number": row.number,
            "deal": describe_deal(row.deal),
            "bok_round": row.doubled,
            "cells": [(row.values[seat], row.totals[seat]) for seat in SEATS],
        }
        for row in protocol_sheet(protocol=protocol)
    ]
