"""Wyniki zawodników (players' results): what the standings say about each player of a
tournament, kept as rows (``PlayerResult``, ``TeamResult``) so that a player's or a team's page
reads one row per tournament instead of ranking every tournament they ever played.

Nothing here ranks anything itself: a row is the tournament's public standings
(``league.standings.cache.tournament_rankings``, the lists the standings page shows), its
places after each series (``places_after_each_series``), each table's result as every page
reads it (``league.standings.tables``) and the deal statistics (``league.standings.statistics``),
copied out under the tournament's standings stamp. Only what the public may see reaches a row:
a published tournament's closed series with their results published; a draft has no rows.

:func:`player_results_refresh` rewrites one tournament's rows (the recompute task calls it after
a series closes or reopens, or a correction changes results); :func:`player_results_rebuild`
rewrites all of them from the deals (``manage.py rebuild_statistics``); :func:`tournament_results`
builds one tournament's rows without saving them, for a page that finds its rows behind the stamp.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, OuterRef, QuerySet, Subquery

import scoring
from league.games import game_of
from league.models import Bye, Series, Tournament
from league.ranking_lists import INDIVIDUAL, TEAMS, points
from league.results.models import Penalty
from league.standings.cache import places_after_each_series, rankings_of, stamps, tournament_rankings
from league.standings.models import PlayerResult, TeamResult
from league.standings.seasons import Rankings
from league.standings.statistics import deal_tallies, empty_tally
from league.standings.tables import table_places, table_totals
from players.models import Player, public_name_of
from players.names import name_key, player_key

# one series of a player as a row keeps it (``PlayerResult.series``): number, table, seat,
# opponents (pk, name, seat, small points, last and first name for Polish order), small and big
# points, place at the table and the referee's penalties; a bye has no table
SeriesDict = dict[str, Any]


@dataclass(frozen=True)
class TournamentResults:
    """One tournament's rows as the standings give them now, unsaved."""

    players: list[PlayerResult]
    teams: list[TeamResult]


def _visible_series(tournament: Tournament) -> QuerySet[Series]:
    return Series.objects.filter(tournament=tournament, status=Series.Status.CLOSED, results_published=True)


def series_results(
    tournament: Tournament, played: set[int], *, player: Player | None = None
) -> dict[int, list[SeriesDict]]:
    """Per player (pk), their series the public may see, in series order: each table's result as
    ``tables.table_places`` gives it, a bye's compensation by the ruleset, the referee's
    penalties; in four queries. ``played`` are the series the standings count (a series counts
    once a table has a deal: a bye in a series not yet played is no row). With ``player``, theirs alone."""
    visible = _visible_series(tournament)
    rules = game_of(tournament).standing_rules(tournament)
    rows: dict[int, dict[int, SeriesDict]] = defaultdict(dict)
    for at_table in table_totals(series=visible, player=player):
        if at_table.small_points is None:
            continue
        results = table_places(at_table.small_points, rules)
        for seat, assignment in at_table.seats.items():
            if player is not None and assignment.player_id != player.pk:
                continue
            result = results[seat]
            rows[assignment.player_id][at_table.series_number] = {
                "number": at_table.series_number,
                "table": at_table.table,
                "seat": seat,
                "opponents": [
                    {
                        "pk": other.player_id,
                        "name": other.player.public_name,
                        "seat": other_seat,
                        "small_points": at_table.small_points[other_seat],
                        "sort": [other.player.last_name, other.player.first_name],
                    }
                    for other_seat, other in at_table.seats.items()
                    if other_seat != seat
                ],
                "small_points": result.small_points,
                "big_points": points(result.big_points),
                "place": result.place,
                "penalties": [],
            }
    byes = Bye.objects.filter(series__in=visible)
    penalties = Penalty.objects.filter(series__in=visible)
    if player is not None:
        byes, penalties = byes.filter(player=player), penalties.filter(player=player)
    byes_in_series = Bye.objects.filter(series=OuterRef("series")).order_by().values("series")
    for player_id, number, count in byes.annotate(
        count=Subquery(byes_in_series.annotate(n=Count("pk")).values("n"))
    ).values_list("player_id", "series__number", "count"):
        compensation = scoring.bye_compensation(rules, count)
        rows[player_id][number] = {
            "number": number,
            "table": None,
            "seat": "",
            "opponents": [],
            "small_points": compensation.small_points,
            "big_points": points(compensation.big_points),
            "place": "",
            "penalties": [],
        }
    for player_id, number, small, big, reason in penalties.order_by("pk").values_list(
        "player_id", "series__number", "small_points", "big_points", "reason"
    ):
        row = rows[player_id].get(number)
        if row is not None:
            row["penalties"].append({"small_points": small, "big_points": points(float(big)), "reason": reason})
    return {
        player_id: [row for number, row in sorted(by_number.items()) if number in played]
        for player_id, by_number in rows.items()
    }


