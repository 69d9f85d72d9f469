"""Offline table scoring: deals sent with an idempotency key, their conflicts, the phones' reports.

Words used below:

- **klucz** (idempotency key): a random id the phone makes for a deal when the scorer saves it;
  a deal is stored once per key (``league.results.submissions``).
- **konflikt** (conflict): the phone queued a deal while offline and the protocol moved on
  meanwhile: its row is there already with another deal (the referee or another phone wrote it),
  or its number is no longer the next free row. Nothing is overwritten; the phone shows both and
  the scorer may store theirs as the next deal. Only a deal the phone sent as a **zamiana**
  (replace: a correction of that row) may replace the row, if the scorer chooses it and the
  protocol is still at the version the scorer saw.
- **kontakt** (contact): a phone's report of how many deals wait on it to be sent; the control
  room shows a table with waiting deals as offline (:func:`protocol_contacts`).

Deals are stored through ``league.results.services`` (versions, history and events as for any
row); the engine is the only judge of values. The JSON views are ``league.results.table.queue_views``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.utils import timezone
from django.utils.translation import gettext as _

from league.games import game_of
from league.models import Series
from league.results import services
from league.results.models import DealRow, DealSubmission, PhoneContact, Protocol
from league.results.selectors import protocol_sheet, sheet_totals
from league.results.services import atomic_write
from league.results.submissions import (
    KeyReused,
    protocol_lock,
    stored_answer,
    submission_digest,
    submission_find,
    submission_remember,
)
from scoring import ScoringError

if TYPE_CHECKING:
    pass

KEY_MAX_LENGTH = 64
# Plain Polish, not gettext: stored in the history, it must read the same in any UI language.
REPLACE_REASON = "po konflikcie na telefonie stołu wybrano wersję z telefonu"


@dataclass(frozen=True)
class Answer:
    """What the server answers a sent deal: the HTTP status and the JSON body (the contract of issue 15)."""

    status: int
    body: dict[str, Any]

    @property
    def stored(self) -> bool:
        return self.body["status"] == "stored"


# --- the phone's JSON endpoint ---------------------------------------------------------


def closed(protocol: Protocol) -> Answer | None:
    """The refusal when the table may no longer enter deals: its series closed, or its protocol accepted."""
    if protocol.series.status == Series.Status.CLOSED:
        message = _("The series is closed: its protocols can only be corrected by the referee.")
    elif protocol.status != Protocol.Status.OPEN:
        message = _("The protocol is complete: only the referee may change it now.")
    else:
        return None
    return Answer(409, {"status": "closed", "message": message})


def _conflict(
    protocol: Protocol, number: int, deal: dict[str, Any], server: DealRow | None, message: str, *, replace: bool
) -> Answer:
    """The conflict answer: ``replace`` says whether the phone was correcting row ``number`` (only
    then may it offer to replace that row), ``next`` the number a new deal would get now."""
    return Answer(
        409,
        {
            "status": "conflict",
            "number": number,
            "replace": replace,
            "next": protocol.rows.count() + 1,
            "server": {"deal": server.deal, "values": server.values} if server else None,
            "mine": {"deal": deal},
            "version": protocol.version,
            "message": message,
        },
    )


def invalid(code: str, message: str, path: str = "") -> Answer:
    """The refusal of a deal or a request the server cannot take (422)."""
    return Answer(422, {"status": "invalid", "error": {"code": code, "message": message, "path": path}})


def _refused_deal(error: ValidationError, number: int) -> Answer:
    """The engine's (or the services') refusal; the engine's path names the sent deal as ``deal``."""
    cause = error.__cause__
    path = cause.path if isinstance(cause, ScoringError) and cause.path else ""
    prefix = f"deals[{number - 1}]"
    if path.startswith(prefix):
        path = "deal" + path[len(prefix) :]
    return invalid(error.code or "invalid", " ".join(error.messages), path)


