"""Writing a stored tournament as an exchange file, the inverse of the import.

Deals are written as they were entered, so importing the export values them
again to the same rows. The optional fields beyond the spec's example
(``licence``, ``organiser``, ``uses_big_points``, ``tournament_id``, ``ruleset_data``, team
``club``, table ``ended_early``, and each game's own keys, docs/interfaces.md) are written
too, ``ruleset_data`` only for a
tournament with its own rules, so nothing that changes the standings is lost; a
series' referee ``penalties`` only where it has any. The game writes its own settings
(``GameRules.export_settings``) and its tables' own fields (``GameRules.export_table``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch

from league.games import game_of
from league.models import Bye, Registration, Series, TableAssignment, Tournament
from league.ranking_lists import points
from league.results.models import DealRow, Penalty

from .format import FORMAT, team_ranking_code, tournament_fields
from .ids import external_ids

if TYPE_CHECKING:
    from league.games.base import GameRules


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The exchange file of ``tournament`` as a JSON-ready dict (a constant number of queries)."""
    player_ids, team_ids = external_ids(tournament)
    registrations = list(
        tournament.registrations.select_related("player__club", "team__club").order_by(
            "player__last_name", "player__first_name", "player_id"
        )
    )
    teams = sorted({r.team for r in registrations if r.team is not None}, key=lambda team: (team.name, team.pk))
    series = tournament.series.order_by("number").prefetch_related(
        Prefetch("assignments", queryset=TableAssignment.objects.order_by("table", "seat")),
        Prefetch("byes", queryset=Bye.objects.order_by("player__last_name", "player__first_name", "player_id")),
        "protocols",
        Prefetch("protocols__rows", queryset=DealRow.objects.order_by("number")),
        Prefetch("penalties", queryset=Penalty.objects.order_by("created", "pk")),
    )
    return {
        "format": FORMAT,
        "tournament": _in_file_order(
            {
                "name": tournament.name,
                "slug": tournament.slug,
                "date": tournament.date.isoformat(),
                "venue": tournament.venue,
                "series_count": tournament.series_count,
                "team_ranking": team_ranking_code(tournament),
                "organiser": tournament.organiser_name,
                "uses_big_points": tournament.uses_big_points,
                "tournament_id": str(tournament.exchange_id),
                **game_of(tournament).export_settings(tournament),
            }
        ),
        "teams": [
            {"id": team_ids[team.pk], "name": team.name, "club": team.club.name if team.club else None}
            for team in teams
        ],
        "players": [_player(r, player_ids, team_ids) for r in registrations],
        "series": [_series(s, player_ids, game=game_of(tournament)) for s in series],
    }


def exchange_file_text(tournament: Tournament) -> str:
    """The exchange file of ``tournament`` as the command prints it and the organiser's screen
    downloads it (UTF-8, letters as they are, indented, a newline at the end)."""
    return json.dumps(export_tournament(tournament), ensure_ascii=False, indent=2) + "\n"


def _in_file_order(tournament: dict[str, Any]) -> dict[str, Any]:
    """The ``tournament`` object's fields, every game's and its game's settings, in the order every
    file has written them (a field of a game's own no file had before: last)."""
    order = {name: position for position, name in enumerate(tournament_fields())}
    return dict(sorted(tournament.items(), key=lambda item: order.get(item[0], len(order))))


def _player(registration: Registration, player_ids: dict[int, str], team_ids: dict[int, str]) -> dict[str, Any]:
    player = registration.player
    return {
        "id": player_ids[player.pk],
        "first_name": player.first_name,
        "last_name": player.last_name,
        "gender": player.gender,
        "club": player.club.name if player.club else None,
        "team": team_ids[registration.team_id] if registration.team_id else None,
        "licence": player.licence,
    }


def _series(series: Series, player_ids: dict[int, str], *, game: GameRules) -> dict[str, Any]:
    """The series' tables, byes and penalties; a table's ``deals`` are its protocol's rows as stored
    (in the game's own shape, players by seat), then the game's own fields of the table."""
    seats: dict[int, dict[str, str]] = {}
    for assignment in series.assignments.all():
        seats.setdefault(assignment.table, {})[assignment.seat] = player_ids[assignment.player_id]
    protocols = {protocol.table: protocol for protocol in series.protocols.all()}
    tables = []
    for number, table_seats in sorted(seats.items()):
        protocol = protocols.get(number)
        table = {
            "number": number,
            "seats": table_seats,
            "deals": [row.deal for row in protocol.rows.all()] if protocol else [],
            "ended_early": protocol.ended_early if protocol else False,
        }
        table |= game.export_table(protocol=protocol)
        tables.append(table)
    exported = {"number": series.number, "tables": tables, "byes": [player_ids[b.player_id] for b in series.byes.all()]}
    if penalties := [_penalty(penalty, player_ids) for penalty in series.penalties.all()]:
        exported["penalties"] = penalties
    return exported


def _penalty(penalty: Penalty, player_ids: dict[int, str]) -> dict[str, Any]:
    return {
        "player": player_ids[penalty.player_id],
        "small_points": penalty.small_points,
        "big_points": points(float(penalty.big_points)),
        "reason": penalty.reason,
    }
