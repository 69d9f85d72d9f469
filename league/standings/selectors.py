"""Reads of the public pages: a series' tables and byes, a player's or a team's tournaments.

Each takes a fixed number of queries however many tables, series or
tournaments there are; the standings themselves come from the cache
(``league.standings.cache``), keyed by each tournament's stamp, and a player's or a team's
results from the rows kept for them (``league.standings.summaries``) under that stamp.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import scoring
from league.games import game_of, linked_related
from league.models import Bye, Registration, Season, Series, Tournament
from league.ranking_lists import points
from league.standings.cache import PLAYER_SEASONS, season_digest, season_entry_of, stamps
from league.standings.models import PlayerResult, TeamResult
from league.standings.seasons import Rankings, season_tournaments
from league.standings.summaries import kept_rankings, tournament_results
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
    rules = game_of(series.tournament).standing_rules(series.tournament) if with_results else None
    tables = []
    for at_table in table_totals(series=Series.objects.filter(pk=series.pk), with_totals=with_results):
        table = Table(at_table.table, has_results=at_table.small_points is not None)
        places = table_places(at_table.small_points, rules) if at_table.small_points is not None else {}
        for seat, assignment in at_table.seats.items():
            player = assignment.player
            row = Seat(seat, player.pk, player.public_name, teams.get(player.pk) or "")
            if seat in places:
                result = places[seat]
                row.small_points, row.big_points = result.small_points, points(result.big_points)
                row.label = result.place
            table.seats.append(row)
        tables.append(table)
    return tables


def series_byes(series: Series, *, public: bool = False) -> list[Seat]:
    """The bye players (wolny los, a series without a table) with their compensation; named as
    public pages name them with ``public`` (``Player.public_name``), else in full (the referee's).

    The compensation comes from the ruleset by the number of byes in the
    series, as the standings count it; nothing stored can disagree with it.
    """
    byes = sorted(
        Bye.objects.filter(series=series).select_related("player", "player__club"),
        key=lambda bye: player_key(bye.player),
    )
    if not byes:
        return []
    compensation = scoring.bye_compensation(game_of(series.tournament).standing_rules(series.tournament), len(byes))
    big_points = points(compensation.big_points)
    small_points = compensation.small_points
    return [
        Seat(
            "", bye.player_id, bye.player.public_name if public else bye.player.full_name, "", small_points, big_points
        )
        for bye in byes
    ]


# --- a player's and a team's tournaments ------------------------------------


def player_results_of(
    *, player: Player, tournaments: list[Tournament], current: dict[int, str]
) -> dict[int, PlayerResult]:
    """The player's kept result (``PlayerResult``) in each of ``tournaments`` (by pk), in one query.

    A row behind its tournament's stamp in ``current`` (the recompute task has not run yet, or a
    change it does not follow, such as a renamed player) is not shown: that tournament's result
    is built afresh from its standings, and not saved, since a page only reads."""
    kept = {
        row.tournament_id: row
        for row in PlayerResult.objects.filter(player=player, tournament__in=[t.pk for t in tournaments])
    }
    results = {}
    for tournament in tournaments:
        row = kept.get(tournament.pk)
        if row is None or row.stamp != current[tournament.pk]:
            row = next(iter(tournament_results(tournament, current[tournament.pk], player=player).players), None)
        if row is not None:
            results[tournament.pk] = row
    return results


def result_entry(result: PlayerResult | TeamResult | None) -> dict[str, Any] | None:
    """A kept result as the pages show an entry of a ranking list; ``None`` where it ranks nobody."""
    if result is None or not getattr(result, "ranked", True):
        return None
    return {
        "place": result.place,
        "label": result.place_label,
        "big_points": points(result.big_points),
        "small_points": result.small_points,
    }


@dataclass(frozen=True)
class PlayerReads:
    """What a player's page is read from: their registrations for published tournaments (newest
    first), the seasons of those tournaments, every tournament counted in those seasons, and the
    standings' ``current`` stamps of all of them. Read once for the page's state and its build."""

    registrations: list[Registration]
    seasons: list[Season]
    counted: list[Tournament]
    current: dict[int, str]


def player_reads(player: Player) -> PlayerReads:
    """The :class:`PlayerReads` of ``player``, in three queries."""
    registrations = list(
        # a draft tournament is its organisers' until published (public pages show it to them alone)
        Registration.objects.filter(player=player, tournament__published=True)
        .select_related("tournament__season", "team", *linked_related("tournament"))
        .order_by("-tournament__date", "-tournament_id")
    )
    seasons = sorted(
        {r.tournament.season for r in registrations if r.tournament.season}, key=lambda s: (-s.year, s.name, s.pk)
    )
    # a season's table needs every tournament counted in it, not only the player's
    counted = list(season_tournaments(*seasons))
    played = {r.tournament_id for r in registrations}
    current = stamps(Tournament.objects.filter(pk__in=played | {t.pk for t in counted}))
    return PlayerReads(registrations, seasons, counted, current)


def player_history(
    player: Player, reads: PlayerReads | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The player's tournaments, newest first, and seasons, each with the player's
    entry of the individual ranking (``None`` where not ranked); a tournament's with the
    ``stamp`` of its standings, read once for the whole page, and the player's kept ``result``
    there (:func:`player_results_of`). ``reads``: the :func:`player_reads` already made."""
    reads = reads or player_reads(player)
    current = reads.current
    results = player_results_of(player=player, tournaments=[r.tournament for r in reads.registrations], current=current)
    history = []
    for r in reads.registrations:
        result = results.get(r.tournament_id)
        history.append(
            {
                "tournament": r.tournament,
                "team": r.team,
                "stamp": current[r.tournament_id],
                "result": result,
                "entry": result_entry(result),
            }
        )
    kept: dict[int, Rankings] = {}

    def season_lists() -> dict[int, Rankings]:
        # read once for all the seasons, and only when one of their tables is not in the cache
        if not kept:
            kept.update(kept_rankings(reads.counted, current))
        return kept

    by_season: dict[int, list[Tournament]] = {}
    for tournament in reads.counted:
        by_season.setdefault(tournament.season_id, []).append(tournament)
    counted = {season.pk: (season, by_season.get(season.pk, [])) for season in reads.seasons}

    def season_entries() -> list[dict[str, Any] | None]:
        return [
            season_entry_of(season, tournaments, {t.pk: current[t.pk] for t in tournaments}, player.pk, season_lists)
            for season, tournaments in counted.values()
        ]

    # the player's own line of each season, kept together: reading every season's whole table
    # from the cache for them took longer than the rest of a long history's page
    digests = [season_digest(season, {t.pk: current[t.pk] for t in ts}) for season, ts in counted.values()]
    digest = hashlib.blake2b("-".join(digests).encode(), digest_size=8).hexdigest()
    entries = PLAYER_SEASONS.current(f"rankings:player-seasons:{player.pk}", digest, season_entries)
    season_rows = [{"season": season, "entry": entry} for season, entry in zip(reads.seasons, entries, strict=True)]
    return history, season_rows


