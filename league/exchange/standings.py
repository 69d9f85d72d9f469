"""Standings as docs/interfaces.md §4 prints them: players and teams named by their file ids.

The standings package ranks by primary key; this is the one place where those
keys become the ids of the exchange file (``"id": "p1"``), for
``manage.py standings --json`` and the public JSON API.
"""

from __future__ import annotations

from typing import Any

from league.models import Tournament
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
