"""Standings for the public site: tournaments, series and seasons, cached.

``league.standings.compute`` loads a tournament's results and lets ``scoring`` rank
them; this module adds what the public pages show on top of that — the
"3–4." labels of shared places, each table's placement points in a series, the
season tables (best K of N) — and keeps tournament and season standings in
Django's cache.

The cache key carries a stamp of the data the standings are computed from
(protocol versions, closed series, byes, seats, registrations), read in one
query. A corrected protocol therefore changes the key, and the old standings
can never be served, whether or not the recompute task has run yet; the task
only makes sure the next visitor finds the new standings already computed.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.expressions import Expression

import scoring
from league.exchange import external_ids
from league.models import Bye, Registration, Season, Series, TableAssignment, Tournament
from league.results.models import DealRow, DealRowVersion, Protocol
from league.standings.compute import points, tournament_standings
from scoring import SEATS, Standing

Rankings = dict[str, list[dict[str, Any]]]

CACHE_SECONDS = 24 * 60 * 60  # a stamp that no longer matches is never read, so long is safe
LISTS = ("individual", "women", "men", "teams")


# --- the stamp --------------------------------------------------------------


def _per_tournament(queryset: QuerySet, path: str, aggregate: Expression) -> Subquery:
    """``aggregate`` over the rows of ``queryset`` that belong to the outer tournament."""
    rows = queryset.filter(**{path: OuterRef("pk")}).order_by().values(path)
    return Subquery(rows.annotate(value=aggregate).values("value"))


def stamps(tournaments: QuerySet[Tournament]) -> dict[int, str]:
    """A short digest per tournament of everything its standings depend on, in one query."""
    closed = Q(status=Series.Status.CLOSED)
    # The public standings count only closed series with published results; deals being
    # entered in an open series must not change the stamp, or every deal saved anywhere
    # in the hall would throw the standings out of the cache while spectators watch.
    counted = Protocol.objects.filter(series__status=Series.Status.CLOSED, series__results_published=True)
    counted_changes = DealRowVersion.objects.filter(
        protocol__series__status=Series.Status.CLOSED, protocol__series__results_published=True
    )
    rows = tournaments.order_by().values_list(
        "pk",
        "updated",
        _per_tournament(counted, "series__tournament", Count("pk")),
        # every write bumps a protocol's version, so the sum moves with any row change
        _per_tournament(counted, "series__tournament", Sum("version")),
        _per_tournament(counted, "series__tournament", Max("updated")),
        _per_tournament(counted_changes, "protocol__series__tournament", Max("pk")),
        # closing needs every protocol confirmed first; count and numbers pin down which series are closed
        _per_tournament(Series.objects, "tournament", Count("pk", filter=closed)),
        _per_tournament(Series.objects, "tournament", Sum("number", filter=closed)),
        _per_tournament(Series.objects, "tournament", Sum("number", filter=closed & Q(results_published=True))),
        _per_tournament(Bye.objects, "tournament", Count("pk")),
        _per_tournament(Bye.objects, "tournament", Max("pk")),
        _per_tournament(TableAssignment.objects, "series__tournament", Max("pk")),
        # a player moved to another team changes the team standings
        _per_tournament(Registration.objects, "tournament", Count("pk")),
        _per_tournament(Registration.objects, "tournament", Sum("team_id")),
    )
    return {row[0]: hashlib.blake2b(repr(row).encode(), digest_size=8).hexdigest() for row in rows}


# --- tournaments ------------------------------------------------------------


def published(tournament: Tournament) -> dict[str, bool]:
    """Which of the lists the organiser has chosen to publish."""
    return {
        "individual": tournament.publish_individual,
        "women": tournament.publish_women,
        "men": tournament.publish_men,
        "teams": tournament.publish_teams,
    }


def _compute_tournament(tournament: Tournament) -> Rankings:
    standings = tournament_standings(tournament, published_only=True)
    # the lists name players and teams by their exchange ids; pages link by primary key
    player_ids, team_ids = external_ids(tournament)
    pks = {
        "players": {external: pk for pk, external in player_ids.items()},
        "teams": {external: pk for pk, external in team_ids.items()},
    }
    return {
        key: [
            {**entry, "pk": pks["teams" if key == "teams" else "players"][entry["id"]]}
            for entry in standings.get(key, [])
        ]
        for key in LISTS
    }


def tournament_rankings(tournament: Tournament, stamp: str | None = None) -> Rankings:
    """The tournament's standing lists (interfaces.md §4, plus ``label``), from the cache when current."""
    stamp = stamp or stamps(Tournament.objects.filter(pk=tournament.pk))[tournament.pk]
    key = f"rankings:tournament:{tournament.pk}:{stamp}"
    rankings = cache.get(key)
    if rankings is None:
        rankings = _compute_tournament(tournament)
        cache.set(key, rankings, CACHE_SECONDS)
    return rankings


# --- seasons ----------------------------------------------------------------


