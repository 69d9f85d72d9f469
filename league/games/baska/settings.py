"""Baśka's settings of a tournament: its rules (zasady: a scoring preset, or the organiser's own copy
of it) and the deals per series (rozdania w serii). Own rules made in "Własne zasady" are chosen
by a row of Baśka's own table (``TournamentOwnRuleset``), kept apart from the settings so that the
database refuses to delete rules a tournament plays by (``PROTECT``): :func:`own_ruleset_of` reads it,
:func:`own_ruleset_set` writes it, and :func:`tournament_ruleset` reads the three together."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

from django import forms
from django.db.models import BLANK_CHOICE_DASH
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

import scoring
from league.exchange.format import INVALID_INPUT
from league.games.baska.rulesets.models import OwnRuleset, TournamentOwnRuleset
from league.games.game_settings import GameSettings, bounded
from league.models import DEALS_PER_SERIES
from scoring.fields import join, read_int, read_str

if TYPE_CHECKING:
    from league.models import Tournament


@dataclass(frozen=True)
class BaskaSettings(GameSettings):
    """``ruleset_preset``: the scoring preset (or the one the own rules are based on);
    ``ruleset_data``: the organiser's own copy of it, None for the preset as it is."""

    ruleset_preset: str = ""
    ruleset_data: dict[str, Any] | None = None
    deals_per_series: int = 40

    rules_fields: ClassVar[tuple[str, ...]] = ("ruleset_preset", "ruleset_data", "deals_per_series")
    exchange_keys: ClassVar[Mapping[str, str]] = {
        "ruleset_preset": "ruleset",
        "ruleset_data": "ruleset_data",
        "deals_per_series": "deals_per_series",
    }

    @classmethod
    def form_fields(cls) -> dict[str, forms.Field]:
        return {
            "ruleset_preset": forms.ChoiceField(label=capfirst(_("rules")), choices=blank_and_presets),
            "deals_per_series": bounded(
                forms.IntegerField(label=capfirst(_("deals per series")), initial=40), DEALS_PER_SERIES
            ),
        }

    def changed(self, values: Mapping[str, Any]) -> Self:
        """A new preset drops the own copy of the old one (unless ``values`` bring a copy)."""
        if values.get("ruleset_preset", self.ruleset_preset) != self.ruleset_preset:
            values = {"ruleset_data": None, **values}
        return super().changed(values)

    def ruleset(self) -> scoring.Ruleset:
        """The organiser's own copy of the preset, else the preset (own rules: :func:`tournament_ruleset`)."""
        if self.ruleset_data:
            return scoring.parse_ruleset(self.ruleset_data)
        return scoring.load_ruleset(self.ruleset_preset)

    def preset_name(self) -> str:
        return dict(scoring.preset_choices()).get(self.ruleset_preset, self.ruleset_preset)

    def exchange(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset_preset,
            "deals_per_series": self.deals_per_series,
            **({"ruleset_data": self.ruleset_data} if self.ruleset_data else {}),
        }

    @classmethod
    def from_exchange(cls, data: Mapping[str, Any], path: str) -> Self:
        return cls(
            ruleset_preset=read_str(data["ruleset"], join(path, "ruleset"), INVALID_INPUT, choices=scoring.PRESETS),
            ruleset_data=data.get("ruleset_data"),
            deals_per_series=read_int(
                data["deals_per_series"], join(path, "deals_per_series"), INVALID_INPUT, minimum=1
            ),
        )


def blank_and_presets() -> list[tuple[str, str]]:
    """The presets after an empty choice: the form asks for rules rather than suggest one."""
    return [*BLANK_CHOICE_DASH, *scoring.preset_choices()]


def baska_settings(tournament: Tournament) -> BaskaSettings:
    """The Baśka settings of ``tournament``."""
    return BaskaSettings.from_stored(tournament.game_settings)


# The lookups that read a tournament's own rules with it (``select_related``, ``prefetch_related``), so
# that :func:`own_ruleset_of` asks the database nothing more.
OWN_RULESET_RELATED = "own_rules__ruleset"
# The tournament's end of its row (``Tournament.own_rules``), which keeps what it read on the tournament.
_TOURNAMENT_END = TournamentOwnRuleset._meta.get_field("tournament").remote_field


def own_ruleset_of(tournament: Tournament) -> OwnRuleset | None:
    """The own rules ``tournament`` plays by, None for a preset (or the organiser's copy of it); read
    once per tournament (with it, where it was read with ``OWN_RULESET_RELATED``)."""
    try:
        return tournament.own_rules.ruleset
    except TournamentOwnRuleset.DoesNotExist:
        return None


def own_ruleset_set(*, tournament: Tournament, ruleset: OwnRuleset | None) -> None:
    """Make ``tournament`` (a stored one) play by the own rules ``ruleset``, by none for None: the
    database then refuses to delete them while it does."""
    if ruleset is None:
        TournamentOwnRuleset.objects.filter(tournament=tournament).delete()
    else:
        TournamentOwnRuleset.objects.update_or_create(tournament=tournament, defaults={"ruleset": ruleset})
    own_ruleset_hold(tournament=tournament, ruleset=ruleset)


def own_ruleset_hold(*, tournament: Tournament, ruleset: OwnRuleset | None) -> None:
    """Read ``tournament`` as playing by ``ruleset`` (None: by none) whatever its row holds, writing
    nothing: what a form would save, or a tournament read from an exchange file, which replaces the
    stored one of its id and brings its rules in the file."""
    _TOURNAMENT_END.set_cached_value(tournament, TournamentOwnRuleset(ruleset=ruleset) if ruleset else None)


def tournament_ruleset(tournament: Tournament) -> scoring.Ruleset:
    """The scoring rules: the own ruleset chosen, else the organiser's own copy, else the preset."""
    own = own_ruleset_of(tournament)
    if own is not None:
        return own.ruleset()
    return baska_settings(tournament).ruleset()
