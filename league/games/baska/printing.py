"""Baśka's printed protocol (protokół): the deals as a referee writes them, each seat's value and
running total (``league.printing.documents`` lays the sheet out)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import ngettext

from league.games.labels import CONTRACT_LABELS, OFFENCE_LABELS
from league.printing.documents import PROTOCOL_COLUMNS_MM, ProtocolLine, row_grid
from league.results.models import DealRow
from league.results.selectors import rows_sheet, sheet_totals
from scoring import SEATS, Ruleset, parse_deal


def contract_text(deal: dict[str, Any], ruleset: Ruleset) -> str:
    """The contract as a referee writes it: "zolo A, 2 kontras"; only the label for a deal entered by its
    numbers; the row's note of the kind of offence after it ("zwykła A+C, nieprzestrzeganie koloru")."""
    text = str(CONTRACT_LABELS.get(deal.get("contract"), ""))
    if "old" in deal:
        parsed = parse_deal(deal, ruleset)
        text += f" {'+'.join(parsed.old)}"
        if parsed.doublings:
            count = parsed.doublings
            text += ", " + ngettext("%(count)d kontra", "%(count)d kontras", count) % {"count": count}
    if deal.get("offence"):
        text += ", " + str(OFFENCE_LABELS.get(deal["offence"], deal["offence"]))
    return text


def filled_lines(rows: Iterable[DealRow], ruleset: Ruleset) -> tuple[list[ProtocolLine], list[int]]:
    """Protocol lines with each seat's value and running total, and the final totals."""
    sheet = rows_sheet(rows)
    lines = [
        ProtocolLine(
            number=row.number,
            contract=contract_text(row.deal, ruleset),
            doubled=row.doubled,
            cells=[(value, total) for _seat, value, total in row.cells],
        )
        for row in sheet
    ]
    totals = sheet_totals(sheet)
    return lines, [totals[seat] for seat in SEATS]


def blank_row_grid() -> str:
    """The blank row of the Baśka protocol (contract and seat columns), each seat's running total shaded and set off."""
    totals = frozenset(range(2, len(PROTOCOL_COLUMNS_MM) - 1, 2))
    return row_grid(PROTOCOL_COLUMNS_MM[1:], shaded=totals, thick=totals)
