"""The settings of a game of plain rows: how many rows (deals) a table plays in a series."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from league.exchange.format import INVALID_INPUT
from league.games.game_settings import GameSettings, bounded
from league.models import DEALS_PER_SERIES
from scoring.fields import join, read_int


@dataclass(frozen=True)
class PlainSettings(GameSettings):
    deals_per_series: int = 40

    rules_fields: ClassVar[tuple[str, ...]] = ("deals_per_series",)
    exchange_keys: ClassVar[Mapping[str, str]] = {"deals_per_series": "deals_per_series"}

    @classmethod
    def form_fields(cls) -> dict[str, forms.Field]:
        return {
            "deals_per_series": bounded(
                forms.IntegerField(label=capfirst(_("deals per series")), initial=40), DEALS_PER_SERIES
            )
        }

    def exchange(self) -> dict[str, Any]:
        return {"deals_per_series": self.deals_per_series}

    @classmethod
    def from_exchange(cls, data: Mapping[str, Any], path: str) -> Self:
        return cls(
            deals_per_series=read_int(
                data["deals_per_series"], join(path, "deals_per_series"), INVALID_INPUT, minimum=1
            )
        )
