"""Translated messages for the refusals of ``league.draw``, and how a field sits at the tables.

The draw package speaks in player and team ids and English; organisers need
names and Polish. Every ``DrawError`` code the web layer can meet is mapped
here, once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from league.draw import DrawError

MESSAGES = {
    "too_few_players": _("A draw needs at least %(table_size)s present players; there are %(players)s."),
    "team_too_large": _(
        "Team %(team)s has %(members)s players present, but there are %(tables)s tables and %(byes)s "
        "players sit out each series, so its members cannot all sit at different tables. Register some "
        "of them as individuals or wait for more players."
    ),
    "teams_too_large": _(
        "Teams %(teams)s need %(needed)s byes in every series so that their members sit at different "
        "tables, but there are %(tables)s tables and only %(byes)s players sit out each series."
    ),
    "team_byes_exhausted": _(
        "Team %(team)s has %(members)s players present and there are %(tables)s tables, so %(excess)s of "
        "them must sit out in each of %(series)s series, but only %(eligible)s of them have not had a bye "
        "yet (at most one bye per player)."
    ),
    "not_enough_bye_players": _(
        "%(series)s series with %(byes_per_series)s byes each need %(needed)s different players on a bye, "
        "but only %(eligible)s players have not had one yet (at most one bye per player)."
    ),
    "teammates_at_table": _("%(player)s and %(other)s play for %(team)s and cannot sit at the same table."),
    "player_not_in_series": _("%(player)s neither sits at a table nor has a bye in this series."),
    "duplicate_player": _("%(player)s is listed twice."),
    "unknown_player": _("%(player)s is not among the players of this draw."),
    "fixed_table_missing": _(
        "%(player)s has a fixed seat at table %(table)s in series %(series)s, but the players fill only "
        "tables 1–%(tables)s. Choose a lower table or remove the fixed seat."
    ),
    "fixed_seat_twice": _("%(player)s has two fixed seats in series %(series)s."),
    "fixed_seat_taken": _(
        "%(player)s and %(other)s both have a fixed seat %(seat)s at table %(table)s in series %(series)s."
    ),
    "fixed_table_full": _(
        "More players have a fixed seat at table %(table)s in series %(series)s (%(count)s) than the table "
        "seats (%(table_size)s)."
    ),
    "fixed_teammates": _(
        "%(player)s and %(other)s play for %(team)s, so they cannot both have a fixed seat at table "
        "%(table)s (series %(series)s)."
    ),
    "fixed_seats_block_byes": _(
        "In series %(series)s, byes must be given (%(byes)s), but everybody who may still get one has a "
        "fixed seat at a table. Remove a fixed seat for that series."
    ),
    "fixed_seats_no_room": _(
        "With the fixed seats of series %(series)s, the members of the teams cannot all sit at different "
        "tables. Move a fixed seat to another table."
    ),
}
FALLBACK = _("The draw could not be made: %(message)s")

# Parameters that carry ids of the draw (or lists of them) and are shown as names.
PLAYER_PARAMS = ("player", "other")
TEAM_PARAMS = ("team",)
TEAM_LIST_PARAMS = ("teams",)


def draw_error_to_validation_error(
    error: DrawError,
    *,
    player_names: Mapping[str, str] | None = None,
    team_names: Mapping[str, str] | None = None,
) -> ValidationError:
    """A ValidationError for the organiser, with ids in the parameters replaced by names."""
    params: dict[str, Any] = dict(error.params)
    for key in PLAYER_PARAMS:
        if key in params:
            params[key] = (player_names or {}).get(str(params[key]), params[key])
    for key in TEAM_PARAMS:
        if key in params:
            params[key] = (team_names or {}).get(str(params[key]), params[key])
    for key in TEAM_LIST_PARAMS:
        if key in params:
            params[key] = ", ".join((team_names or {}).get(str(team), str(team)) for team in params[key])
    message = MESSAGES.get(error.code)
    if message is None:
        return ValidationError(FALLBACK, code=error.code, params={"message": error.message})
    return ValidationError(message, code=error.code, params=params)


def table_layout(*, players: int, table_size: int) -> str:
    """How ``players`` sit at tables of ``table_size``: "13 players: 4 tables of 3, 1 bye"."""
    tables, byes = divmod(players, table_size)
    return gettext("%(players)s: %(tables)s, %(byes)s") % {
        "players": ngettext("%(count)s player", "%(count)s players", players) % {"count": players},
        "tables": ngettext("%(count)s table of %(size)s", "%(count)s tables of %(size)s", tables)
        % {"count": tables, "size": table_size},
        "byes": ngettext("%(count)s bye", "%(count)s byes", byes) % {"count": byes} if byes else gettext("no byes"),
    }