def _season_list(
    per_tournament: Iterable[list[dict[str, Any]]], best_of: int | None, tiebreaks: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Add up one list (players or teams) over the tournaments: the best ``best_of`` of them when set.

    Players and teams are matched by primary key: exchange ids are per tournament.
    """
    results: list[dict[str, Standing]] = []
    latest: dict[str, dict[str, Any]] = {}  # name and team as in the player's last tournament
    played: Counter[str] = Counter()
    for entries in per_tournament:
        results.append({str(e["pk"]): Standing(str(e["pk"]), e["big_points"], e["small_points"]) for e in entries})
        for entry in entries:
            latest[str(entry["pk"])] = {"pk": entry["pk"], "name": entry["name"], "team": entry.get("team")}
            played[str(entry["pk"])] += 1
    totals = scoring.season_totals(results, best_of)
    return [
        {
            **latest[r.standing.id],
            "place": r.place,
            "label": r.label,
            "big_points": points(r.standing.big_points),
            "small_points": r.standing.small_points,
            "tournaments": played[r.standing.id],
        }
        for r in scoring.rank(totals.values(), tiebreaks)
    ]


def _compute_season(season: Season, tournaments: list[Tournament], tournament_stamps: dict[int, str]) -> Rankings:
    per_tournament = [tournament_rankings(t, tournament_stamps[t.pk]) for t in tournaments]
    # big points lead only when some tournament awards them; otherwise small points alone rank
    tiebreaks = ("big_points", "small_points") if any(t.uses_big_points for t in tournaments) else ("small_points",)
    return {
        "individual": _season_list((r["individual"] for r in per_tournament), season.best_of, tiebreaks),
        "teams": _season_list((r["teams"] for r in per_tournament), season.best_of, tiebreaks),
    }


def season_tournaments(season: Season) -> QuerySet[Tournament]:
    return season.tournaments.filter(counts_for_season=True).order_by("date", "pk")


def season_rankings(season: Season) -> Rankings:
    """The season's individual and team tables, summed over its counted tournaments."""
    tournaments = list(season_tournaments(season))
    tournament_stamps = stamps(season_tournaments(season))
    digest = hashlib.blake2b(repr((season.best_of, sorted(tournament_stamps.items()))).encode(), digest_size=8)
    key = f"rankings:season:{season.pk}:{digest.hexdigest()}"
    rankings = cache.get(key)
    if rankings is None:
        rankings = _compute_season(season, tournaments, tournament_stamps)
        cache.set(key, rankings, CACHE_SECONDS)
    return rankings


def refresh(tournament_id: int) -> None:
    """Compute and cache the current standings of a tournament and of its season."""
    tournament = Tournament.objects.select_related("season").filter(pk=tournament_id).first()
    if tournament is None:  # deleted before the task ran
        return
    tournament_rankings(tournament)
    if tournament.season is not None and tournament.counts_for_season:
        season_rankings(tournament.season)


# --- one series -------------------------------------------------------------


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


def series_tables(series: Series, *, with_results: bool) -> list[Table]:
    """The tables of a series in seat order; with results, each seat's small
    points, placement points and place at the table ("1–2." when tied)."""
    teams = dict(Registration.objects.filter(tournament_id=series.tournament_id).values_list("player_id", "team__name"))
    tables: dict[int, Table] = {}
    for assignment in TableAssignment.objects.filter(series=series).select_related("player").order_by("table", "seat"):
        table = tables.setdefault(assignment.table, Table(assignment.table))
        player = assignment.player
        table.seats.append(Seat(assignment.seat, player.pk, player.full_name, teams.get(player.pk) or ""))
    if with_results:
        _add_results(series, tables)
    return list(tables.values())


def _add_results(series: Series, tables: dict[int, Table]) -> None:
    ruleset = series.tournament.ruleset()
    totals = (
        DealRow.objects.filter(protocol__series=series)
        .order_by()
        .values("protocol__table")
        .annotate(A=Sum("value_a"), B=Sum("value_b"), C=Sum("value_c"), D=Sum("value_d"))
    )
    for row in totals:
        table = tables.get(row["protocol__table"])
        if table is None or len(table.seats) != len(SEATS):
            continue
        small = {seat: row[seat] for seat in SEATS}
        big = scoring.placement_points(small, ruleset)
        places = {
            r.standing.id: r.label
            for r in scoring.rank(
                [Standing(seat, small_points=points) for seat, points in small.items()], ["small_points"]
            )
        }
        for seat in table.seats:
            seat.small_points, seat.big_points, seat.label = small[seat.seat], points(big[seat.seat]), places[seat.seat]
        table.has_results = True


def series_byes(series: Series) -> list[Seat]:
    """The bye players of a series with their compensation, as seats without a table."""
    byes = Bye.objects.filter(series=series).select_related("player").order_by("player__last_name")
    return [Seat("", bye.player_id, bye.player.full_name, "", bye.small_points, points(bye.big_points)) for bye in byes]
