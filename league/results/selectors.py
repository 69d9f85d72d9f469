"""Reads of results: a protocol's rows with running totals, a series' tables, who sits where,
a protocol's history (:func:`protocol_history`) and what to do after a correction
(:func:`protocol_next_steps`).

Nothing here writes. A row's values and its bok round (runda bokowa) are computed
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

import scoring
from league.models import Series, TableAssignment
from league.results.labels import scoring_error_message
from players.models import Player
from scoring import SEATS, ProtocolResult, ScoringError, preferans

from .describe import DealDescription, describe_deal
from .models import DealRow, DealRowVersion, Protocol, ProtocolEvent, SeriesEvent
from .pulka import pulka_score
from .pulka_describe import describe_pulka_entry, is_pulka_entry
from .shorthand import format_deal

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


@dataclass(frozen=True)
class SheetRow:
    """A row as the protocol page shows it: the deal, its values, the running totals after it."""

    number: int
    deal: dict[str, Any]
    values: dict[str, int]
    totals: dict[str, int]
    bok_round: bool

    @property
    def cells(self) -> list[tuple[str, int, int]]:
        """(seat, value, running total) in seat order, as the paper has them."""
        return [(seat, self.values[seat], self.totals[seat]) for seat in SEATS]

    @property
    def shorthand(self) -> str:
        return format_deal(self.deal)

    @property
    def description(self) -> DealDescription | None:
        return describe_deal(self.deal)


def protocol_score(*, protocol: Protocol, deals: list[dict[str, Any]]) -> ProtocolResult | preferans.TableScore:
    """The deals valued under the protocol's tournament's rules (a Preferans protocol's rows as
    its pulka's entries); errors name the deal number."""
    try:
        if protocol.series.tournament.is_preferans:
            return pulka_score(protocol=protocol, entries=deals)
        return scoring.score_protocol(deals, protocol.series.tournament.ruleset())
    except ScoringError as error:
        message = scoring_error_message(error)
        if error.path and error.path.startswith("deals["):
            number = int(error.path[len("deals[") : error.path.index("]")]) + 1
            message = _("Deal %(number)s: %(message)s") % {"number": number, "message": message}
        raise ValidationError(message, code=error.code) from error


def rows_sheet(rows: Iterable[DealRow]) -> list[SheetRow]:
    """Stored rows (in deal order) with the running totals of their stored values."""
    totals = dict.fromkeys(SEATS, 0)
    sheet = []
    for row in rows:
        values = row.values
        totals = {seat: totals[seat] + values[seat] for seat in SEATS}
        sheet.append(SheetRow(row.number, row.deal, values, totals, row.bok_round))
    return sheet


def protocol_sheet(*, protocol: Protocol) -> list[SheetRow]:
    """The protocol's rows in order with running totals, as stored."""
    return rows_sheet(protocol.rows.order_by("number"))


def sheet_totals(sheet: list[SheetRow]) -> dict[str, int]:
    """The totals after the last row; zero for each seat before the first deal."""
    return sheet[-1].totals if sheet else dict.fromkeys(SEATS, 0)


def protocol_row_preview(*, protocol: Protocol, number: int, deal: dict[str, Any]) -> SheetRow:
    """Deal ``number`` valued as ``deal`` in place (the next one, or a change of a saved one), not saved.

    The whole protocol is scored with it: a change can move the bok rounds of the deals after it.
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
    return SheetRow(number, deal, line.values, line.totals, line.bok_round)


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
class PulkaProgress:
    """How far a Preferans table's pulka is: the pulkas' points together (``filled``) of all the
    players' totals (``of``), and whether it is played out or closed by the players' agreement."""

    filled: int
    of: int
    finished: bool
    closed: bool

    @property
    def over(self) -> bool:
        return self.finished or self.closed


def pulka_progress(sheet: preferans.Sheet) -> PulkaProgress:
    filled = sum(sheet.totals.pulka.values())
    return PulkaProgress(filled, sheet.total * len(sheet.players), sheet.finished, sheet.closed)


@dataclass(frozen=True)
class TableSummary:
    """One table of a series on the referee's overview: its protocol, how many deals (a pulka's
    entries), the totals by the tournament's seats (None before any), for Preferans its pulka, and
    when a row was last saved (None before any)."""

    protocol: Protocol
    count: int
    totals: dict[str, int] | None
    pulka: PulkaProgress | None = None
    last_row: datetime | None = None


def _series_pulkas(series: Series, protocols: list[Protocol]) -> dict[int, PulkaProgress]:
    """Each table's pulka progress by protocol id, from one query of the entries. Every table seats
    the tournament's seats (the draw gives byes, never a short table), as its pulka's players."""
    tournament = series.tournament
    entries: dict[int, list[dict[str, Any]]] = {}
    rows = DealRow.objects.filter(protocol__series=series).order_by("protocol", "number")
    for protocol_id, deal in rows.values_list("protocol_id", "deal"):
        entries.setdefault(protocol_id, []).append(deal)
    return {
        protocol.pk: pulka_progress(
            preferans.keep_sheet(
                players=tournament.seats,
                variant=tournament.variant(),
                total=tournament.pulka_total,
                entries=entries.get(protocol.pk, []),
                closed=protocol.pulka_closed,
            )
        )
        for protocol in protocols
    }


def series_tables(*, series: Series) -> list[TableSummary]:
    """Every table's protocol of the series with its deal count and totals, in one query
    (a Preferans series: and each pulka's progress, in one more)."""
    sums = {f"total_{seat.lower()}": Sum(f"rows__value_{seat.lower()}") for seat in SEATS}
    protocols = list(
        series.protocols.order_by("table").annotate(deal_count=Count("rows"), last_row=Max("rows__updated"), **sums)
    )
    seats = series.tournament.seats
    pulkas = _series_pulkas(series, protocols) if series.tournament.is_preferans else {}
    return [
        TableSummary(
            protocol,
            protocol.deal_count,
            {seat: getattr(protocol, f"total_{seat.lower()}") for seat in seats} if protocol.deal_count else None,
            pulkas.get(protocol.pk),
            protocol.last_row,
        )
        for protocol in protocols
    ]


def table_players(*, series: Series, table: int) -> dict[str, Player]:
    """Who sits where at one table of the series, by seat."""
    assignments = TableAssignment.objects.filter(series=series, table=table).select_related("player")
    return {a.seat: a.player for a in assignments}


# --- the history of a protocol and what to do after a correction ----------------------


def person_name(user: AbstractBaseUser) -> str:
    """A person as the history names them: the full name, or the username when the account has none."""
    return user.get_full_name() or user.get_username()


def _values_text(values: dict[str, int]) -> str:
    return " · ".join(f"{seat} {value}".replace("-", "−") for seat, value in values.items())


@dataclass(frozen=True)
class HistoryEntry:
    """One line of a protocol's history: a change of a row (``version``), a protocol's event, or its
    series closed or reopened. ``who`` is a person's full name, or the phone's seat and its player."""

    created: datetime
    action: str
    who: str
    detail: str = ""
    why: str = ""
    version: DealRowVersion | None = None
    grant: str = ""
    # a Preferans row's entry before and after the change, in words with the players' names
    old_entry: str = ""
    new_entry: str = ""


PULKA_CLOSING = (ProtocolEvent.Action.PULKA_CLOSED, ProtocolEvent.Action.PULKA_OPENED)
"""The events of a pulka closed by agreement or opened again: their details hold the reason, if any."""


def _event_detail(event: ProtocolEvent, seat_name: Any) -> str:
    details = event.details or {}
    if event.action == ProtocolEvent.Action.TOTALS and details:
        return _values_text(details)
    if event.action == ProtocolEvent.Action.CONFIRMED and event.user is not None:
        return _("signed on paper by %(seat)s") % {"seat": seat_name(event.seat)}
    if event.action == ProtocolEvent.Action.REOPENED:
        if "deal" in details:
            return _("after the correction of deal %(number)s") % {"number": details["deal"]}
        if "totals" in details:
            return _("after new totals from the paper")
        return _("undone by the referee")
    return ""


def protocol_history(*, protocol: Protocol) -> list[HistoryEntry]:
    """Everything that happened to the protocol, oldest first: its rows, totals, completion,
    confirmation, being sent back, PIN changes, and the closing and reopening of its series."""
    players = table_players(series=protocol.series, table=protocol.table)
    names = {seat: player.full_name for seat, player in players.items()}

    def pulka_entry(deal: dict[str, Any] | None) -> str:
        return str(describe_pulka_entry(deal, names)) if deal and is_pulka_entry(deal) else ""

    def seat_name(seat: str) -> str:
        player = players.get(seat)
        return f"{seat}: {player.full_name}" if player else seat

    def who(user: AbstractBaseUser | None, seat: str, fallback: str = "—") -> str:
        if user is not None:
            return person_name(user)
        if seat:
            return _("phone at seat %(seat)s") % {"seat": seat_name(seat)}
        return fallback

    entries = [
        HistoryEntry(
            created=version.created,
            action=version.get_action_display(),
            who=who(version.user, version.seat, version.author or "—"),
            why=version.reason,
            version=version,
            old_entry=pulka_entry(version.old_deal),
            new_entry=pulka_entry(version.new_deal),
        )
        for version in protocol.history.select_related("user")
    ]
    entries += [
        HistoryEntry(
            created=event.created,
            action=event.get_action_display(),
            who=who(event.user, event.seat),
            detail=_event_detail(event, seat_name),
            why=(event.details or {}).get("reason", "") if event.action in PULKA_CLOSING else "",
            grant="" if event.user else event.grant,
        )
        for event in protocol.events.select_related("user")
    ]
    entries += [
        HistoryEntry(
            created=event.created,
            action=event.get_action_display(),
            who=who(event.user, ""),
            why=event.reason,
        )
        for event in SeriesEvent.objects.filter(series=protocol.series).select_related("user")
    ]
    return sorted(entries, key=lambda entry: entry.created)


@dataclass(frozen=True)
class NextSteps:
    """What the referee does after a correction of an accepted protocol.

    ``closed``: the series is closed, the correction already counts; ``sent_back``: the event that
    sent the protocol back to being entered (whose ``who`` and deal the page names); ``difference``:
    paper minus screen when the paper's totals no longer agree, so new totals are needed.
    """

    closed: bool
    difference: dict[str, int] | None
    sent_back: HistoryEntry | None = None


def protocol_next_steps(*, protocol: Protocol, difference: dict[str, int] | None) -> NextSteps | None:
    """The steps after a correction, or None when nothing was corrected since the protocol was accepted.

    A closed series needs only the paper's corrected totals (its protocols stay confirmed);
    a protocol sent back to being entered needs totals that agree, "complete" and a confirmation
    again. Before the paper's totals are first entered nothing was accepted, so nothing is read.
    """
    if protocol.declared_totals is None:
        return None
    if protocol.series.status == Series.Status.CLOSED:
        return NextSteps(closed=True, difference=difference) if difference else None
    if protocol.status != Protocol.Status.OPEN:
        return None
    # the protocol's last step of acceptance or its undoing (new totals alone do not accept it)
    accepting = [ProtocolEvent.Action.REOPENED, ProtocolEvent.Action.COMPLETED, ProtocolEvent.Action.CONFIRMED]
    last = protocol.events.filter(action__in=accepting).select_related("user").order_by("-created", "-pk").first()
    if last is None or last.action != ProtocolEvent.Action.REOPENED:
        return None
    sent_back = HistoryEntry(
        created=last.created,
        action=last.get_action_display(),
        who=person_name(last.user) if last.user else "—",
        detail=_event_detail(last, str),
    )
    return NextSteps(closed=False, difference=difference, sent_back=sent_back)
