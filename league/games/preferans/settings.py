"""Preferans' settings of a tournament: the pulka's house rules (wariant) and the total each player
plays to in a series (pulka: the sheet each table fills up to the agreed total)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

import scoring
from league.exchange.format import INVALID_INPUT
from league.games.game_settings import GameSettings, bounded
from league.models import DEALS_PER_SERIES, Between
from scoring import preferans
from scoring.fields import join, read_int, read_object, read_str

if TYPE_CHECKING:
    from league.models import Tournament

# A tournament pulka is played to 10–50 in an evening's series; 200 leaves room for a long one.
PULKA_TOTAL = Between(2, 200)
_PULKA_FIELDS = ("variant", "total", "table_size")


class PulkaVariant(models.TextChoices):
    """The house rules of the pulka (``scoring/preferans/variants``)."""

    SOCHI = "sochi", _("Sochi (with help)")
    LENINGRAD = "leningrad", _("Leningrad")


@dataclass(frozen=True)
class PreferansSettings(GameSettings):
    """``file_ruleset`` and ``file_deals_per_series``: the exchange format asks every file for a Baśka
    ruleset and deals per series, which a Preferans tournament does not read; it writes back those
    its file gave (one made on the screens: the general preset and 40), so its file stays as it was."""

    pulka_variant: str = PulkaVariant.SOCHI.value
    pulka_total: int = 20
    file_ruleset: str = "psb"
    file_deals_per_series: int = 40

    rules_fields: ClassVar[tuple[str, ...]] = ("pulka_variant", "pulka_total")
    exchange_keys: ClassVar[Mapping[str, str]] = {
        "pulka_variant": "pulka.variant",
        "pulka_total": "pulka.total",
        "file_ruleset": "ruleset",
        "file_deals_per_series": "deals_per_series",
    }

    @classmethod
    def form_fields(cls) -> dict[str, forms.Field]:
        return {
            "pulka_variant": forms.ChoiceField(
                label=capfirst(_("pulka rules")), choices=PulkaVariant.choices, initial=PulkaVariant.SOCHI
            ),
            "pulka_total": bounded(
                forms.IntegerField(
                    label=capfirst(_("pulka size")),
                    initial=20,
                    help_text=_("Preferans: the pulka total each player plays to in a series."),
                ),
                PULKA_TOTAL,
            ),
        }

    def check(self) -> None:
        super().check()
        try:
            DEALS_PER_SERIES(self.file_deals_per_series)
        except ValidationError as error:
            raise ValidationError({"file_deals_per_series": error}) from error

    def variant(self) -> preferans.Variant:
        """The pulka's house rules."""
        return preferans.load_variant(self.pulka_variant)

    @property
    def variant_label(self) -> str:
        return str(PulkaVariant(self.pulka_variant).label)

    def exchange(self) -> dict[str, Any]:
        return {"ruleset": self.file_ruleset, "deals_per_series": self.file_deals_per_series}

    @classmethod
    def from_exchange(cls, data: Mapping[str, Any], path: str) -> Self:
        """The pulka's variant and the total each player plays to (the players at a table, which the
        file's ``pulka`` holds too, are every game's: ``pulka_table_size``)."""
        pulka_path = join(path, "pulka")
        pulka = read_object(
            data.get("pulka"), pulka_path, INVALID_INPUT, allowed=_PULKA_FIELDS, required=("variant", "total")
        )
        return cls(
            pulka_variant=read_str(
                pulka["variant"], join(pulka_path, "variant"), INVALID_INPUT, choices=preferans.VARIANTS
            ),
            pulka_total=read_int(pulka["total"], join(pulka_path, "total"), INVALID_INPUT, minimum=1),
            file_ruleset=read_str(data["ruleset"], join(path, "ruleset"), INVALID_INPUT, choices=scoring.PRESETS),
            file_deals_per_series=read_int(
                data["deals_per_series"], join(path, "deals_per_series"), INVALID_INPUT, minimum=1
            ),
        )


def preferans_settings(tournament: Tournament) -> PreferansSettings:
    """The Preferans settings of ``tournament``."""
    return PreferansSettings.from_stored(tournament.game_settings)


def pulka_table_size(data: Mapping[str, Any], path: str) -> int:
    """The players at a table as a Preferans file's ``pulka`` gives them (4 when it does not say)."""
    return read_int(
        data["pulka"].get("table_size", 4),
        join(join(path, "pulka"), "table_size"),
        INVALID_INPUT,
        minimum=min(preferans.TABLE_SIZES),
        maximum=max(preferans.TABLE_SIZES),
    )
