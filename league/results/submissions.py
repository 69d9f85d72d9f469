"""Saving a row once: the idempotency key ("klucz") of the referee's and the phone's forms.

A **klucz** (idempotency key) is a random id a form gets when it is rendered (and the phone makes
for a deal when the scorer saves it offline). A row is stored once per key: a repeat of the key
with the same number and deal (a network retry, a double click, a lost answer) gets the first
answer again and stores nothing; the key with another number or deal is refused
(:class:`KeyReused`) and changes nothing. The table :class:`~league.results.models.DealSubmission`
keeps the stored keys; its unique (protocol, key) is the last guard when repeats race.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from typing import Protocol as Shape

from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.db.models import F
from django.utils.translation import gettext as _

from league.results import services
from league.results.forms import RowStamp
from league.results.models import DealSubmission, Protocol
from league.results.selectors import protocol_sheet, sheet_totals

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


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


def submission_digest(number: int, deal: dict[str, Any] | None) -> str:
    """The content a key stands for (``deal`` None: the row deleted), independent of key order."""
    content = json.dumps({"number": number, "deal": deal}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(content.encode()).hexdigest()


def protocol_lock(protocol: Protocol) -> Protocol:
    """Take the protocol's write lock and return it fresh: repeats of one key wait here for each other.

    The first statement writes (a no-op UPDATE), so SQLite takes its write lock at once and
    PostgreSQL the row lock, as ``services.protocol_claim`` does. The fresh copy keeps the caller's
    tournament: its rules do not change mid-request.
    """
    Protocol.objects.filter(pk=protocol.pk).update(version=F("version"))
    fresh = Protocol.objects.select_related("series").get(pk=protocol.pk)
    fresh.series.tournament = protocol.series.tournament
    return fresh


def submission_find(protocol: Protocol, key: str, digest: str) -> DealSubmission | None:
    """The submission stored under ``key``; KeyReused if it was for other content."""
    seen = DealSubmission.objects.filter(protocol=protocol, key=key).first()
    if seen is not None and seen.digest != digest:
        raise KeyReused
    return seen


def stored_answer(protocol: Protocol, number: int) -> dict[str, Any]:
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


def submission_remember(protocol: Protocol, key: str, number: int, digest: str, answer: dict[str, Any]) -> None:
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


@services.atomic_write
def _row_write_keyed(common: dict[str, Any], deal: dict[str, Any] | None, key: str, digest: str) -> Protocol:
    saved = _row_write(common, deal)
    submission_remember(saved, key, common["number"], digest, stored_answer(saved, common["number"]))
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
    """``protocol_row_save`` (``deal`` None: ``protocol_row_delete``) once per ``key``.

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
    digest = submission_digest(number, deal)
    try:
        return Saved(_row_write_keyed(common, deal, key, digest), repeat=False)
    except (services.StaleProtocol, IntegrityError):
        if submission_find(protocol, key, digest) is None:
            raise
    protocol.refresh_from_db()
    return Saved(protocol, repeat=True)


class EntryForm(Shape):
    """A game's form of one row: checked by ``is_valid``, the row in the engine's format from ``entry``."""

    def is_valid(self) -> bool: ...

    def entry(self) -> dict[str, Any]: ...


def row_form_save(
    *,
    protocol: Protocol,
    form: EntryForm,
    stamp: RowStamp,
    number: int | None = None,
    reason: str = "",
    **writer: Any,
) -> bool:
    """Store what a submitted row form of a game holds, once per its stamp's key (a double click or a
    retried POST answers as the first did): the next row, or row ``number`` changed (None: the stamp's
    number). A ``RowChangeForm`` stamp may delete the row instead, with its reason; a new row on a
    confirmed protocol comes with ``reason`` (saving it undoes the confirmation).

    ``writer``: the referee's ``user``, or the table phone's ``author`` and ``seat``. False when a
    field is wrong (the form says which); raises ``ValidationError`` (the page out of date, the
    engine's refusal) or ``PermissionDenied`` (the phone once the protocol is complete). Nothing is
    stored unless it returns True.
    """
    if not stamp.is_valid():
        raise ValidationError(_("The page was out of date; look at the protocol as it is now."), code="version")
    delete = stamp.cleaned_data.get("delete", False)
    if not (delete or form.is_valid()):
        return False
    protocol_row_save_once(
        protocol=protocol,
        key=stamp.cleaned_data["key"],
        number=number or stamp.cleaned_data["number"],
        deal=None if delete else form.entry(),  # None: the row deleted
        expected_version=stamp.cleaned_data["version"],
        reason=stamp.cleaned_data.get("reason", reason),
        **writer,
    )
    return True
