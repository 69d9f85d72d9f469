"""Forms of results entry every game shares: a row's stamp and change, the paper's totals, a
confirmation, reopening a series. What a row holds is typed through the game's own forms
(``league.games.<game>.forms``).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.games.labels import SEAT_CHOICES
from league.history import REASON_MAX_LENGTH
from scoring import SEATS

if TYPE_CHECKING:
    from league.results.models import Protocol


class RowStamp(forms.Form):
    """The hidden part of a row's form, whatever the game types into it: the row's number, the
    protocol version the typist saw (the optimistic lock) and the form's idempotency key.

    ``key`` (``league.results.submissions``) is new each time the form is rendered: a double click
    or a retried POST of the same form stores the row once.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64, initial=lambda: uuid.uuid4().hex)

    @classmethod
    def for_row(cls, protocol: Protocol, number: int, key: str | None = None) -> RowStamp:
        """The stamp of row ``number`` as ``protocol`` is now; after a refusal the same ``key`` goes
        back (nothing was stored under it), else a new one."""
        initial: dict[str, Any] = {"number": number, "version": protocol.version}
        if key:
            initial["key"] = key
        return cls(initial=initial)


class RowChangeForm(RowStamp):
    """A change of a saved row, or the last row's deletion; the reason is required once the
    series is closed (checked by the service)."""

    delete = forms.BooleanField(label=_("Delete this deal (only the last one)"), required=False)
    reason = forms.CharField(
        label=_("Reason for the correction"),
        required=False,
        max_length=REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class TotalsForm(forms.Form):
    """The totals from the paper's last line, and whether the table was stopped by the time limit."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    A = forms.IntegerField(label="A")
    B = forms.IntegerField(label="B")
    C = forms.IntegerField(label="C")
    D = forms.IntegerField(label="D")
    ended_early = forms.BooleanField(label=_("Stopped by the time limit"), required=False)

    @classmethod
    def of_table(cls, data: Any, protocol: Protocol) -> TotalsForm:
        """The form of ``protocol``'s paper: a Preferans table of three has no seat D, nor a column for it (0)."""
        data = data.copy()
        for seat in SEATS[protocol.series.tournament.table_size :]:
            data[seat] = "0"
        return cls(data)

    @classmethod
    def on_the_phone(cls, protocol: Protocol) -> TotalsForm:
        """The phone's form of the paper's totals: empty while the table is being entered (also after
        the referee sent it back: the totals typed before no longer match the rows, and offering them
        would make the cross-check one tap); what was declared once the table is complete."""
        declared = protocol.declared_totals if protocol.status != protocol.Status.OPEN else None
        return cls(initial={"version": protocol.version, **(declared or {})})


class VersionForm(forms.Form):
    """A step on the protocol as it stands: only the version the user saw (the optimistic lock)."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)


class PhoneConfirmForm(VersionForm):
    """The confirmation on a table's phone: it confirms as the seat its PIN was entered for."""


class ConfirmForm(PhoneConfirmForm):
    """The referee's confirmation from the paper: the seat of the player who signed it."""

    seat = forms.ChoiceField(label=_("Confirmed by the player at seat"), choices=SEAT_CHOICES)


class ReopenSeriesForm(forms.Form):
    """Why a closed series is reopened; kept in the log of the series and of each of its protocols."""

    reason = forms.CharField(
        label=_("Reason for reopening"),
        max_length=REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
