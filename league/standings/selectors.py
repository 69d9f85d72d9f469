"""Reads of the public pages: a series' tables and byes, a player's or a team's tournaments.

Each takes a fixed number of queries however many tables, series or
tournaments there are; the standings themselves come from the cache
(``league.standings.cache``), keyed by each tournament's stamp.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import scoring
from league.models import Bye, Registration, Series, Tournament
from league.ranking_lists import points
from league.standings.cache import rankings_of, season_rankings_of, stamps
from league.standings.seasons import season_tournaments
from league.standings.tables import table_places, table_totals
from players.models import Player, Team
from players.names import player_key


@dataclass
class Seat:
    seat: str
    player_id: int
    name: str
    team: str
    small_points: int | None = None
    big_points: float | None = None
    label: str = ""


@dataclass
class Table:
    number: int
    seats: list[Seat] = field(default_factory=list)
    has_results: bool = False


def series_table_seats(series: Series, *, with_results: bool) -> list[Table]:
    """The tables of a series in seat order; with results, each seat's small points,
    big points and place at the table (``tables.table_places``: "1–2." when tied)."""
    teams = dict(Registration.objects.filter(tournament_id=series.tournament_id).values_list("player_id", "team__name"))
    rules = series.tournament.standing_rules() if with_results else None
    tables = []
    for at_table in table_totals(series=Series.objects.filter(pk=series.pk), with_totals=with_results):
        table = Table(at_table.table, has_results=at_table.small_points is not None)
        places = table_places(at_table.small_points, rules) if at_table.small_points is not None else {}
        for seat, assignment in at_table.seats.items():
            player = assignment.player
            row = Seat(seat, player.pk, player.full_name, teams.get(player.pk) or "")
            if seat in places:
                result = places[seat]
                row.small_points, row.big_points = result.small_points, points(result.big_points)
                row.label = result.place
            table.seats.append(row)
        tables.append(table)
    return tables


def series_byes(series: Series) -> list[Seat]:
    """The bye players (wolny los, a series without a table) with their compensation.

    The compensation comes from the ruleset by the number of byes in the
    series, as the standings count it; nothing stored can disagree with it.
    """
    byes = sorted(Bye.objects.filter(series=series).select_related("player"), key=lambda bye: player_key(bye.player))
    if not byes:
        return []
    compensation = scoring.bye_compensation(series.tournament.standing_rules(), len(byes))
    big_points = points(compensation.big_points)
    return [Seat("", bye.player_id, bye.player.full_name, "", compensation.small_points, big_points) for bye in byes]


# --- a player's and a team's tournaments ------------------------------------


def player_history(player: Player) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The player's tournaments, newest first, and seasons, each with the player's
    entry of the individual ranking (``None`` where not ranked); a tournament's with the
    ``stamp`` of its standings, read once for the whole page."""
    registrations = list(
        # a draft tournament is its organisers' until published (public pages show it to them alone)
        Registration.objects.filter(player=player, tournament__published=True)
        .select_related("tournament__season", "team")
        .order_by("-tournament__date", "-tournament_id")
    )
    seasons = sorted(
        {r.tournament.season for r in registrations if r.tournament.season}, key=lambda s: (-s.year, s.name, s.pk)
    )
    # a season's table needs every tournament counted in it, not only the player's
    counted_tournaments = list(season_tournaments(*seasons))
    played = {r.tournament_id for r in registrations}
    current = stamps(Tournament.objects.filter(pk__in=played | {t.pk for t in counted_tournaments}))
    lists = rankings_of([r.tournament for r in registrations], current)
    history = [
        {
            "tournament": r.tournament,
            "team": r.team,
            "stamp": current[r.tournament_id],
            "entry": _entry(lists[r.tournament_id]["individual"], player.pk),
        }
        for r in registrations
    ]
    season_rows = []
    for season in seasons:
        counted = [t for t in counted_tournaments if t.season_id == season.pk]
        lists = season_rankings_of(season, counted, {t.pk: current[t.pk] for t in counted})
        season_rows.append({"season": season, "entry": _entry(lists["individual"], player.pk)})
    return history, season_rows


def team_history(team: Team) -> list[dict[str, Any]]:
    """The team's tournaments, newest first, each with its entry of the team ranking and the
    ``stamp`` of its standings."""
    tournaments = list(
        Tournament.objects.filter(registrations__team=team, published=True).distinct().order_by("-date", "-pk")
    )
    current = stamps(Tournament.objects.filter(pk__in=[t.pk for t in tournaments]))
    lists = rankings_of(tournaments, current)
    return [
        {"tournament": t, "stamp": current[t.pk], "entry": _entry(lists[t.pk]["teams"], team.pk)} for t in tournaments
    ]


def _entry(entries: list[dict[str, Any]], pk: int) -> dict[str, Any] | None:
    return next((entry for entry in entries if entry["pk"] == pk), None)
