"""Results entry: every change of a table protocol goes through here.

Words used below:

- **protokół** (protocol): one table in one series, a row per deal
  (**rozdanie**), see ``league.results.models``.
- **wersja** (version): the protocol's optimistic lock. A writer passes the
  version it saw; if someone else wrote in between, it gets
  :class:`StaleProtocol` and must look at the other change first.
- **zamknięcie serii** (closing a series): the referee (sędzia) accepts all
  protocols of a series; corrections after it need a referee and a reason.

Who may change rows: while the series is open, the table (a table scorer,
``user=None`` with an ``author``) while its protocol is still being entered,
or a referee at any time before closing; after closing only a referee, with a
reason. A referee's change to a complete or confirmed protocol of an open
series sends it back to "being entered": the paper must be checked and
confirmed again. Only the last row can be deleted, so deal numbers always
follow the paper without renumbering.

Values are computed only by ``scoring``; every change re-scores the whole
protocol because bok rounds depend on earlier deals. Bad input raises
:class:`~django.core.exceptions.ValidationError` and changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import OperationalError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from league.models import Series
from league.results.labels import scoring_error_message
from league.standings.tasks import schedule_recompute
from league.tournaments.roles import is_referee
from scoring import SEATS, ProtocolResult, ScoringError

from .describe import DealDescription, describe_deal
from .models import DealRow, DealRowVersion, Protocol
from .shorthand import format_deal

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

OPEN_SERIES = (Series.Status.DRAWN, Series.Status.IN_PLAY)
LOCKED_RETRY_SECONDS = 20  # as long as the SQLite busy timeout in settings
T = TypeVar("T")


class StaleProtocol(ValidationError):
    """Someone else wrote to the protocol since the writer last read it."""

    def __init__(self, version: int) -> None:
        super().__init__(
            _(
                "Someone else changed this protocol in the meantime (it is now at version %(version)s). "
                "Your change was not saved: look at the protocol as it is now and enter it again if still needed."
            ),
            code="stale",
            params={"version": version},
        )


@dataclass(frozen=True)
class SheetRow:
    """A row as the protocol page shows it: the stored row (None for a preview) and its scoring."""

    number: int
    deal: dict[str, Any]
    values: dict[str, int]
    totals: dict[str, int]
    bok_round: bool
    row: DealRow | None = None

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


def score(protocol: Protocol, deals: list[dict[str, Any]]) -> ProtocolResult:
    """The protocol's deals valued under its tournament's rules; errors name the deal number."""
    try:
        return scoring.score_protocol(deals, protocol.series.tournament.ruleset())
    except ScoringError as error:
        message = scoring_error_message(error)
        if error.path and error.path.startswith("deals["):
            number = int(error.path[len("deals[") : error.path.index("]")]) + 1
            message = _("Deal %(number)s: %(message)s") % {"number": number, "message": message}
        raise ValidationError(message, code=error.code) from error


def sheet(protocol: Protocol, *, replace: tuple[int, dict[str, Any]] | None = None) -> list[SheetRow]:
    """The rows with running totals; ``replace=(number, deal)`` previews a row without saving it."""
    rows = list(protocol.rows.order_by("number"))
    deals = [row.deal for row in rows]
    if replace is not None:
        number, deal = replace
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
    result = score(protocol, deals)
    return [
        SheetRow(i + 1, deal, line.values, line.totals, line.bok_round, rows[i] if i < len(rows) else None)
        for i, (deal, line) in enumerate(zip(deals, result.rows, strict=True))
    ]


def get_or_create_protocols(series: Series) -> list[Protocol]:
    """One protocol per drawn table of the series."""
    tables = series.assignments.values_list("table", flat=True).distinct().order_by("table")
    return [Protocol.objects.get_or_create(series=series, table=table)[0] for table in tables]


def _atomic_write(write: Callable[..., T]) -> Callable[..., T]:
    """Run ``write`` in a transaction, retrying while SQLite reports its table locked.

    A shared-cache SQLite database (the in-memory test database) answers a
    concurrent writer with "table is locked" at once instead of honouring the
    busy timeout; the lock is taken by the first statement, so nothing has been
    done yet and the whole write can be tried again. PostgreSQL waits on the
    row lock and never gets here.
    """
    atomic_write = transaction.atomic(write)

    @wraps(write)
    def wrapped(*args: Any, **kwargs: Any) -> T:
        deadline = time.monotonic() + LOCKED_RETRY_SECONDS
        while True:
            try:
                return atomic_write(*args, **kwargs)
            except OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    return wrapped


def _claim(protocol: Protocol, expected_version: int) -> Protocol:
    """Take the protocol for writing and return it fresh, or raise StaleProtocol.

    The version is bumped by a conditional UPDATE as the first statement, so the
    write lock is taken at once: a second writer waits (PostgreSQL row lock,
    SQLite busy timeout) instead of deadlocking, then finds the version moved on.
    """
    claimed = Protocol.objects.filter(pk=protocol.pk, version=expected_version).update(version=F("version") + 1)
    fresh = Protocol.objects.select_for_update().select_related("series__tournament").get(pk=protocol.pk)
    if not claimed:
        raise StaleProtocol(fresh.version)
    return fresh


def _check_may_change(protocol: Protocol, user: AbstractBaseUser | None, *, reason: str | None = None) -> None:
    """Refuse writers the rules do not allow; ``reason`` is None for changes other than rows."""
    series = protocol.series
    referee = user is not None and is_referee(user, series.tournament)
    if series.status == Series.Status.CLOSED:
        if not referee:
            raise PermissionDenied(_("The series is closed: only a referee may correct it."))
        if reason is not None and not reason.strip():
            raise ValidationError(_("Give the reason for a correction after the series was closed."), code="reason")
    elif series.status not in OPEN_SERIES:
        raise ValidationError(_("The tables of this series have not been drawn yet."), code="not_drawn")
    elif not referee and (user is not None or protocol.status != Protocol.Status.OPEN):
        raise PermissionDenied(_("Only a referee may change a protocol once it is complete."))


def _record(
    protocol: Protocol,
    *,
    number: int,
    action: str,
    old: DealRow | None,
    new_deal: dict[str, Any] | None,
    new_values: dict[str, int] | None,
    user: AbstractBaseUser | None,
    author: str,
    reason: str,
) -> None:
    DealRowVersion.objects.create(
        protocol=protocol,
        number=number,
        action=action,
        old_deal=old.deal if old else None,
        old_values=old.values if old else None,
        new_deal=new_deal,
        new_values=new_values,
        user=user,
        author=author,
        reason=reason,
    )


def _write_rows(protocol: Protocol, deals: list[dict[str, Any]], result: ProtocolResult) -> None:
    """Store every row whose deal, values or bok round differ from the new scoring."""
    existing = {row.number: row for row in protocol.rows.all()}
    for number, (deal, line) in enumerate(zip(deals, result.rows, strict=True), start=1):
        values = {f"value_{seat.lower()}": line.values[seat] for seat in SEATS}
        row = existing.get(number)
        if row is None:
            DealRow.objects.create(protocol=protocol, number=number, deal=deal, bok_round=line.bok_round, **values)
        elif row.deal != deal or row.values != line.values or row.bok_round != line.bok_round:
            DealRow.objects.filter(pk=row.pk).update(
                deal=deal, bok_round=line.bok_round, updated=timezone.now(), **values
            )


def _after_change(protocol: Protocol) -> Protocol:
    if protocol.series.status != Series.Status.CLOSED and protocol.status != Protocol.Status.OPEN:
        protocol.status = Protocol.Status.OPEN
        protocol.completed_by_seat = ""
        protocol.confirmed_by_seat, protocol.confirmed_at = "", None
    protocol.save()
    # Public standings count closed series only: a deal of an open series cannot
    # change them, a correction after closing can.
    if protocol.series.status == Series.Status.CLOSED:
        schedule_recompute(protocol.series.tournament_id)
    return protocol


@_atomic_write
def save_row(
    *,
    protocol: Protocol,
    number: int,
    deal: dict[str, Any],
    expected_version: int,
    user: AbstractBaseUser | None = None,
    author: str = "",
    reason: str = "",
) -> Protocol:
    """Add deal ``number`` (the next one) or change an existing one; returns the protocol at its new version."""
    protocol = _claim(protocol, expected_version)
    _check_may_change(protocol, user, reason=reason)
    deals = [row.deal for row in protocol.rows.order_by("number")]
    limit = protocol.series.tournament.deals_per_series
    if not 1 <= number <= min(len(deals) + 1, limit):
        raise ValidationError(
            _("Deal %(number)s cannot be entered: the next deal is %(next)s of %(limit)s."),
            code="number",
            params={"number": number, "next": len(deals) + 1, "limit": limit},
        )
    old = protocol.rows.filter(number=number).first()
    if number <= len(deals):
        deals[number - 1] = deal
    else:
        deals.append(deal)
    result = score(protocol, deals)
    _write_rows(protocol, deals, result)
    _record(
        protocol,
        number=number,
        action=DealRowVersion.Action.CHANGE if old else DealRowVersion.Action.ADD,
        old=old,
        new_deal=deal,
        new_values=result.rows[number - 1].values,
        user=user,
        author=author,
        reason=reason,
    )
    series = protocol.series
    if not series.results_entered or series.status == Series.Status.DRAWN:
        # The first saved row makes the draw final (no redraw) and shows the series is being played.
        series.results_entered = True
        if series.status == Series.Status.DRAWN:
            series.status = Series.Status.IN_PLAY
        series.save(update_fields=["results_entered", "status"])
    return _after_change(protocol)


@_atomic_write
def delete_row(
    *,
    protocol: Protocol,
    number: int,
    expected_version: int,
    user: AbstractBaseUser | None = None,
    author: str = "",
    reason: str = "",
) -> Protocol:
    """Delete the last row (only the last one: numbers follow the paper)."""
    protocol = _claim(protocol, expected_version)
    _check_may_change(protocol, user, reason=reason)
    last = protocol.rows.order_by("number").last()
    if last is None or last.number != number:
        raise ValidationError(_("Only the last deal of a protocol can be deleted."), code="not_last")
    _record(
        protocol,
        number=number,
        action=DealRowVersion.Action.DELETE,
        old=last,
        new_deal=None,
        new_values=None,
        user=user,
        author=author,
        reason=reason,
    )
    last.delete()
    deals = [row.deal for row in protocol.rows.order_by("number")]
    _write_rows(protocol, deals, score(protocol, deals))
    return _after_change(protocol)


def _read_totals(totals: dict[str, Any]) -> dict[str, int]:
    try:
        values = {seat: int(totals[seat]) for seat in SEATS}
    except (KeyError, TypeError, ValueError):
        raise ValidationError(_("Give a whole number for each of the seats A, B, C and D."), code="totals") from None
    if sum(values.values()):
        raise ValidationError(
            _("The totals must sum to zero; they sum to %(total)s."),
            code="totals",
            params={"total": sum(values.values())},
        )
    return values


@_atomic_write
def set_declared_totals(
    *, protocol: Protocol, totals: dict[str, Any], expected_version: int, user: AbstractBaseUser | None = None
) -> Protocol:
    """Record the four totals from the paper's last line."""
    protocol = _claim(protocol, expected_version)
    _check_may_change(protocol, user)
    protocol.declared_totals = _read_totals(totals)
    return _after_change(protocol)


