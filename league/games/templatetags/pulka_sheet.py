"""The pulka includes' reading of a PulkaView (``games/preferans/_sheet.html``, ``_pulka_settlement.html``)."""

from collections.abc import Mapping

from django import template

from league.games.preferans.describe import (
    SettlementLayout,
    SheetLayout,
    pulka_settlement_layout,
    pulka_sheet_layout,
)
from league.games.preferans.pulka import PulkaView

register = template.Library()


@register.simple_tag
def pulka_sheet(pulka: PulkaView, names: Mapping[str, str]) -> SheetLayout:
    return pulka_sheet_layout(pulka, names)


@register.simple_tag
def pulka_settlement(pulka: PulkaView, names: Mapping[str, str]) -> SettlementLayout | None:
    return pulka_settlement_layout(pulka, names)
