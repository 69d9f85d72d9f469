"""Standings as docs/interfaces.md §4 prints them: players and teams named by their file ids.

The standings package ranks by primary key; this is the one place where those
keys become the ids of the exchange file (``"id": "p1"``), for
``manage.py standings --json`` and the public JSON API. :func:`file_penalties` lists the
referee's penalties the standings count, the command's optional ``penalties``.
"""

from __future__ import annotations

from typing import Any

from league.models import Tournament
from league.ranking_lists import points
from league.results.models import Penalty
from league.standings.compute import tournament_standings

from .ids import external_ids

Lists = dict[str, list[dict[str, Any]]]


def with_file_ids(tournament: Tournament, lists: Lists) -> Lists:
    """``lists`` with each entry's ``pk`` replaced by its ``id``, in the same place of the entry."""
    player_ids, team_ids = external_ids(tournament)

    def entry(row: dict[str, Any], ids: dict[int, str]) -> dict[str, Any]:
        return {("id" if key == "pk" else key): (ids[value] if key == "pk" else value) for key, value in row.items()}

    return {
        key: [entry(row, team_ids if key == "teams" else player_ids) for row in rows] for key, rows in lists.items()
    }


def file_standings(tournament: Tournament) -> Lists:
    """The ``standings SLUG --json`` body: every deal entered counts (the referee's view)."""
    return with_file_ids(tournament, tournament_standings(tournament))


def file_penalties(tournament: Tournament) -> list[dict[str, Any]]:
    """Every referee's penalty of the tournament, as :func:`file_standings` counts them (all series),
    in series order: the series' number, the player's file id and name, the points and the reason."""
    player_ids, _team_ids = external_ids(tournament)
    penalties = (
        Penalty.objects.filter(series__tournament=tournament)
        .select_related("series", "player")
        .order_by("series__number", "created", "pk")
    )
    return [
        {
            "series": penalty.series.number,
            "player": player_ids[penalty.player_id],
            "name": penalty.player.full_name,
            "small_points": penalty.small_points,
            "big_points": points(float(penalty.big_points)),
            "reason": penalty.reason,
        }
        for penalty in penalties
    ]
