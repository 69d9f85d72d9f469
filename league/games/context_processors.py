"""What every page's menu takes from the games: links to their own public tools."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import Promise

from league.games import registered_games


def game_tools(request: HttpRequest) -> dict[str, list[tuple[str, Promise]]]:
    """Each game's public tools (its calculator) as (URL name, label), the games in settings' order."""
    return {"game_tools": [tool for game in registered_games().values() for tool in game.tools]}
