"""Results entry: every change of a table protocol goes through here.

Words used below:

- **protokół** (protocol): one table in one series, a row per deal
  (**rozdanie**), see ``league.results.models``.
- **wersja** (version): the protocol's optimistic lock. A writer passes the
  version it saw; if someone else wrote in between, it gets
  :class:`StaleProtocol` and must look at the other change first.
- **zamknięcie serii** (closing a series): the referee (sędzia) accepts all
  protocols of a series; corrections after it need a referee and a reason.

The services (each ``<entity>_<verb>``, keyword-only): :func:`protocol_row_save`,
:func:`protocol_row_delete`, :func:`protocol_totals_set`, :func:`protocol_complete`,
:func:`protocol_confirm`, :func:`protocol_reopen`,
:func:`series_close` and
:func:`series_reopen`; for the table's PIN
:func:`protocol_pin_try_take` and :func:`protocol_pin_try_return` (the table's count of
wrong PINs), :func:`protocol_pin_unlock`, :func:`protocol_pin_renew` and
:func:`series_pins_renew`. Reads are in ``league.results.selectors``.

Who may change rows: while the series is open, the table (a table scorer,
``user=None`` with an ``author``) while its protocol is still being entered,
or a referee at any time before closing; after closing only a referee, with a
reason. The role is checked once, at the door: ``user`` is a referee of the
tournament, as the referee pages make sure (``referee_required``) before they
call; the table's phone passes no user, only its ``author`` after its PIN.
A referee's change to a complete or confirmed protocol of an open series sends
it back to "being entered" (logged, with the deal that did it): the paper must be
checked and confirmed again; the referee may also send it back without a change
(:func:`protocol_reopen`). A closed series can be reopened by a referee with a
reason (:func:`series_reopen`): the public standings drop it until it is closed again.
Only the last row can be deleted, so deal numbers always follow the paper
without renumbering.

Closing the protocol takes two people: the phone that marks it complete records its
seat and grant (``league.results.models.Protocol``), and the confirmation must come from
another seat on another grant, or from a referee; both are kept on the protocol and in its
:class:`~league.results.models.ProtocolEvent` log, as are the paper's totals, the protocol
sent back to being entered, and the referee's new PINs and unlockings. Closing and reopening
a series are logged as :class:`~league.results.models.SeriesEvent`.

Values are computed only by ``scoring``; every change re-scores the whole
protocol once (a row's value may depend on the rows before it) and stores each row's
values and marks, which the pages then read without scoring again. Bad input raises
:class:`~django.core.exceptions.ValidationError` and changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import OperationalError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.games import game_of
from league.history import REASON_MAX_LENGTH
from league.models import Series
from league.results.models import (
    DealRow,
    DealRowVersion,
    Protocol,
    ProtocolEvent,
    SeriesEvent,
    new_pin,
    new_table_token,
)
from league.results.selectors import protocol_score, protocol_sheet, series_closed_at, totals_difference
from league.standings.refresh import standings_touch
from scoring import SEATS, ProtocolResult
from scoring.preferans import TableScore

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


def atomic_write(write: Callable[..., T]) -> Callable[..., T]:
    """Run ``write`` in a transaction, retrying while SQLite reports its table locked.

    A shared-cache SQLite database (the in-memory test database) answers a
    concurrent writer with "table is locked" at once instead of honouring the
    busy timeout; the lock is taken by the first statement, so nothing has been
    done yet and the whole write can be tried again. PostgreSQL waits on the
    row lock and never gets here.
    """
    atomic = transaction.atomic(write)

    @wraps(write)
    def wrapped(*args: Any, **kwargs: Any) -> T:
        deadline = time.monotonic() + LOCKED_RETRY_SECONDS
        while True:
            try:
                return atomic(*args, **kwargs)
            except OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    return wrapped


def protocol_claim(protocol: Protocol, expected_version: int) -> Protocol:
    """Take the protocol for writing and return it fresh, or raise StaleProtocol.

    The version is bumped by a conditional UPDATE as the first statement, so the
    write lock is taken at once: a second writer waits (PostgreSQL row lock,
    SQLite busy timeout) instead of deadlocking, then finds the version moved on.
    The fresh copy keeps the caller's tournament: its rules do not change mid-request.
    """
    claimed = Protocol.objects.filter(pk=protocol.pk, version=expected_version).update(
        version=F("version") + 1, updated=timezone.now()
    )
    fresh = Protocol.objects.select_for_update().select_related("series").get(pk=protocol.pk)
    if not claimed:
        raise StaleProtocol(fresh.version)
    fresh.series.tournament = protocol.series.tournament
    return fresh


def reason_check_length(reason: str) -> None:
    """Refuse a reason longer than the forms allow (a request made without them)."""
    if len(reason) > REASON_MAX_LENGTH:
        raise ValidationError(
            ngettext(
                "Shorten the reason to at most %(limit)d character.",
                "Shorten the reason to at most %(limit)d characters.",
                REASON_MAX_LENGTH,
            )
            % {"limit": REASON_MAX_LENGTH},
            code="reason",
        )


def protocol_check_may_change(protocol: Protocol, user: AbstractBaseUser | None, *, reason: str | None = None) -> None:
    """Refuse what the series' and protocol's state do not allow this writer (a referee ``user``, or the table).

    ``reason`` is None for changes other than rows; a row's change needs one once the series is closed,
    and on a confirmed protocol (the change undoes the confirmation).
    """
    if reason is not None:
        reason_check_length(reason)
    series = protocol.series
    referee = user is not None
    if series.status == Series.Status.CLOSED:
        if not referee:
            raise PermissionDenied(_("The series is closed: only a referee may correct it."))
        if reason is not None and not reason.strip():
            raise ValidationError(_("Give the reason for a correction after the series was closed."), code="reason")
    elif series.status not in OPEN_SERIES:
        raise ValidationError(_("The tables of this series have not been drawn yet."), code="not_drawn")
    elif not referee and protocol.status != Protocol.Status.OPEN:
        raise PermissionDenied(_("Only a referee may change a protocol once it is complete."))
    elif protocol.status == Protocol.Status.CONFIRMED and reason is not None and not reason.strip():
        # a row changed on a confirmed protocol undoes the confirmation (protocol_after_change): never silently
        raise ValidationError(
            _("The protocol is confirmed: give the reason for the change, as saving it undoes the confirmation."),
            code="reason",
        )


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
    seat: str,
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
        seat=seat,
        reason=reason,
    )


VALUE_FIELDS = {seat: f"value_{seat.lower()}" for seat in SEATS}


def deal_rows_write(
    protocol: Protocol, rows: list[DealRow], deals: list[dict[str, Any]], result: ProtocolResult | TableScore
) -> None:
    """Store the new rows and every row whose deal, values or marks differ from the new scoring.

    ``rows`` are the stored rows in order; a changed deal can move the marks
    (and so the values) of the deals after it; a game's row can move the small points of
    every entry after it. A seat nobody sits at (D at a Preferans table of three) stores 0.
    """
    now = timezone.now()
    changed = []
    for number, (deal, line) in enumerate(zip(deals, result.rows, strict=True), start=1):
        values = {seat: line.values.get(seat, 0) for seat in SEATS}
        if number > len(rows):
            break
        row = rows[number - 1]
        if row.deal != deal or row.values != values or row.doubled != line.doubled:
            row.deal, row.doubled, row.updated = deal, line.doubled, now
            for seat in SEATS:
                setattr(row, VALUE_FIELDS[seat], values[seat])
            changed.append(row)
    if changed:
        DealRow.objects.bulk_update(changed, ["deal", "doubled", "updated", *VALUE_FIELDS.values()])
    if new := deal_rows_new(protocol, deals, result, first=len(rows) + 1):
        DealRow.objects.bulk_create(new)


def deal_rows_new(
    protocol: Protocol, deals: list[dict[str, Any]], result: ProtocolResult | TableScore, *, first: int = 1
) -> list[DealRow]:
    """The unsaved rows of ``deals`` from number ``first`` on, with the values ``result`` gives them
    (the importer saves a whole tournament's at once). A seat nobody sits at stores 0."""
    return [
        DealRow(
            protocol=protocol,
            number=number,
            deal=deals[number - 1],
            doubled=line.doubled,
            **{VALUE_FIELDS[seat]: line.values.get(seat, 0) for seat in SEATS},
        )
        for number, line in enumerate(result.rows, start=1)
        if number >= first
    ]


# Who marked a protocol complete and who confirmed it: forgotten when a change reopens it.
COMPLETION_FIELDS = ["completed_by_seat", "completed_by_grant"]
CONFIRMATION_FIELDS = ["confirmed_by_seat", "confirmed_by_grant", "confirmed_by_user", "confirmed_at"]


def _send_back(protocol: Protocol, *, user: AbstractBaseUser | None, details: dict[str, Any] | None) -> None:
    """The protocol is being entered again: who completed and confirmed it is forgotten, the log keeps it."""
    protocol.status = Protocol.Status.OPEN
    protocol.completed_by_seat = protocol.completed_by_grant = ""
    protocol.confirmed_by_seat = protocol.confirmed_by_grant = ""
    protocol.confirmed_by_user, protocol.confirmed_at = None, None
    protocol.save(update_fields=["status", *COMPLETION_FIELDS, *CONFIRMATION_FIELDS])
    ProtocolEvent.objects.create(protocol=protocol, action=ProtocolEvent.Action.REOPENED, user=user, details=details)


def protocol_after_change(
    protocol: Protocol, *, user: AbstractBaseUser | None, details: dict[str, Any] | None = None
) -> Protocol:
    """A change to an accepted protocol of an open series sends it back to being entered.

    ``details`` say what changed (``{"deal": 3}``), for the log.
    """
    if protocol.series.status != Series.Status.CLOSED and protocol.status != Protocol.Status.OPEN:
        _send_back(protocol, user=user, details=details)
    # Public standings count closed series only: a deal of an open series cannot
    # change them, a correction after closing can.
    if protocol.series.status == Series.Status.CLOSED:
        standings_touch(tournament_id=protocol.series.tournament_id)
    return protocol


@atomic_write
def protocol_row_save(
    *,
    protocol: Protocol,
    number: int,
    deal: dict[str, Any],
    expected_version: int,
    user: AbstractBaseUser | None = None,
    author: str = "",
    seat: str = "",
    reason: str = "",
) -> Protocol:
    """Add deal ``number`` (the next one) or change an existing one; returns the protocol at its new version.

    ``author`` and ``seat`` name the table's phone that typed it, when no ``user`` did.
    """
    protocol = protocol_claim(protocol, expected_version)
    protocol_check_may_change(protocol, user, reason=reason)
    rows = list(protocol.rows.order_by("number"))
    tournament = protocol.series.tournament
    limit = game_of(tournament).row_limit(tournament)
    # the game's own rules of writing a row (raises ValidationError or PermissionDenied)
    game_of(tournament).row_check(protocol=protocol, number=number, deal=deal, rows=rows, by_table=user is None)
    if not 1 <= number <= min(len(rows) + 1, limit):
        raise ValidationError(
            _("Deal %(number)s cannot be entered: the next deal is %(next)s of %(limit)s."),
            code="number",
            params={"number": number, "next": len(rows) + 1, "limit": limit},
        )
    deals = [row.deal for row in rows]
    old = rows[number - 1] if number <= len(rows) else None
    if old:
        deals[number - 1] = deal
    else:
        deals.append(deal)
    result = protocol_score(protocol=protocol, deals=deals)
    _record(  # before the rows are written: it keeps the old row as it was
        protocol,
        number=number,
        action=DealRowVersion.Action.CHANGE if old else DealRowVersion.Action.ADD,
        old=old,
        new_deal=deal,
        new_values=result.rows[number - 1].values,
        user=user,
        author=author,
        seat=seat,
        reason=reason,
    )
    deal_rows_write(protocol, rows, deals, result)
    series = protocol.series
    if not series.results_entered or series.status == Series.Status.DRAWN:
        # The first saved row makes the draw final (no redraw) and shows the series is being played.
        series.results_entered = True
        if series.status == Series.Status.DRAWN:
            series.status = Series.Status.IN_PLAY
        series.save(update_fields=["results_entered", "status"])
    return protocol_after_change(protocol, user=user, details={"deal": number})


@atomic_write
def protocol_row_delete(
    *,
    protocol: Protocol,
    number: int,
    expected_version: int,
    user: AbstractBaseUser | None = None,
    author: str = "",
    seat: str = "",
    reason: str = "",
) -> Protocol:
    """Delete the last row (only the last one: numbers follow the paper)."""
    protocol = protocol_claim(protocol, expected_version)
    protocol_check_may_change(protocol, user, reason=reason)
    rows = list(protocol.rows.order_by("number"))
    if not rows or rows[-1].number != number:
        raise ValidationError(_("Only the last deal of a protocol can be deleted."), code="not_last")
    last = rows.pop()
    _record(
        protocol,
        number=number,
        action=DealRowVersion.Action.DELETE,
        old=last,
        new_deal=None,
        new_values=None,
        user=user,
        author=author,
        seat=seat,
        reason=reason,
    )
    last.delete()
    deals = [row.deal for row in rows]
    deal_rows_write(protocol, rows, deals, protocol_score(protocol=protocol, deals=deals))
    return protocol_after_change(protocol, user=user, details={"deal": number})


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


@atomic_write
def protocol_totals_set(
    *,
    protocol: Protocol,
    totals: dict[str, Any],
    expected_version: int,
    user: AbstractBaseUser | None = None,
    seat: str = "",
    grant: str = "",
) -> Protocol:
    """Record the four totals from the paper's last line (``seat`` and ``grant``: the table's phone that typed them).

    In a closed series the referee records the paper's corrected totals; the protocol stays confirmed.
    """
    protocol = protocol_claim(protocol, expected_version)
    protocol_check_may_change(protocol, user)
    protocol.declared_totals = _read_totals(totals)
    protocol.save(update_fields=["declared_totals"])
    ProtocolEvent.objects.create(
        protocol=protocol,
        action=ProtocolEvent.Action.TOTALS,
        seat=seat,
        grant=grant,
        user=user,
        details=protocol.declared_totals,
    )
    return protocol_after_change(protocol, user=user, details={"totals": protocol.declared_totals})


@atomic_write
def protocol_complete(
    *,
    protocol: Protocol,
    expected_version: int,
    ended_early: bool = False,
    user: AbstractBaseUser | None = None,
    seat: str = "",
    grant: str = "",
) -> Protocol:
    """The table has finished (or was stopped by the time limit) and the paper agrees with the rows.

    ``seat`` and ``grant`` are the table scorer's seat and grant; neither may also
    confirm the protocol. A referee leaves them blank.
    """
    protocol = protocol_claim(protocol, expected_version)
    protocol_check_may_change(protocol, user)
    if protocol.series.status == Series.Status.CLOSED:
        raise ValidationError(_("The series is closed: its protocols are accepted already."), code="closed")
    if seat and seat not in SEATS:
        raise ValidationError(
            _("Unknown seat %(seat)s; the seats are A, B, C and D."), code="seat", params={"seat": seat}
        )
    sheet = protocol_sheet(protocol=protocol)
    # over as the game says, with the "stopped" flag this completion saves anew
    game_of(protocol.series.tournament).completion_check(
        protocol=protocol, entries=[row.deal for row in sheet], ended_early=ended_early
    )
    if protocol.declared_totals is None:
        raise ValidationError(_("Enter the totals written on the paper first."), code="no_totals")
    if difference := totals_difference(protocol=protocol, sheet=sheet):
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
    protocol.completed_by_seat, protocol.completed_by_grant = seat, grant
    protocol.save(update_fields=["status", "ended_early", *COMPLETION_FIELDS])
    ProtocolEvent.objects.create(
        protocol=protocol, action=ProtocolEvent.Action.COMPLETED, seat=seat, grant=grant, user=user
    )
    return protocol


@atomic_write
def protocol_confirm(
    *, protocol: Protocol, seat: str, expected_version: int, grant: str = "", user: AbstractBaseUser | None = None
) -> Protocol:
    """A second player of the table (at ``seat``) confirms the complete protocol, as the signature on paper.

    From the table's phone ``grant`` is the phone's grant, which must not be the one that
    marked the protocol complete: one phone cannot sign for two players. A referee typing
    it from the paper passes ``user`` instead. Refused from the seat that marked the
    protocol complete, and once the series is closed.
    """
    protocol = protocol_claim(protocol, expected_version)
    if protocol.series.status == Series.Status.CLOSED:
        raise ValidationError(_("The series is closed: its protocols can no longer be confirmed."), code="closed")
    if seat not in SEATS:
        raise ValidationError(_("Choose the seat of the player who confirms."), code="seat")
    if protocol.status != Protocol.Status.COMPLETE:
        raise ValidationError(_("Only a complete protocol can be confirmed."), code="not_complete")
    if grant and grant == protocol.completed_by_grant:
        raise ValidationError(
            _(
                "This phone marked the protocol complete. Another player of the table confirms it "
                "on their own phone, after entering the PIN with their seat."
            ),
            code="same_grant",
        )
    if seat == protocol.completed_by_seat:
        raise ValidationError(
            _("Seat %(seat)s marked the protocol complete; a player at another seat confirms it."),
            code="same_seat",
            params={"seat": seat},
        )
    protocol.status = Protocol.Status.CONFIRMED
    protocol.confirmed_by_seat, protocol.confirmed_by_grant, protocol.confirmed_by_user = seat, grant, user
    protocol.confirmed_at = timezone.now()
    protocol.save(update_fields=["status", *CONFIRMATION_FIELDS])
    ProtocolEvent.objects.create(
        protocol=protocol, action=ProtocolEvent.Action.CONFIRMED, seat=seat, grant=grant, user=user
    )
    return protocol


@atomic_write
def protocol_reopen(*, protocol: Protocol, expected_version: int, user: AbstractBaseUser) -> Protocol:
    """The referee sends a complete or confirmed protocol of an open series back to being entered
    (undoing "complete"): it must be marked complete and confirmed again."""
    protocol = protocol_claim(protocol, expected_version)
    if protocol.series.status == Series.Status.CLOSED:
        raise ValidationError(_("The series is closed: reopen the series first, then the protocol."), code="closed")
    if protocol.status == Protocol.Status.OPEN:
        raise ValidationError(_("The protocol is being entered already."), code="open")
    _send_back(protocol, user=user, details=None)
    return protocol


# --- the table's PIN ------------------------------------------------------------------


def _door_counter(by_token: bool) -> tuple[str, int]:
    """The protocol's count of wrong PINs at one door, and the count that closes that door."""
    return ("wrong_pins", Protocol.PIN_LOCK_TRIES) if by_token else ("hand_wrong_pins", Protocol.HAND_LOCK_TRIES)


@atomic_write
def protocol_pin_try_take(*, protocol: Protocol, by_token: bool) -> bool:
    """Count one PIN try against the table's cap before the PIN is compared; False once that door is closed.

    ``by_token``: typed at the token door (the link with the table's token), else at the short
    address; each has its own count (see :class:`~league.results.models.Protocol`). The count goes
    up in one conditional UPDATE, so however many tries arrive at once, no more than the cap are
    compared until the referee acts.
    """
    counter, cap = _door_counter(by_token)
    taken = Protocol.objects.filter(pk=protocol.pk, **{f"{counter}__lt": cap}).update(**{counter: F(counter) + 1})
    return bool(taken)


@atomic_write
def protocol_pin_try_return(*, protocol: Protocol, by_token: bool) -> None:
    """Give back the try of a right PIN: only wrong PINs count against the table."""
    counter, _cap = _door_counter(by_token)
    Protocol.objects.filter(pk=protocol.pk, **{f"{counter}__gt": 0}).update(**{counter: F(counter) - 1})


def _check_pins_in_use(series: Series) -> None:
    """Refuse PIN changes for a closed series: no PIN opens its tables any more."""
    if series.status == Series.Status.CLOSED:
        raise ValidationError(_("The series is closed: its tables no longer open by PIN."), code="closed")


def _next_pin_generation(protocols: list[Protocol]) -> None:
    """Start a new PIN generation for each protocol: the counts of wrong PINs kept per phone and per
    address under the old one stop counting (``league.results.table.pin``). The number goes up in the
    database, not from the objects, which another request may have read before an earlier unlock."""
    by_pk = {protocol.pk: protocol for protocol in protocols}
    Protocol.objects.filter(pk__in=by_pk).update(pin_generation=F("pin_generation") + 1)
    for pk, generation in Protocol.objects.filter(pk__in=by_pk).values_list("pk", "pin_generation"):
        by_pk[pk].pin_generation = generation


@atomic_write
def protocol_pin_unlock(*, protocol: Protocol, user: AbstractBaseUser) -> Protocol:
    """The referee lets the table try its PIN again: the count of wrong PINs starts from zero,
    for the table and for every phone and address that tried it."""
    _check_pins_in_use(protocol.series)
    Protocol.objects.filter(pk=protocol.pk).update(wrong_pins=0, hand_wrong_pins=0)
    _next_pin_generation([protocol])
    ProtocolEvent.objects.create(protocol=protocol, action=ProtocolEvent.Action.UNLOCKED, user=user)
    protocol.wrong_pins = protocol.hand_wrong_pins = 0
    return protocol


def _renewed(protocols: list[Protocol], user: AbstractBaseUser) -> list[Protocol]:
    """Give each protocol a PIN other than its old one (ending the grants made with it) and a new
    token (the links handed out before lead to the short address's door only), and unlock it."""
    for protocol in protocols:
        protocol.pin = next(pin for pin in iter(new_pin, None) if pin != protocol.pin)
        protocol.table_token = new_table_token()
        protocol.wrong_pins = protocol.hand_wrong_pins = 0
    Protocol.objects.bulk_update(protocols, ["pin", "table_token", "wrong_pins", "hand_wrong_pins"])
    _next_pin_generation(protocols)
    ProtocolEvent.objects.bulk_create(
        ProtocolEvent(protocol=protocol, action=ProtocolEvent.Action.PIN_RENEWED, user=user) for protocol in protocols
    )
    return protocols


@atomic_write
def protocol_pin_renew(*, protocol: Protocol, user: AbstractBaseUser) -> Protocol:
    """The referee gives the table a new PIN. A grant holds a digest of the PIN it was made
    with, so every phone let in before must enter the new one; the PIN page is unlocked."""
    _check_pins_in_use(protocol.series)
    return _renewed([protocol], user)[0]


@atomic_write
def series_pins_renew(*, series: Series, user: AbstractBaseUser) -> list[Protocol]:
    """A new PIN for every table of the series (see :func:`protocol_pin_renew`); the protocols in table order."""
    _check_pins_in_use(series)
    return _renewed(list(series.protocols.select_for_update().order_by("table")), user)


@atomic_write
def series_close(*, series: Series, user: AbstractBaseUser | None = None) -> Series:
    """Accept every table's protocol; refused unless all are confirmed.

    Only a referee closes a series (the caller checked the role, as the referee pages do);
    ``user`` is logged as who closed it (None: the demo and imports).
    """
    series = Series.objects.select_for_update().get(pk=series.pk)
    if series.status not in OPEN_SERIES:
        raise ValidationError(_("Only a drawn series that is not closed can be closed."), code="status")
    protocols = list(series.protocols.order_by("table"))
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
    series.status = Series.Status.CLOSED  # which stops its clock (selectors.series_closed_at)
    series.save(update_fields=["status"])
    SeriesEvent.objects.create(series=series, action=SeriesEvent.Action.CLOSED, user=user)
    standings_touch(tournament_id=series.tournament_id)
    return series


@atomic_write
def series_reopen(*, series: Series, user: AbstractBaseUser, reason: str) -> Series:
    """Take a closed series back to being played, for corrections the table must confirm again.

    A referee or organiser does it, with a reason (both logged). Its clock, stopped at the close,
    runs on from the time it showed then (a pause in progress at the close goes on). The public standings
    count closed series only, so they drop this one until it is closed again; its
    protocols keep their state, and the table's PINs open them again.
    """
    series = Series.objects.select_for_update().get(pk=series.pk)
    if series.status != Series.Status.CLOSED:
        raise ValidationError(_("Only a closed series can be reopened."), code="status")
    if not reason.strip():
        raise ValidationError(_("Give the reason for reopening the series."), code="reason")
    reason_check_length(reason)
    closed_at = series_closed_at(series)
    if closed_at and series.clock_started_at and not series.clock_paused_at:
        # the clock runs on from the time it showed at the close: the time closed counts as a pause
        series.clock_paused_total += timezone.now() - closed_at
    series.status = Series.Status.IN_PLAY
    series.save(update_fields=["status", "clock_paused_total"])
    SeriesEvent.objects.create(series=series, action=SeriesEvent.Action.REOPENED, user=user, reason=reason.strip())
    standings_touch(tournament_id=series.tournament_id)
    return series
