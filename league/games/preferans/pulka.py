"""The pulka sheet of a Preferans protocol, read from its stored rows.

A Preferans table's protocol is its **pulka** (docs/preferans.md): each row holds one
entry of the sheet (a deal, or a referee's penalty) with the players named by seat, in
the engine's format, and the row's values are that entry's share of the settled whists
(``scoring.preferans.table_score``), which the standings add up as for Baśka. Everything
shown beyond the stored values — the pulka, mountain and whist columns, the settlement —
comes from the engine here, never from the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from league.games.base import TableProgress
from league.games.preferans.settings import preferans_settings
from league.models import DEALS_PER_SERIES, Series, TableAssignment
from league.results.models import DealRow, Protocol
from scoring import preferans

# A pulka ends when it is full, not by a count of deals: a series holds at most as many entries
# as the longest series of deals may.
PULKA_ROW_LIMIT = DEALS_PER_SERIES.high


def protocol_seats(protocol: Protocol) -> tuple[str, ...]:
    """The seats taken at the protocol's table, in seating order (the pulka's players)."""
    seats = TableAssignment.objects.filter(series_id=protocol.series_id, table=protocol.table)
    return tuple(seats.order_by("seat").values_list("seat", flat=True))


def pulka_score(*, protocol: Protocol, entries: list[dict[str, Any]]) -> preferans.TableScore:
    """The protocol's pulka with ``entries`` as its rows; raises ``ScoringError`` as the engine does."""
    settings = preferans_settings(protocol.series.tournament)
    return preferans.table_score(
        players=protocol_seats(protocol),
        variant=settings.variant(),
        total=settings.pulka_total,
        entries=entries,
        # a table stopped by the time limit is settled as closed by agreement, as the standings count it
        closed=protocol.closed_by_agreement or protocol.ended_early,
    )


@dataclass(frozen=True)
class PulkaView:
    """A protocol's pulka as its pages show it: the sheet, each row's small points
    after it, and the settlement (``None`` until the pulka is over)."""

    score: preferans.TableScore
    settlement: preferans.Settlement | None

    @property
    def sheet(self) -> preferans.Sheet:
        return self.score.sheet

    @property
    def lines(self) -> list[tuple[preferans.Row, preferans.TableRow]]:
        return list(zip(self.score.sheet.rows, self.score.rows, strict=True))


def protocol_pulka(*, protocol: Protocol) -> PulkaView:
    """The stored pulka of ``protocol``, re-read by the engine (the stored rows are valid by construction)."""
    entries = [row.deal for row in protocol.rows.order_by("number")]
    score = pulka_score(protocol=protocol, entries=entries)
    settlement = preferans.settle(score.sheet) if score.sheet.over else None
    return PulkaView(score=score, settlement=settlement)


def pulka_progress(sheet: preferans.Sheet) -> TableProgress:
    """How far a pulka is: its players' pulka points together of all their totals, and whether it
    is played out or closed by the players' agreement."""
    filled = sum(sheet.totals.pulka.values())
    return TableProgress(filled, sheet.total * len(sheet.players), sheet.finished, sheet.closed, gettext_lazy("pulka"))


def series_pulkas(*, series: Series, protocols: Sequence[Protocol]) -> dict[int, TableProgress]:
    """Each table's pulka progress by protocol id, from one query of the entries. Every table seats
    the tournament's seats (the draw gives byes, never a short table), as its pulka's players."""
    tournament = series.tournament
    settings = preferans_settings(tournament)
    entries: dict[int, list[dict[str, Any]]] = {}
    rows = DealRow.objects.filter(protocol__series=series).order_by("protocol", "number")
    for protocol_id, deal in rows.values_list("protocol_id", "deal"):
        entries.setdefault(protocol_id, []).append(deal)
    return {
        protocol.pk: pulka_progress(
            preferans.keep_sheet(
                players=tournament.seats,
                variant=settings.variant(),
                total=settings.pulka_total,
                entries=entries.get(protocol.pk, []),
                closed=protocol.closed_by_agreement,
            )
        )
        for protocol in protocols
    }
