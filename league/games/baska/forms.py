"""The deal form: one row of a table protocol, checked by ``scoring/``.

The calculator page uses it as it is; protocol entry reuses the same parsing and
validation with the tournament's ruleset. The form only gathers what the referee
typed into a deal object (docs/interfaces.md §1); whether that deal is valid and what
it is worth is decided by the scoring engine alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

import scoring
from league.games.baska import shorthand
from league.games.baska.settings import tournament_ruleset
from league.games.baska.shorthand import ENGLISH_KONTRA_LETTERS, KONTRA_LETTERS
from league.games.labels import (
    CONTRACT_LABELS,
    FIELD_LABELS,
    LEVEL_LABELS,
    OFFENCE_LABELS,
    SEAT_CHOICES,
    SIDE_LABELS,
    scoring_error_message,
)
from league.results.forms import RowChangeForm, RowStamp
from scoring import SEATS, DealResult, Ruleset, ScoringError

if TYPE_CHECKING:
    from django.http import HttpRequest

    from league.results.models import Protocol


def parse_kontras(text: str) -> list[str]:
    """``"m s m"`` or ``"msm"`` → ``["young", "old", "young"]``: the shorthand's kontra letters
    (or their English y/o), in the order given."""
    sides = []
    for typed in text.replace(",", " ").replace(" ", "").lower():
        letter = ENGLISH_KONTRA_LETTERS.get(typed, typed)
        if letter not in KONTRA_LETTERS:
            raise ValidationError(
                _("Unknown kontra letter “%(letter)s”: type m for the young (młodzi) and s for the old (starzy)."),
                code="kontra_letter",
                params={"letter": typed},
            )
        sides.append(KONTRA_LETTERS[letter])
    return sides


class DealForm(forms.Form):
    """A deal described by contract, seats, kontras and result, or by its four values."""

    contract = forms.ChoiceField(label=FIELD_LABELS["contract"], choices=list(CONTRACT_LABELS.items()))
    old = forms.MultipleChoiceField(
        label=FIELD_LABELS["old"],
        choices=SEAT_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "choice-row"}),
        help_text=_("Two seats in the ordinary game and the wedding, the declarer otherwise."),
    )
    kontras = forms.CharField(
        label=FIELD_LABELS["kontras"],
        required=False,
        max_length=12,
        help_text=_("In the order given: m = the young, s = the old, e.g. “m s”."),
    )
    old_eyes = forms.IntegerField(label=FIELD_LABELS["old_eyes"], required=False, min_value=0, max_value=104)
    tie = forms.BooleanField(
        label=FIELD_LABELS["tie"],
        required=False,
        help_text=_("The deal ended 52:52 and the eyes were not counted."),
    )
    winner = forms.ChoiceField(label=FIELD_LABELS["winner"], required=False, choices=[("", "—"), *SIDE_LABELS.items()])
    level = forms.ChoiceField(label=FIELD_LABELS["level"], required=False, choices=[("", "—"), *LEVEL_LABELS.items()])
    misplay = forms.ChoiceField(label=FIELD_LABELS["misplay"], required=False, choices=[("", "—"), *SEAT_CHOICES])
    offence = forms.ChoiceField(
        label=FIELD_LABELS["offence"],
        required=False,
        choices=[("", "—"), *OFFENCE_LABELS.items()],
        help_text=_("A note on the protocol; the deal is valued by its outcome (e.g. the misplay) alone."),
    )
    laid_down = forms.BooleanField(label=FIELD_LABELS["laid_down"], required=False)
    bok_round = forms.BooleanField(label=FIELD_LABELS["bok_round"], required=False)
    cicha_na_dobiciu = forms.BooleanField(
        label=FIELD_LABELS["cicha_na_dobiciu"],
        required=False,
        help_text=_("A cicha with the queen of diamonds last to play: some rules do not count its kontra."),
    )
    value_a = forms.IntegerField(label="A", required=False)
    value_b = forms.IntegerField(label="B", required=False)
    value_c = forms.IntegerField(label="C", required=False)
    value_d = forms.IntegerField(label="D", required=False)

    VALUE_FIELDS = {seat: f"value_{seat.lower()}" for seat in SEATS}
    FIELDS_KEPT = ("contract", "old", "old_eyes", "winner", "level", "misplay", "offence")
    MARKS = ("tie", "laid_down", "bok_round", "cicha_na_dobiciu")  # the deal's true-or-absent fields

    def __init__(self, *args: Any, ruleset: Ruleset | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        self.result: DealResult | None = None

    def description_fields(self) -> list[forms.BoundField]:
        return [field for field in self if field.name not in self.VALUE_FIELDS.values()]

    def value_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.VALUE_FIELDS.values()]

    def clean_kontras(self) -> list[str]:
        return parse_kontras(self.cleaned_data.get("kontras") or "")

    def get_ruleset(self) -> Ruleset:
        if self.ruleset is None:
            raise RuntimeError("DealForm needs a ruleset")
        return self.ruleset

    @classmethod
    def initial_from(cls, deal: dict[str, Any]) -> dict[str, Any]:
        """A stored deal as the form's initial data: the inverse of :meth:`deal_data`, every mark
        included (a cicha "na dobiciu", a bok row, the offence, the written values), so a deal
        opened to fix something else and saved unchanged is stored unchanged."""
        initial = {key: deal[key] for key in (*cls.FIELDS_KEPT, *cls.MARKS) if key in deal}
        initial["kontras"] = shorthand.kontra_letters(deal.get("kontras", []))
        for seat, value in deal.get("values", {}).items():
            initial[cls.VALUE_FIELDS[seat]] = value
        return initial

    def deal_data(self) -> dict[str, Any]:
        """The deal object of docs/interfaces.md §1 built from what was typed."""
        data = self.cleaned_data
        deal: dict[str, Any] = {"contract": data["contract"]}
        if data.get("old"):
            deal["old"] = list(data["old"])
        if data.get("kontras"):
            deal["kontras"] = data["kontras"]
        if data.get("old_eyes") is not None:
            deal["old_eyes"] = data["old_eyes"]
        for key in ("winner", "level", "misplay", "offence"):
            if data.get(key):
                deal[key] = data[key]
        for key in self.MARKS:
            if data.get(key):
                deal[key] = True
        written = {seat: data.get(name) for seat, name in self.VALUE_FIELDS.items()}
        if any(value is not None for value in written.values()):
            if any(value is None for value in written.values()):
                raise ValidationError(_("Give a whole number for each of the seats A, B, C and D."), code="values")
            deal["values"] = written
        return deal

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        deal = self.deal_data()
        try:
            self.result = scoring.score_deal(deal, self.get_ruleset())
        except ScoringError as error:
            raise ValidationError(scoring_error_message(error), code=error.code) from error
        cleaned["deal"] = deal
        return cleaned


class CalculatorForm(DealForm):
    """The deal form with a choice of ruleset, for the "Kalkulator rozdania" page; without the
    offence note, which belongs to a protocol row and changes no value."""

    ruleset_id = forms.ChoiceField(label=_("Ruleset"), choices=scoring.preset_choices, initial="puck")

    field_order = [
        "ruleset_id",
        "contract",
        "old",
        "kontras",
        "old_eyes",
        "tie",
        "winner",
        "level",
        "misplay",
        "laid_down",
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["offence"]

    def get_ruleset(self) -> Ruleset:
        return scoring.load_ruleset(self.cleaned_data["ruleset_id"])

    def clean(self) -> dict[str, Any]:
        if "ruleset_id" not in self.cleaned_data:
            return self.cleaned_data
        return super().clean()


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


def with_kept_note(typed: dict[str, Any], stored: dict[str, Any]) -> dict[str, Any]:
    """A deal retyped as a shorthand line over ``stored``: the line has no shorthand for the kind
    of offence (the deal's ``offence`` note), so a retyped misplay by the same seat keeps it."""
    if "offence" in stored and "offence" not in typed and typed.get("misplay") == stored.get("misplay"):
        return {**typed, "offence": stored["offence"]}
    return typed


def shorthand_deal(line: str) -> dict[str, Any]:
    """The deal typed as ``line``, or a translated ValidationError."""
    try:
        return shorthand.parse(line)
    except shorthand.ShorthandError as error:
        params = {**error.params, "position": error.position + 1}
        raise ValidationError(SHORTHAND_ERRORS[error.code], code=error.code, params=params) from error


class RowForm(RowStamp):
    """One deal typed as a shorthand line, with the row's stamp."""

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


class CorrectionForm(RowForm, RowChangeForm):
    """A change of a saved deal typed as a shorthand line, or the last deal's deletion."""

    field_order = ["line", "delete", "reason"]  # the deal first, as typed; the bases would put it last

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
    deal_form = DealForm(
        request.POST if full else None, prefix="full", ruleset=tournament_ruleset(protocol.series.tournament)
    )
    if not row_form.is_valid():
        return row_form, deal_form, None
    if full:
        return row_form, deal_form, deal_form.cleaned_data["deal"] if deal_form.is_valid() else None
    if row_form.cleaned_data["line"] is None:
        row_form.add_error("line", shorthand_deal_error())
        return row_form, deal_form, None
    return row_form, deal_form, row_form.cleaned_data["line"]
