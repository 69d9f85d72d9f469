"""What a page asks a tournament's game (league.games.game_of), as filters: the models know a
tournament's game only by its key.

    {% load games %}
    {{ tournament|game:"words.small_points" }}   {# "Małe punkty" / "Rozliczone wisty" #}
    {% include tournament|game:"templates.public_table" %}
    {{ tournament|rules_name }}                  {# "Puck", "Preferans, Sochi (z pomocą), pulka do 20" #}
    {{ tournament|game_setting:"pulka_total" }}  {# 20; empty where the game has no such setting #}
"""

from __future__ import annotations

from typing import Any

from django import template

from league.games import game_of
from league.models import Tournament

register = template.Library()


@register.filter
def game(tournament: Tournament, path: str) -> Any:
    """The tournament's game's ``path``, a dotted name of :class:`league.games.base.GameRules`
    ("words.progress", "templates.hall_median", "rules_named")."""
    value: Any = game_of(tournament)
    for name in path.split("."):
        value = getattr(value, name)
    return value


@register.filter
def game_setting(tournament: Tournament, name: str) -> Any:
    """The tournament's setting ``name`` of its game (league.games.game_settings); None where its game has none."""
    return getattr(game_of(tournament).settings(tournament), name, None)


@register.filter
def rules_name(tournament: Tournament) -> str:
    """The name of the rules played, as pages show it."""
    return game_of(tournament).rules_name(tournament)
