"""The games the league plays, each behind one interface (:class:`league.games.base.GameRules`).

``settings.BASKA_GAMES`` names each game's rules object by its dotted path. The rooms ask
:func:`game_of` a tournament's game and never branch on the game themselves (docs/games.md);
the models know a tournament's game only as its key, so nothing here is imported by them.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

import scoring

if TYPE_CHECKING:
    from league.games.base import GameRules
    from league.models import Tournament


@cache
def registered_games() -> dict[str, GameRules]:
    """Every game of ``settings.BASKA_GAMES`` by its key, in the settings' order (read on first use,
    when the apps are ready: a game's pages import the rooms' views)."""
    games = (import_string(path) for path in settings.BASKA_GAMES)
    return {game.key: game for game in games}


def default_game() -> str:
    """The key of the game a new tournament plays where none is chosen: the first installed."""
    return next(iter(registered_games()))


def game_rules(key: str) -> GameRules:
    """The game of ``key`` (a ``Tournament.game`` value); KeyError for a game not installed."""
    return registered_games()[key]


def game_of(tournament: Tournament) -> GameRules:
    """The game ``tournament`` plays: every room asks it instead of branching on the game."""
    return registered_games()[tournament.game]


def linked_related(tournament: str = "") -> tuple[str, ...]:
    """The lookups that read every game's own rows of a list of tournaments with it
    (``GameRules.linked_related``), for ``select_related`` and ``prefetch_related``; of the
    tournament at ``tournament`` (``"series__tournament"``) when the list is of other rows."""
    prefix = f"{tournament}__" if tournament else ""
    return tuple(prefix + lookup for game in registered_games().values() for lookup in game.linked_related)


def linked_hold_none(tournament: Tournament) -> None:
    """Read ``tournament`` as holding none of the games' own rows (``GameRules.linked_hold``), writing nothing."""
    for game in registered_games().values():
        game.linked_hold(tournament, dict.fromkeys(game.linked_fields))


def linked_clear(tournament: Tournament) -> None:
    """Drop every game's own rows of ``tournament`` (``GameRules.linked_save``)."""
    for game in registered_games().values():
        if game.linked_fields:
            game.linked_save(tournament=tournament, values=dict.fromkeys(game.linked_fields))


def rules_give_big_points(tournament: Tournament) -> bool:
    """Whether the tournament's rules give big points for the places at a table; rules that cannot
    be read are refused by their own field, so they do not count as giving none."""
    try:
        return bool(game_of(tournament).standing_rules(tournament).placement.points)
    except (scoring.ScoringError, ValueError, TypeError, KeyError):
        return True


def tournament_rules_check(tournament: Tournament) -> None:
    """Refuse (``ValidationError`` on ``uses_big_points``) a tournament ranked by big points under
    rules that give none: every list would open with a column of zeros. Every writer of a
    tournament's settings asks it (the form, the settings service, the exchange file)."""
    if tournament.uses_big_points and not rules_give_big_points(tournament):
        raise ValidationError(
            {
                "uses_big_points": ValidationError(
                    _(
                        "The rules “%(rules)s” give no big points for the places at a table: a tournament "
                        "under them ranks by small points (a PSB season then gives points for each "
                        "tournament's places). Untick “big points”, or choose other rules."
                    ),
                    code="no_big_points",
                    params={"rules": game_of(tournament).rules_name(tournament)},
                )
            }
        )
