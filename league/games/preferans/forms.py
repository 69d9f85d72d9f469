"""Forms of a pulka sheet's entries: a Preferans deal, and the referee's "equal for equal" penalty.

Both turn what was typed into one entry in the engine's format (docs/preferans.md): the
players are whatever ``players`` the form is given — the seats of a tournament table
("A" … "D", labelled with the names), or the names typed into the "Rozliczenie pulki"
calculator. The forms check only what a field can check alone; the engine checks the
entry against the sheet (whose deal it is, the tricks adding up, a full pulka), and its
errors come back translated by ``league.games.labels``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from league.games.labels import PULKA_CONTRACT_CHOICES
from scoring.preferans import MISERE

PENALTY_COLUMNS = [
    ("pulka", _("pulka over-written: onto the writer's mountain")),
    ("whists", _("whists over-written on a partner: he writes as many back")),
]


def _tricks(label: Any) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=10, required=False)


class PulkaDealForm(forms.Form):
    """One deal: the contract, its declarer ("rozgrywający") and tricks, and who whisted
    ("wist") with how many tricks. A contract nobody whisted counts as made without play.

    ``players`` is a list of (player, label); the whist fields are named ``whist_<player>``
    and ``tricks_<player>`` for each (a seat letter or a position in the calculator).
    """

    contract = forms.ChoiceField(label=_("Contract"), choices=PULKA_CONTRACT_CHOICES)
    declarer = forms.ChoiceField(label=_("Declarer"))
    tricks = _tricks(_("Declarer's tricks"))
    dealer = forms.ChoiceField(
        label=_("Dealer"),
        required=False,
        help_text=_("Only after a deal nobody played (all passed): who dealt this one."),
    )

    def __init__(self, *args: Any, players: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.fields["declarer"].choices = self.players
        self.fields["dealer"].choices = [("", _("the next in turn")), *self.players]
        for player, label in self.players:
            self.fields[f"whist_{player}"] = forms.BooleanField(label=label, required=False)
            self.fields[f"tricks_{player}"] = _tricks(_("tricks of %(player)s") % {"player": label})

    def whist_fields(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """(whisted, tricks) per player, for the template's table of defenders."""
        return [(self[f"whist_{player}"], self[f"tricks_{player}"]) for player, _label in self.players]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        whisters = [p for p, _label in self.players if cleaned.get(f"whist_{p}")]
        for player in whisters:
            if cleaned.get(f"tricks_{player}") is None:
                self.add_error(f"tricks_{player}", _("Give the tricks this whister took."))
        if (whisters or cleaned.get("contract") == MISERE) and cleaned.get("tricks") is None:
            self.add_error("tricks", _("Give the declarer's tricks: the deal was played."))
        return cleaned

    def entry(self) -> dict[str, Any]:
        """The deal in the engine's format; call after ``is_valid()``."""
        data = self.cleaned_data
        entry: dict[str, Any] = {"contract": data["contract"], "declarer": data["declarer"]}
        whisters = [
            {"player": p, "tricks": data[f"tricks_{p}"]} for p, _label in self.players if data.get(f"whist_{p}")
        ]
        if data.get("tricks") is not None and (whisters or data["contract"] == MISERE):
            entry["tricks"] = data["tricks"]
        if whisters:
            entry["whisters"] = whisters
        if data.get("dealer"):
            entry["dealer"] = data["dealer"]
        return entry

    @staticmethod
    def initial_from(entry: dict[str, Any]) -> dict[str, Any]:
        """The form's initial data showing a stored deal, for its correction."""
        initial: dict[str, Any] = {
            key: entry[key] for key in ("contract", "declarer", "tricks", "dealer") if key in entry
        }
        for whister in entry.get("whisters", []):
            initial[f"whist_{whister['player']}"] = True
            initial[f"tricks_{whister['player']}"] = whister["tricks"]
        return initial


class PulkaPenaltyForm(forms.Form):
    """The seed's penalty for a deliberately wrong entry ("równe za równe", equal for equal):
    over-written pulka points go onto the writer's mountain; whists over-written on a partner
    let the partner write as many back. Entered by the referee, always with a reason."""

    column = forms.ChoiceField(label=_("What was over-written"), choices=PENALTY_COLUMNS)
    player = forms.ChoiceField(label=_("Who wrote it"))
    wronged = forms.ChoiceField(label=_("Written on"), required=False)
    size = forms.IntegerField(label=_("By how much"), min_value=1, max_value=10_000)
    penalty_reason = forms.CharField(label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, players: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = list(players)
        self.fields["wronged"].choices = [("", "—"), *players]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("column") == "whists":
            wronged = cleaned.get("wronged")
            if not wronged:
                self.add_error("wronged", _("Name the player the whists were written on."))
            elif wronged == cleaned.get("player"):
                self.add_error("wronged", _("A player writes whists on another player."))
        if not (cleaned.get("penalty_reason") or "").strip():
            self.add_error("penalty_reason", ValidationError(_("A penalty needs a reason."), code="reason"))
        return cleaned

    def entry(self) -> dict[str, Any]:
        data = self.cleaned_data
        entry = {"penalty": data["column"], "player": data["player"], "size": data["size"]}
        if data["column"] == "whists":
            entry["wronged"] = data["wronged"]
        entry["reason"] = data["penalty_reason"].strip()
        return entry