def team_stamps(team: Team) -> dict[int, str]:
    """The standings' stamps of the published tournaments ``team`` entered, in one query."""
    return stamps(
        Tournament.objects.filter(pk__in=Registration.objects.filter(team=team).values("tournament"), published=True)
    )


def team_history(team: Team, current: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """The team's tournaments, newest first, each with its entry of the team ranking, the
    ``stamp`` of its standings and its players' kept ``results`` there; in three queries
    (``current``: the :func:`team_stamps` already read).

    As :func:`player_results_of`, a tournament whose rows are behind its stamp is built afresh
    from its standings, unsaved."""
    current = team_stamps(team) if current is None else current
    members: dict[int, list[PlayerResult]] = {}
    named: dict[int, Tournament] = {}
    for row in PlayerResult.objects.filter(team=team, tournament__in=list(current)).select_related(
        "player", "player__club", "tournament", *linked_related("tournament")
    ):
        members.setdefault(row.tournament_id, []).append(row)
        named[row.tournament_id] = row.tournament
    entries = {row.tournament_id: row for row in TeamResult.objects.filter(team=team, tournament__in=list(current))}
    if len(named) < len(current):  # a tournament whose rows are not written yet
        named |= Tournament.objects.in_bulk([pk for pk in current if pk not in named])
    tournaments = sorted(named.values(), key=lambda t: (t.date, t.pk), reverse=True)
    history = []
    for tournament in tournaments:
        stamp = current[tournament.pk]
        rows, entry = members.get(tournament.pk, []), entries.get(tournament.pk)
        if not rows or any(row.stamp != stamp for row in rows) or (entry is not None and entry.stamp != stamp):
            fresh = tournament_results(tournament, stamp)
            rows = [row for row in fresh.players if row.team_id == team.pk]
            entry = next((row for row in fresh.teams if row.team_id == team.pk), None)
            named = Player.objects.select_related("club").in_bulk([row.player_id for row in rows])
            for row in rows:
                row.player = named[row.player_id]
        history.append({"tournament": tournament, "stamp": stamp, "results": rows, "entry": result_entry(entry)})
    return history