@atomic_write
def _deal_submit(
    *,
    protocol: Protocol,
    key: str,
    number: int,
    deal: dict[str, Any],
    base_version: int | None,
    replace: bool,
    author: str,
    seat: str,
) -> Answer:
    protocol = protocol_lock(protocol)
    digest = submission_digest(number, deal)
    try:
        if seen := submission_find(protocol, key, digest):
            return Answer(200, {**seen.answer, "repeat": True})
    except KeyReused as error:
        return Answer(409, {"status": "key_reused", "message": error.messages[0]})
    if refusal := closed(protocol):
        return refusal
    count = protocol.rows.count()
    current = protocol.rows.filter(number=number).first()
    if current is not None and current.deal == deal:
        # Already there as sent (the same deal typed on another phone or by the referee): nothing to store.
        answer = stored_answer(protocol, number)
        submission_remember(protocol, key, number, digest, answer)
        return Answer(200, {**answer, "repeat": True})
    if replace:
        if current is None:
            return _conflict(
                protocol,
                number,
                deal,
                None,
                _("Deal %(number)s is no longer in the protocol: read the protocol again.") % {"number": number},
                replace=True,
            )
        if base_version != protocol.version:
            return _conflict(
                protocol,
                number,
                deal,
                current,
                _("The protocol changed again since you compared deal %(number)s: compare it once more.")
                % {"number": number},
                replace=True,
            )
    elif current is not None:
        return _conflict(
            protocol,
            number,
            deal,
            current,
            _(
                "Deal %(number)s is already in the protocol with another deal, entered meanwhile elsewhere. "
                "Nothing was overwritten: save yours as deal %(next)s, or drop it if it is the same deal."
            )
            % {"number": number, "next": count + 1},
            replace=False,
        )
    elif number != count + 1:
        return _conflict(
            protocol,
            number,
            deal,
            None,
            _(
                "The protocol changed while the phone was offline: the next deal is %(next)s, not %(number)s. "
                "Nothing was saved: read the protocol again."
            )
            % {"next": count + 1, "number": number},
            replace=False,
        )
    try:
        saved = services.protocol_row_save(
            protocol=protocol,
            number=number,
            deal=deal,
            expected_version=protocol.version,
            author=author,
            seat=seat,
            reason=REPLACE_REASON if replace else "",
        )
    except ValidationError as error:
        return _refused_deal(error, number)
    answer = stored_answer(saved, number)
    submission_remember(saved, key, number, digest, answer)
    return Answer(201, answer)


def deal_submit(
    *,
    protocol: Protocol,
    key: str,
    number: int,
    deal: dict[str, Any],
    base_version: int | None = None,
    replace: bool = False,
    author: str,
    seat: str,
) -> Answer:
    """Store deal ``number`` sent by a table's phone under ``key``, exactly once; the answer of the contract.

    201 stored (the deal's values, the protocol's totals and version); 200 the same answer with
    ``"repeat": true`` for a repeat of the key, or when the row holds this very deal already;
    409 ``key_reused``, ``conflict`` (nothing overwritten: ``server`` the row as it is, None when
    the phone must re-read the protocol; ``mine`` the deal sent), ``closed``; 422 ``invalid`` (the
    engine's error). ``replace`` stores the deal as a correction of row ``number`` if the protocol is
    still at ``base_version``, the version the scorer saw when choosing their deal over the server's.

    Repeats racing each other wait for the protocol's lock, and the second finds the first's
    answer; should two still meet at the unique key, the loser reads the winner's answer.
    """
    try:
        return _deal_submit(
            protocol=protocol,
            key=key,
            number=number,
            deal=deal,
            base_version=base_version,
            replace=replace,
            author=author,
            seat=seat,
        )
    except IntegrityError:
        seen = DealSubmission.objects.filter(protocol=protocol, key=key).first()
        if seen is None:
            raise
        if seen.digest != submission_digest(number, deal):
            return Answer(409, {"status": "key_reused", "message": KeyReused().messages[0]})
        return Answer(200, {**seen.answer, "repeat": True})


