"""Offline table scoring: deals sent with an idempotency key, their conflicts, the phones' reports.

Words used below:

- **klucz** (idempotency key): a random id the phone makes for a deal when the scorer saves it
  (the referee's and the phone's forms get one when they are rendered). A deal is stored once
  per key: a repeat of the key with the same number and deal (a network retry, a double click,
  a lost answer) gets the first answer again and stores nothing; the key with another number or
  deal is refused (``key_reused``) and changes nothing. The table :class:`~.models.DealSubmission`
  keeps the stored keys; its unique (protocol, key) is the last guard when repeats race.
- **konflikt** (conflict): the phone queued a deal while offline and the protocol moved on
  meanwhile: its row is there already with another deal (the referee or another phone wrote it),
  or its number is no longer the next free row. Nothing is overwritten; the phone shows both and
  the scorer may keep the server's row or send theirs again as a **zamiana** (replace): a
  correction of that row, stored only if the protocol is still at the version the scorer saw.
- **kontakt** (contact): a phone's report of how many deals wait on it to be sent; the control
  room shows a table with waiting deals as offline (:func:`protocol_contacts`).

Deals are stored through ``league.results.services`` (versions, history and events as for any
row); the engine is the only judge of values. The JSON views are ``league.results.offline_views``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from league.models import Series
from scoring import ScoringError

from . import services
from .models import DealRow, DealSubmission, PhoneContact, Protocol
from .selectors import protocol_sheet, sheet_totals

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

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


class KeyReused(ValidationError):
    """The key was stored with another number or deal: the form or the phone is out of step."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "This entry was already used for another deal, so nothing was saved. "
                "Reload the protocol and enter the deal again."
            ),
            code="key_reused",
        )