def totals_difference(protocol: Protocol) -> dict[str, int] | None:
    """Paper minus screen per seat, or None when the paper's totals agree (or are missing)."""
    if protocol.declared_totals is None:
        return None
    rows = sheet(protocol)
    computed = rows[-1].totals if rows else dict.fromkeys(SEATS, 0)
    difference = {seat: protocol.declared_totals[seat] - computed[seat] for seat in SEATS}
    return difference if any(difference.values()) else None


@_atomic_write
def mark_complete(
    *,
    protocol: Protocol,
    expected_version: int,
    ended_early: bool = False,
    user: AbstractBaseUser | None = None,
    seat: str = "",
) -> Protocol:
    """The table has finished (or was stopped by the time limit) and the paper agrees with the rows.

    ``seat`` is the table scorer's seat; that player may not also confirm the
    protocol. A referee may leave it blank.
    """
    protocol = _claim(protocol, expected_version)
    _check_may_change(protocol, user)
    if seat and seat not in SEATS:
        raise ValidationError(
            _("Unknown seat %(seat)s; the seats are A, B, C and D."), code="seat", params={"seat": seat}
        )
    count = protocol.rows.count()
    limit = protocol.series.tournament.deals_per_series
    if count < limit and not ended_early:
        raise ValidationError(
            _(
                "Only %(count)s of %(limit)s deals are entered; "
                "mark the table as stopped by the time limit if it did not finish."
            ),
            code="incomplete",
            params={"count": count, "limit": limit},
        )
    if protocol.declared_totals is None:
        raise ValidationError(_("Enter the totals written on the paper first."), code="no_totals")
    if difference := totals_difference(protocol):
        raise ValidationError(
            _(
                "The totals on paper differ from the rows (paper minus screen: %(difference)s); "
                "compare the running totals row by row."
            ),
            code="totals_mismatch",
            params={"difference": ", ".join(f"{seat} {value:+d}" for seat, value in difference.items())},
        )
    protocol.status = Protocol.Status.COMPLETE
    protocol.ended_early = ended_early
    protocol.completed_by_seat = seat
    protocol.save()
    return protocol


