"""Reads of results: a protocol's rows with running totals, a series' tables and who sits where
(a protocol's history is ``league.results.history``).

Nothing here writes. A row's values and its marks (e.g. a round the rules play for more) are computed
by ``scoring`` when the row is saved (``league.results.services``) and stored
with it, so a page shows the stored values and their running totals (plain
sums, as on paper) without scoring the protocol again. Only
:func:`protocol_row_preview` values a deal that is not stored yet, and
:func:`protocol_score` is the valuing the services store.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db.models import Count, Max, Sum
from django.utils.translation import gettext as _

from league.games import game_of
from league.games.labels import scoring_error_message
from league.models import Series, TableAssignment
from league.results.models import DealRow, Protocol, SeriesEvent
from players.models import Player
from scoring import SEATS, ProtocolResult, ScoringError, preferans

if TYPE_CHECKING:
    from league.games.base import GameRules, TableProgress


@dataclass(frozen=True)
class SheetRow:
    """A row as the protocol page shows it: the deal, its values, the running totals after it."""

    number: int
    deal: dict[str, Any]
    values: dict[str, int]
    totals: dict[str, int]
    doubled: bool  # the game counts the row's values multiplied
    game: GameRules | None = None  # whose words describe the row; none for a printed sheet, which writes its own

    @property
    def cells(self) -> list[tuple[str, int, int]]:
        """(seat, value, running total) in seat order, as the paper has them."""
        return [(seat, self.values[seat], self.totals[seat]) for seat in SEATS]

    @property
    def description(self) -> Any:
        """The row in words, as the game puts it; read only by the pages that show it."""
        return self.game.describe(self.deal) if self.game else None


def protocol_score(*, protocol: Protocol, deals: list[dict[str, Any]]) -> ProtocolResult | preferans.TableScore:
    """The deals valued under the rules of the protocol's game; errors name the deal number."""
    try:
        return game_of(protocol.series.tournament).score(protocol=protocol, entries=deals)
    except ScoringError as error:
        message = scoring_error_message(error)
        if error.path and error.path.startswith("deals["):
            number = int(error.path[len("deals[") : error.path.index("]")]) + 1
            message = _("Deal %(number)s: %(message)s") % {"number": number, "message": message}
        raise ValidationError(message, code=error.code) from error


def rows_sheet(rows: Iterable[DealRow], game: GameRules | None = None) -> list[SheetRow]:
    """Stored rows (in deal order) with the running totals of their stored values, described in the
    ``game``'s words (none without it: a printed sheet writes its own)."""
    totals = dict.fromkeys(SEATS, 0)
    sheet = []
    for row in rows:
        values = row.values
        totals = {seat: totals[seat] + values[seat] for seat in SEATS}
        sheet.append(SheetRow(row.number, row.deal, values, totals, row.doubled, game))
    return sheet


def protocol_sheet(*, protocol: Protocol) -> list[SheetRow]:
    """The protocol's rows in order with running totals, as stored."""
    return rows_sheet(protocol.rows.order_by("number"), game_of(protocol.series.tournament))


def sheet_totals(sheet: list[SheetRow]) -> dict[str, int]:
    """The totals after the last row; zero for each seat before the first deal."""
    return sheet[-1].totals if sheet else dict.fromkeys(SEATS, 0)


def protocol_row_preview(*, protocol: Protocol, number: int, deal: dict[str, Any]) -> SheetRow:
    """Deal ``number`` valued as ``deal`` in place (the next one, or a change of a saved one), not saved.

    The whole protocol is scored with it: a change can move the values of the deals after it.
    """
    deals = [row.deal for row in protocol.rows.order_by("number")]
    if number > len(deals) + 1:
        raise ValidationError(
            _("Deals are entered in order: the next one is deal %(number)s."),
            code="order",
            params={"number": len(deals) + 1},
        )
    if number <= len(deals):
        deals[number - 1] = deal
    else:
        deals.append(deal)
    line = protocol_score(protocol=protocol, deals=deals).rows[number - 1]
    return SheetRow(number, deal, line.values, line.totals, line.doubled, game_of(protocol.series.tournament))


def totals_difference(*, protocol: Protocol, sheet: list[SheetRow] | None = None) -> dict[str, int] | None:
    """Paper minus screen per seat, or None when the paper's totals agree (or are missing).

    Pass the ``sheet`` already read to spare reading the rows again.
    """
    if protocol.declared_totals is None:
        return None
    computed = sheet_totals(protocol_sheet(protocol=protocol) if sheet is None else sheet)
    difference = {seat: protocol.declared_totals[seat] - computed[seat] for seat in SEATS}
    return difference if any(difference.values()) else None


@dataclass(frozen=True)
class TableSummary:
    """One table of a series on the referee's overview: its protocol, how many rows (deals, or
    the game's own rows), the totals by the tournament's seats (None before any), its progress as the
    game reads it, and when a row was last saved (None before any)."""

    protocol: Protocol
    count: int
    totals: dict[str, int] | None
    progress: TableProgress
    last_row: datetime | None = None


def series_tables(*, series: Series) -> list[TableSummary]:
    """Every table's protocol of the series with its deal count and totals, in one query (and
    what the game reads of each table's progress, in one more for a game with its own)."""
    sums = {f"total_{seat.lower()}": Sum(f"rows__value_{seat.lower()}") for seat in SEATS}
    protocols = list(
        series.protocols.order_by("table").annotate(deal_count=Count("rows"), last_row=Max("rows__updated"), **sums)
    )
    seats = series.tournament.seats
    progress = game_of(series.tournament).series_progress(series=series, protocols=protocols)
    return [
        TableSummary(
            protocol,
            protocol.deal_count,
            {seat: getattr(protocol, f"total_{seat.lower()}") for seat in seats} if protocol.deal_count else None,
            progress[protocol.pk],
            protocol.last_row,
        )
        for protocol in protocols
    ]


def table_players(*, series: Series, table: int) -> dict[str, Player]:
    """Who sits where at one table of the series, by seat."""
    assignments = TableAssignment.objects.filter(series=series, table=table).select_related("player")
    return {a.seat: a.player for a in assignments}


def series_closed_at(series: Series) -> datetime | None:
    """When ``series`` was (last) closed, which stopped its clock; None while it is not closed. Read from
    :func:`league.hall.selectors.room_figures`' annotation when the series came with it."""
    if series.status != Series.Status.CLOSED:
        return None
    if hasattr(series, "closed_at"):
        return series.closed_at
    return series.closing_events.filter(action=SeriesEvent.Action.CLOSED).aggregate(last=Max("created"))["last"]