def _digest(number: int, deal: dict[str, Any] | None) -> str:
    """The content a key stands for (``deal`` None: the row deleted), independent of key order."""
    content = json.dumps({"number": number, "deal": deal}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(content.encode()).hexdigest()


def _lock(protocol: Protocol) -> Protocol:
    """Take the protocol's write lock and return it fresh: repeats of one key wait here for each other.

    The first statement writes (a no-op UPDATE), so SQLite takes its write lock at once and
    PostgreSQL the row lock, as ``services._claim`` does. The fresh copy keeps the caller's
    tournament: its rules do not change mid-request.
    """
    Protocol.objects.filter(pk=protocol.pk).update(version=F("version"))
    fresh = Protocol.objects.select_related("series").get(pk=protocol.pk)
    fresh.series.tournament = protocol.series.tournament
    return fresh


def _seen(protocol: Protocol, key: str, digest: str) -> DealSubmission | None:
    """The submission stored under ``key``; KeyReused if it was for other content."""
    seen = DealSubmission.objects.filter(protocol=protocol, key=key).first()
    if seen is not None and seen.digest != digest:
        raise KeyReused
    return seen


def _stored(protocol: Protocol, number: int) -> dict[str, Any]:
    """The answer to a stored deal: its row's values, the protocol's totals and version."""
    sheet = protocol_sheet(protocol=protocol)
    row = next((row for row in sheet if row.number == number), None)
    return {
        "status": "stored",
        "number": number,
        "values": row.values if row else None,
        "totals": sheet_totals(sheet),
        "version": protocol.version,
    }


def _remember(protocol: Protocol, key: str, number: int, digest: str, answer: dict[str, Any]) -> None:
    DealSubmission.objects.create(protocol=protocol, key=key, number=number, digest=digest, answer=answer)


@dataclass(frozen=True)
class Saved:
    """A form's save: the protocol as it is now, and whether it was a repeat that stored nothing."""

    protocol: Protocol
    repeat: bool


def _row_write(common: dict[str, Any], deal: dict[str, Any] | None) -> Protocol:
    if deal is None:
        return services.protocol_row_delete(**common)
    return services.protocol_row_save(deal=deal, **common)


@services._atomic_write
def _row_write_keyed(common: dict[str, Any], deal: dict[str, Any] | None, key: str, digest: str) -> Protocol:
    saved = _row_write(common, deal)
    _remember(saved, key, common["number"], digest, _stored(saved, common["number"]))
    return saved


def submission_seen(*, protocol: Protocol, key: str) -> bool:
    """Whether a deal (or a deletion) was stored under ``key``: a form sent again answers as the first."""
    return bool(key) and DealSubmission.objects.filter(protocol=protocol, key=key).exists()


def protocol_row_save_once(
    *,
    protocol: Protocol,
    key: str,
    number: int,
    deal: dict[str, Any] | None,
    expected_version: int,
    user: AbstractBaseUser | None = None,
    author: str = "",
    seat: str = "",
    reason: str = "",
) -> Saved:
    """``services.protocol_row_save`` (``deal`` None: ``protocol_row_delete``) once per ``key``.

    For the referee's forms and the phone's form, whose key is made when the form is rendered:
    a repeat of a stored key stores nothing (the view answers as the first time); the key with
    other content raises :class:`KeyReused`. Without a key (an old page) the save is as before.

    The form's version does the locking: a repeat holds the version the first one moved on, so
    it is refused as stale (having waited for the first to commit) or meets the stored key,
    and only then is the key looked up.
    """
    common = {"protocol": protocol, "number": number, "expected_version": expected_version, "user": user}
    common |= {"author": author, "seat": seat, "reason": reason}
    if not key:
        return Saved(_row_write(common, deal), repeat=False)
    digest = _digest(number, deal)
    try:
        return Saved(_row_write_keyed(common, deal, key, digest), repeat=False)
    except (services.StaleProtocol, IntegrityError):
        if _seen(protocol, key, digest) is None:
            raise
    protocol.refresh_from_db()
    return Saved(protocol, repeat=True)


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


def _conflict(protocol: Protocol, number: int, deal: dict[str, Any], server: DealRow | None, message: str) -> Answer:
    return Answer(
        409,
        {
            "status": "conflict",
            "number": number,
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


@services._atomic_write
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
    protocol = _lock(protocol)
    digest = _digest(number, deal)
    try:
        if seen := _seen(protocol, key, digest):
            return Answer(200, {**seen.answer, "repeat": True})
    except KeyReused as error:
        return Answer(409, {"status": "key_reused", "message": error.messages[0]})
    if refusal := closed(protocol):
        return refusal
    count = protocol.rows.count()
    current = protocol.rows.filter(number=number).first()
    if current is not None and current.deal == deal:
        # Already there as sent (the same deal typed on another phone or by the referee): nothing to store.
        answer = _stored(protocol, number)
        _remember(protocol, key, number, digest, answer)
        return Answer(200, {**answer, "repeat": True})
    if replace:
        if current is None:
            return _conflict(
                protocol,
                number,
                deal,
                None,
                _("Deal %(number)s is no longer in the protocol: read the protocol again.") % {"number": number},
            )
        if base_version != protocol.version:
            return _conflict(
                protocol,
                number,
                deal,
                current,
                _("The protocol changed again since you compared deal %(number)s: compare it once more.")
                % {"number": number},
            )
    elif current is not None:
        return _conflict(
            protocol,
            number,
            deal,
            current,
            _(
                "Deal %(number)s was entered meanwhile with another deal (by the referee or another phone). "
                "Nothing was overwritten: choose which one stays."
            )
            % {"number": number},
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
    answer = _stored(saved, number)
    _remember(saved, key, number, digest, answer)
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
        if seen.digest != _digest(number, deal):
            return Answer(409, {"status": "key_reused", "message": KeyReused().messages[0]})
        return Answer(200, {**seen.answer, "repeat": True})


def protocol_state(*, protocol: Protocol) -> dict[str, Any]:
    """The protocol as the phone re-reads it (``stan.json``): version, status, rows, totals, deals per series."""
    sheet = protocol_sheet(protocol=protocol)
    return {
        "version": protocol.version,
        "status": protocol.status,
        "rows": [
            {"number": row.number, "deal": row.deal, "values": row.values, "bok_round": row.bok_round} for row in sheet
        ],
        "totals": sheet_totals(sheet),
        "deals_per_series": protocol.series.tournament.deals_per_series,
    }


# --- the phones' reports -----------------------------------------------------------------


@services._atomic_write
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

    @property
    def offline(self) -> bool:
        """Deals wait on a phone of the table: the control room shows it as offline."""
        return self.waiting > 0


def protocol_contacts(*, series: Series) -> dict[int, Contact]:
    """The table phones' reports of ``series`` by table number, for the referee's control room.

    Only tables whose phones reported (``POST kontakt.json``) are in it. A table counts as
    **offline** (``Contact.offline``) while any of its phones reports deals waiting to be sent;
    ``seen_at`` says how old that news is (a phone that lost the network cannot report, so the
    count is the last one it sent: it drops to 0 when the phone reports its queue empty). One query.
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
    return contacts