def protocol_state(*, protocol: Protocol) -> dict[str, Any]:
    """The protocol as the phone re-reads it (``stan.json``): version, status, rows, totals, deals per series."""
    sheet = protocol_sheet(protocol=protocol)
    return {
        "version": protocol.version,
        "status": protocol.status,
        "rows": [
            {"number": row.number, "deal": row.deal, "values": row.values, "doubled": row.doubled} for row in sheet
        ],
        "totals": sheet_totals(sheet),
        "deals_per_series": game_of(protocol.series.tournament).row_limit(protocol.series.tournament),
    }


# --- the phones' reports -----------------------------------------------------------------


@atomic_write
def phone_contact_report(*, protocol: Protocol, grant: str, seat: str, waiting: int, online: bool) -> PhoneContact:
    """A phone (its ``grant``) reports how many deals wait on it to be sent; the last report counts.

    Not a change of the protocol (no version, no history): a repeat only refreshes the time.
    """
    contact, _created = PhoneContact.objects.update_or_create(
        protocol=protocol,
        grant=grant,
        defaults={"seat": seat, "waiting": waiting, "online": online, "seen_at": timezone.now()},
    )
    return contact


@dataclass(frozen=True)
class Contact:
    """What a table's phones last reported: ``waiting`` deals on them (all its phones together),
    ``seen_at`` the latest report, ``online`` whether that report came with the network up."""

    waiting: int
    seen_at: datetime
    online: bool
    silent_for: timedelta = timedelta(0)  # since the latest report, once that is longer than the silence allowed

    @property
    def offline(self) -> bool:
        """Deals wait on a phone of the table, or its phones went silent: the control room shows it as offline."""
        return self.waiting > 0 or self.silent

    @property
    def silent(self) -> bool:
        return self.silent_for > timedelta(0)

    @property
    def silent_minutes(self) -> int:
        """Whole minutes of silence, at least 1, as the control room says it ("bez kontaktu od 1 min")."""
        return max(1, int(self.silent_for.total_seconds() // 60))


def heartbeat_silence() -> timedelta:
    """How long a table's phones may stay silent before the control room calls the table offline:
    3 heartbeats (``TABLE_HEARTBEAT_SECONDS``), so one or two reports lost on a busy network do not count."""
    return timedelta(seconds=3 * settings.TABLE_HEARTBEAT_SECONDS)


def protocol_contacts(*, series: Series, now: datetime) -> dict[int, Contact]:
    """The table phones' reports of ``series`` by table number at ``now``, for the referee's control room.

    Only tables whose phones reported (``POST kontakt.json``) are in it. An open phone page reports
    every ``TABLE_HEARTBEAT_SECONDS`` (its **heartbeat**). A table counts as **offline**
    (``Contact.offline``) while any of its phones reports deals waiting to be sent, or when none
    has reported for longer than :func:`heartbeat_silence` (a phone that lost the network cannot
    say so: its heartbeat goes quiet; a phone put away goes quiet too, so the hall says how long).
    ``seen_at`` says how old the news is (the waiting count is the last one sent: it drops to 0
    when the phone reports its queue empty). One query.
    """
    contacts: dict[int, Contact] = {}
    reports = PhoneContact.objects.filter(protocol__series=series).select_related("protocol").order_by("seen_at")
    for report in reports:
        table = report.protocol.table
        earlier = contacts.get(table)
        contacts[table] = Contact(
            waiting=report.waiting + (earlier.waiting if earlier else 0),
            seen_at=report.seen_at,
            online=report.online,
        )
    silence = heartbeat_silence()
    return {
        table: replace(contact, silent_for=now - contact.seen_at if now - contact.seen_at > silence else timedelta(0))
        for table, contact in contacts.items()
    }