@_atomic_write
def confirm(*, protocol: Protocol, seat: str, expected_version: int, user: AbstractBaseUser | None = None) -> Protocol:
    """A second player of the table (at ``seat``) confirms the complete protocol, as the signature on paper.

    Refused from the seat that marked the protocol complete, and once the series is closed.
    """
    protocol = _claim(protocol, expected_version)
    if protocol.series.status == Series.Status.CLOSED:
        raise ValidationError(_("The series is closed: its protocols can no longer be confirmed."), code="closed")
    if seat not in SEATS:
        raise ValidationError(_("Choose the seat of the player who confirms."), code="seat")
    if protocol.status != Protocol.Status.COMPLETE:
        raise ValidationError(_("Only a complete protocol can be confirmed."), code="not_complete")
    if seat == protocol.completed_by_seat:
        raise ValidationError(
            _("Seat %(seat)s marked the protocol complete; a player at another seat confirms it."),
            code="same_seat",
            params={"seat": seat},
        )
    protocol.status = Protocol.Status.CONFIRMED
    protocol.confirmed_by_seat = seat
    protocol.confirmed_at = timezone.now()
    protocol.save()
    return protocol


@_atomic_write
def close_series(*, series: Series, user: AbstractBaseUser) -> Series:
    """Accept every table's protocol; refused unless all are confirmed."""
    if not is_referee(user, series.tournament):
        raise PermissionDenied(_("Only a referee may close a series."))
    series = Series.objects.select_for_update().get(pk=series.pk)
    if series.status not in OPEN_SERIES:
        raise ValidationError(_("Only a drawn series that is not closed can be closed."), code="status")
    protocols = get_or_create_protocols(series)
    problems = [
        ValidationError(
            _("Table %(table)s: %(status)s."),
            code="open_table",
            params={"table": p.table, "status": p.get_status_display()},
        )
        for p in protocols
        if p.status != Protocol.Status.CONFIRMED
    ]
    if problems or not protocols:
        raise ValidationError(problems or [_("The series has no tables.")])
    series.status = Series.Status.CLOSED
    series.save(update_fields=["status"])
    schedule_recompute(series.tournament_id)
    return series
