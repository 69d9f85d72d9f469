"""The form of one plain row: an integer for each seat of the table, checked by the game's one rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from league.games.labels import scoring_error_message
from scoring import ScoringError
from scoring.deal import MAX_WRITTEN_VALUE
from scoring.rows import RowCheck


class RowValuesForm(forms.Form):
    """A row as the paper has it: each seat's value (labelled with the seat and its player), which
    together must pass the game's ``check`` (``scoring.rows.zero_sum`` by default). Prefixed
    ``row`` so that its inputs never share an id with the paper's totals on the same page."""

    def __init__(self, *args: Any, seats: Mapping[str, str], check: RowCheck, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "row")
        super().__init__(*args, **kwargs)
        self.check = check
        for seat, label in seats.items():
            self.fields[seat] = forms.IntegerField(
                label=label, min_value=-MAX_WRITTEN_VALUE, max_value=MAX_WRITTEN_VALUE
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if not self.errors:
            try:
                self.check({seat: cleaned[seat] for seat in self.fields}, "values")
            except ScoringError as error:
                raise ValidationError(scoring_error_message(error), code=error.code) from error
        return cleaned

    def entry(self) -> dict[str, Any]:
        """The row as the protocol stores it (``scoring.rows``); call after ``is_valid()``."""
        return {"values": {seat: self.cleaned_data[seat] for seat in self.fields}}

    @staticmethod
    def initial_from(entry: Mapping[str, Any]) -> dict[str, int]:
        """A stored row as the form's initial data, for its correction."""
        return dict(entry["values"])
