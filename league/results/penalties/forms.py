"""Forms of referee penalties (kary sędziowskie): a new one, a change with its reason, a removal with its reason,
and :func:`penalty_block`, what the series and protocol pages need to list penalties and add one.

The big points field is there only when the tournament's rules allow penalties in big
points (``Ruleset.penalty_big_points``); the services check it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.games import game_of
from league.models import Series
from league.results.penalties.services import penalty_players, series_penalties
from players.models import Player

MINUS = "\u2212"  # the minus sign the pages print (−10), which a referee may paste back


class SignedIntegerField(forms.IntegerField):
    """Small points, signed; the printed minus sign (−10) reads as "-", an empty field as 0."""

    def to_python(self, value: Any) -> int:
        if isinstance(value, str):
            value = value.strip().replace(MINUS, "-")
        return super().to_python(value) or 0


class BigPointsField(forms.DecimalField):
    """Big points with a decimal comma (−0,5) or point; an empty field is 0."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_digits=6, decimal_places=2, required=False, **kwargs)
        self.widget.attrs.update({"step": "0.01", "inputmode": "decimal"})

    def to_python(self, value: Any) -> Decimal:
        if isinstance(value, str):
            value = value.strip().replace(MINUS, "-").replace(",", ".")
        return super().to_python(value) or Decimal(0)


class PenaltyValuesForm(forms.Form):
    """The points and the reason of a penalty."""

    small_points = SignedIntegerField(
        label=_("Small points"), required=False, initial=0, help_text=_("With the sign: −10 takes ten away.")
    )
    big_points = BigPointsField(label=_("Big points"), initial=0)
    reason = forms.CharField(
        label=_("Reason for the penalty"), max_length=500, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args: Any, big_points: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not big_points:
            del self.fields["big_points"]

    def values(self) -> dict[str, Any]:
        """What the services take: the points and the reason."""
        data = self.cleaned_data
        return {"small_points": data["small_points"], "big_points": data.get("big_points", 0), "reason": data["reason"]}


class PenaltyForm(PenaltyValuesForm):
    """A new penalty: whom (one of ``players``, see ``penalties.penalty_players``), how much and why."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int)

    prefix = "penalty"  # its reason beside the reopening's on the series page: ids of their own
    field_order = ["player", "small_points", "big_points", "reason"]

    def __init__(self, *args: Any, players: list[tuple[Player, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = {player.pk: player for player, _label in players}
        self.fields["player"].choices = [("", "—"), *((player.pk, label) for player, label in players)]

    def clean_player(self) -> Player:
        return self.players[self.cleaned_data["player"]]


class ChangeReasonForm(forms.Form):
    """Why a penalty changes or goes: kept in its version."""

    change_reason = forms.CharField(
        label=_("Reason for the change"), max_length=500, widget=forms.Textarea(attrs={"rows": 2})
    )


class PenaltyChangeForm(PenaltyValuesForm, ChangeReasonForm):
    """New points or a new reason for a penalty, and why it changes."""

    field_order = ["small_points", "big_points", "reason", "change_reason"]


class PenaltyRemoveForm(ChangeReasonForm):
    """Taking a penalty back: why."""

    prefix = "remove"  # on the page of the change form, whose reason of the change has the same name


def big_points_allowed(series: Series) -> bool:
    """The tournament's rules allow penalties in big points."""
    return game_of(series.tournament).standing_rules(series.tournament).penalty_big_points


def add_form(
    series: Series,
    table: int | None,
    data: Any = None,
    *,
    big_points: bool | None = None,
    seated: Mapping[str, Player] | None = None,
) -> PenaltyForm:
    """The form adding a penalty of a player of ``series`` (of ``table``'s players only, when
    given; ``seated``: those players by seat, if read already)."""
    allowed = big_points_allowed(series) if big_points is None else big_points
    players = penalty_players(series=series, table=table, seated=seated)
    return PenaltyForm(data, players=players, big_points=allowed)


def penalty_block(
    *, series: Series, table: int | None = None, seated: Mapping[str, Player] | None = None
) -> dict[str, Any]:
    """The context of ``results/_penalties.html``: the penalties of the series (of ``table``'s
    players on a protocol page, ``seated`` by seat if the page read them) and the form adding one."""
    lines = series_penalties(series=series, table=table)
    allowed = big_points_allowed(series)
    return {
        "penalties": lines,
        "penalty_form": add_form(series, table, big_points=allowed, seated=seated),
        "penalty_table": table,
        "penalty_big_points": allowed or any(line.big_points for line in lines),
    }