def tournament_results(tournament: Tournament, stamp: str, *, player: Player | None = None) -> TournamentResults:
    """The rows of ``tournament`` under its standings ``stamp``, unsaved: one per registered
    player (or ``player``'s alone) and one per team its published team ranking ranks."""
    rankings = tournament_rankings(tournament, stamp)
    progress = places_after_each_series(tournament, stamp)
    series = series_results(tournament, {number for number, _ in progress}, player=player)
    tallies = deal_tallies({tournament.pk: tournament}, player)
    registrations = tournament.registrations.all()
    if player is not None:
        registrations = registrations.filter(player=player)
    entries = {entry["pk"]: entry for entry in rankings["individual"]}
    # the place is the individual ranking's: kept back with it where the organiser keeps it back
    individual = INDIVIDUAL.published(tournament)
    players = []
    for player_id, team_id in registrations.order_by("player_id").values_list("player_id", "team_id"):
        entry = entries.get(player_id)
        players.append(
            PlayerResult(
                player_id=player_id,
                tournament_id=tournament.pk,
                team_id=team_id,
                stamp=stamp,
                ranked=entry is not None,
                place=entry["place"] if entry and individual else None,
                place_label=entry["label"] if entry and individual else "",
                big_points=entry["big_points"] if entry else 0,
                small_points=entry["small_points"] if entry else 0,
                series=series.get(player_id, []),
                places=[[number, ranked.get(player_id, (None, ""))[0], len(ranked)] for number, ranked in progress]
                if individual
                else [],
                tally=tallies.get((player_id, tournament.pk), empty_tally()),
            )
        )
    teams = [
        TeamResult(
            team_id=entry["pk"],
            tournament_id=tournament.pk,
            stamp=stamp,
            place=entry["place"],
            place_label=entry["label"],
            big_points=entry["big_points"],
            small_points=entry["small_points"],
        )
        for entry in (rankings["teams"] if TEAMS.published(tournament) and player is None else [])
    ]
    return TournamentResults(players, teams)


