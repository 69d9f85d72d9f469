"""The games the league plays, each behind one interface (:class:`league.games.base.GameRules`).

``settings.BASKA_GAMES`` names each game's rules object by its dotted path; :func:`game_rules`
finds a tournament's by its ``game`` key. The rooms ask ``tournament.game_rules()`` and never
branch on the game themselves (docs/games.md).
"""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.utils.module_loading import import_string

from league.games.base import GameRules


@cache
def registered_games() -> dict[str, GameRules]:
    """Every game of ``settings.BASKA_GAMES`` by its key, in the settings' order.

    Read on first use, when the apps are ready: a game's pages import the rooms' views,
    which import the models, which ask this module for a tournament's game.
    """
    games = (import_string(path) for path in settings.BASKA_GAMES)
    return {game.key: game for game in games}


def game_rules(key: str) -> GameRules:
    """The game of ``key`` (a ``Tournament.game`` value); KeyError for a game not installed."""
    return registered_games()[key]
