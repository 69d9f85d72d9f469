"""Forms of results entry: a deal typed as shorthand, the paper's totals, a confirmation.

:func:`typed_deal` reads a posted deal the same way for the referee's page and
the table scorer's phone: a shorthand line, or the full deal form (prefix
``full``) when no line was typed.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from league.results.deal_form import DealForm
from league.results.labels import SEAT_CHOICES
from scoring import SEATS

from . import shorthand

if TYPE_CHECKING:
    from django.http import HttpRequest

    from .models import Protocol

SHORTHAND_ERRORS = {
    "empty": _("Type the deal, e.g. “ac60” (the old A and C took 60 eyes)."),
    "unknown_start": _(
        "“%(text)s”: a line starts with a contract code (z, g, zd, gd, w, ci, zb, m, ba) and the declarer, "
        "or with the two old seats of an ordinary game."
    ),
    "unexpected": _("Cannot read “%(text)s” (from character %(position)s)."),
    "value_count": _(
        "“%(text)s”: a line of values needs four numbers, for A, B, C and D (got %(count)s), e.g. “=2,-2,2,-2”."
    ),
}


def shorthand_deal_error() -> ValidationError:
    return ValidationError(SHORTHAND_ERRORS["empty"], code="empty")


def shorthand_deal(line: str) -> dict[str, Any]:
    """The deal typed as ``line``, or a translated ValidationError."""
    try:
        return shorthand.parse(line)
    except shorthand.ShorthandError as error:
        params = {**error.params, "position": error.position + 1}
        raise ValidationError(SHORTHAND_ERRORS[error.code], code=error.code, params=params) from error


class RowForm(forms.Form):
    """One deal typed as a shorthand line; ``version`` is the protocol version the typist saw.

    ``key`` is the form's idempotency key (``league.results.offline``), new each time the form
    is rendered: a double click or a retried POST of the same form stores the deal once.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64, initial=lambda: uuid.uuid4().hex)
    line = forms.CharField(
        label=_("Deal"),
        max_length=40,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", "class": "shorthand"}),
    )

    def focus_line(self) -> RowForm:
        """Put the cursor in the line when the page opens: the referee types the next deal, or fixes the refused one."""
        self.fields["line"].widget.attrs["autofocus"] = True
        return self

    def clean_line(self) -> dict[str, Any] | None:
        """The typed deal; None when nothing was typed (the full deal form may have been used)."""
        line = self.cleaned_data["line"]
        return shorthand_deal(line) if line.strip() else None


class CorrectionForm(RowForm):
    """A change of a saved row; the reason is required once the series is closed (checked by the service)."""

    delete = forms.BooleanField(label=_("Delete this deal (only the last one)"), required=False)
    reason = forms.CharField(
        label=_("Reason for the correction"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if "line" in cleaned and cleaned["line"] is None and not cleaned.get("delete"):
            self.add_error("line", shorthand_deal_error())
        return cleaned


def typed_deal(request: HttpRequest, protocol: Protocol) -> tuple[RowForm, DealForm, dict[str, Any] | None]:
    """The deal typed as a shorthand line, or through the full deal form when no line was given.

    Returns both forms (bound as far as they were used, to show their errors)
    and the deal, which is None when either form refused the input.
    """
    row_form = RowForm(request.POST)
    full = not request.POST.get("line", "").strip() and "full-contract" in request.POST
    deal_form = DealForm(request.POST if full else None, prefix="full", ruleset=protocol.series.tournament.ruleset())
    if not row_form.is_valid():
        return row_form, deal_form, None
    if full:
        return row_form, deal_form, deal_form.cleaned_data["deal"] if deal_form.is_valid() else None
    if row_form.cleaned_data["line"] is None:
        row_form.add_error("line", shorthand_deal_error())
        return row_form, deal_form, None
    return row_form, deal_form, row_form.cleaned_data["line"]


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
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