def kept_rankings(tournaments: Sequence[Tournament], current: dict[int, str]) -> dict[int, Rankings]:
    """Each tournament's individual and team lists (by pk) as its kept rows hold them, in two
    queries, in the order the standings list them (by place, then by name, as ``compute`` orders
    a shared place), for a season's table: the lists of ``tournament_rankings`` without reading
    each tournament's standings. A tournament whose rows are missing or behind its stamp in
    ``current`` takes its lists from the standings (``cache.rankings_of``)."""
    lists: dict[int, Rankings] = {t.pk: {"individual": [], "women": [], "men": [], "teams": []} for t in tournaments}
    seen, stale = set(), set()
    named: dict[int, tuple[str, Any]] = {}
    # a season's rows are its every player's: read as plain values, without the series, places
    # and tallies they keep (model instances of every player of ten seasons took seconds)
    players = PlayerResult.objects.filter(tournament__in=list(lists)).order_by()
    for (
        tournament_id,
        stamp,
        ranked,
        player_id,
        first,
        last,
        initials,
        club,
        team,
        place,
        label,
        big,
        small,
    ) in players.values_list(
        "tournament_id",
        "stamp",
        "ranked",
        "player_id",
        "player__first_name",
        "player__last_name",
        "player__public_initials",
        "player__club__name",
        "team__name",
        "place",
        "place_label",
        "big_points",
        "small_points",
    ):
        seen.add(tournament_id)
        if stamp != current[tournament_id]:
            stale.add(tournament_id)
        elif ranked:
            if player_id not in named:  # a regular is in every tournament: their name once
                player = Player(pk=player_id, first_name=first, last_name=last)
                named[player_id] = (public_name_of(first, last, initials=initials, club=club), player_key(player))
            name, key = named[player_id]
            lists[tournament_id]["individual"].append(
                {
                    "place": place,
                    "label": label,
                    "name": name,
                    "pk": player_id,
                    "team": team,
                    "big_points": points(big),
                    "small_points": small,
                    "order": (place or 0, key, player_id),
                }
            )
    teams = TeamResult.objects.filter(tournament__in=list(lists)).order_by()
    for tournament_id, team_id, name, place, label, big, small in teams.values_list(
        "tournament_id", "team_id", "team__name", "place", "place_label", "big_points", "small_points"
    ):
        lists[tournament_id]["teams"].append(
            {
                "place": place,
                "label": label,
                "name": name,
                "pk": team_id,
                "big_points": points(big),
                "small_points": small,
                "order": (place, name_key(name), team_id),
            }
        )
    for kept in lists.values():
        for key in ("individual", "teams"):
            kept[key] = [
                {k: v for k, v in e.items() if k != "order"} for e in sorted(kept[key], key=lambda e: e["order"])
            ]
    behind = [t for t in tournaments if t.pk in stale or t.pk not in seen]
    if behind:
        lists |= rankings_of(behind, current)
    return lists


def player_results_refresh(*, tournament_id: int, force: bool = False) -> None:
    """Rewrite every row of one tournament from its standings as they are now; a draft's (or an
    unpublished tournament's) rows are deleted, since nothing of a draft may reach a public page.

    The recompute task runs after every deal saved, while the stamp moves only when what the
    public sees changes: rows already under the current stamp are left as they are (``force``
    rewrites them anyway).
    """
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:  # deleted before the task ran: its rows went with it
        return
    kept = PlayerResult.objects.filter(tournament=tournament)
    kept_teams = TeamResult.objects.filter(tournament=tournament)
    if not tournament.published:
        with transaction.atomic():
            kept.delete()
            kept_teams.delete()
        return
    stamp = stamps(Tournament.objects.filter(pk=tournament.pk))[tournament.pk]
    if not force and set(kept.values_list("stamp", flat=True).distinct()) == {stamp}:
        return
    results = tournament_results(tournament, stamp)
    with transaction.atomic():
        # One rewrite of a tournament at a time: two tasks for one change (a merge, the demo's
        # load) both deleted, then both inserted, and one failed on the unique constraint. The
        # second now waits for the first, then finds its rows current, or rewrites them.
        list(Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk"))
        if not force and set(kept.values_list("stamp", flat=True).distinct()) == {stamp}:
            return
        kept.delete()
        kept_teams.delete()
        PlayerResult.objects.bulk_create(results.players)
        TeamResult.objects.bulk_create(results.teams)


def player_results_rebuild(*, stale_only: bool = False) -> int:
    """Rewrite the rows of every published tournament from the deals (``stale_only``: only those
    whose rows are missing or behind their standings' stamp), and drop the rows of any tournament
    no longer published; returns how many published tournaments there are."""
    PlayerResult.objects.exclude(tournament__published=True).delete()
    TeamResult.objects.exclude(tournament__published=True).delete()
    published = list(Tournament.objects.filter(published=True).order_by("date", "pk").values_list("pk", flat=True))
    for tournament_id in published:
        player_results_refresh(tournament_id=tournament_id, force=not stale_only)
    return len(published)
