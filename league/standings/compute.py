"""Tournament standings: the database's results handed to ``scoring`` for totals and places.

This module only loads numbers (each table's seats and protocol totals, as
``tables`` reads them; byes; penalties) in a constant number of queries and
shapes the result; placement points, bye compensation, totals, tie-breaks and
the counting of team members all come from ``scoring``. The lists have the shape
of ``standings --json`` (docs/interfaces.md §4), except that they name players
and teams by primary key (``pk``): the exchange package turns those into the
file's ids where it prints them.

A series counts once any of its tables has a deal; then its tables with deals
and its byes count, so a drawn series gives no bye points before play.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import scoring
from league.games import game_of
from league.models import Bye, Registration, Series, TeamRanking, Tournament
from league.ranking_lists import RANKING_LISTS, points
from league.results.models import Penalty
from league.standings.tables import table_totals
from players.names import NameKey, name_key, player_key
from scoring.preferans import TournamentRules

Row = dict[str, Any]


def tournament_standings(
    tournament: Tournament, *, published_only: bool = False, through_series: int | None = None
) -> dict[str, list[Row]]:
    """``{"individual": […], "women": […], "men": […], "teams": […]}``, best
    first; tied entries share a place (1, 2, 3, 3, 5) and carry the printed
    label ("3–4.", an optional field beyond docs/interfaces.md §4). Each entry names
    its player or team by ``pk``.

    ``published_only`` counts only the series the public may see: closed, with
    their results published. The referee's view counts every deal entered.
    ``through_series`` counts only the series up to that number: the standings as they
    were after it (a player's page charts the places after each series).
    """
    ruleset = game_of(tournament).standing_rules(tournament)
    totals = scoring.accumulate(_series_results(tournament, published_only, through_series), ruleset)
    tiebreaks = ruleset.tiebreaks
    if not tournament.uses_big_points:
        tiebreaks = tuple(t for t in tiebreaks if t != "big_points")
    registrations = {r.player_id: r for r in tournament.registrations.select_related("player", "player__club", "team")}

    # rank() keeps the input order within a shared place: list by name first
    def by_name(standing: scoring.Standing) -> tuple[tuple[NameKey, NameKey], int]:
        player = registrations[int(standing.id)].player
        return (player_key(player), player.pk)

    players = sorted(totals.values(), key=by_name)

    def individual(gender: str | None) -> list[Row]:
        chosen = [s for s in players if gender is None or registrations[int(s.id)].player.gender == gender]
        rows = []
        for ranked in scoring.rank(chosen, tiebreaks):
            registration = registrations[int(ranked.standing.id)]
            rows.append(
                {
                    "place": ranked.place,
                    "label": ranked.label,
                    "name": registration.player.public_name,
                    "pk": registration.player_id,
                    "team": registration.team.name if registration.team else None,
                    **_points(ranked.standing),
                }
            )
        return rows

    team_names = {r.team_id: r.team.name for r in registrations.values() if r.team}
    teams = sorted(
        _team_standings(tournament, players, registrations, ruleset, tiebreaks),
        key=lambda s: name_key(team_names[int(s.id)]),
    )
    team_rows = [
        {
            "place": ranked.place,
            "label": ranked.label,
            "name": team_names[int(ranked.standing.id)],
            "pk": int(ranked.standing.id),
            **_points(ranked.standing),
        }
        for ranked in scoring.rank(teams, tiebreaks)
    ]
    return {
        ranking_list.key: team_rows if ranking_list.teams else individual(ranking_list.gender)
        for ranking_list in RANKING_LISTS
    }


def _series_results(
    tournament: Tournament, published_only: bool, through_series: int | None = None
) -> list[scoring.SeriesResult]:
    """The played series in order: each table's seats and protocol totals, the byes and the referee's penalties."""
    series = Series.objects.filter(tournament=tournament)
    if published_only:
        series = series.filter(status=Series.Status.CLOSED, results_published=True)
    if through_series is not None:
        series = series.filter(number__lte=through_series)
    tables: dict[int, list[scoring.TableResult]] = defaultdict(list)
    for table in table_totals(series=series):
        if table.small_points is not None:
            players = {seat: str(assignment.player_id) for seat, assignment in table.seats.items()}
            tables[table.series_number].append(scoring.TableResult(players, table.small_points))

    byes: dict[int, list[str]] = defaultdict(list)
    for number, player in Bye.objects.filter(series__in=series).values_list("series__number", "player_id"):
        byes[number].append(str(player))
    penalties: dict[int, list[scoring.Penalty]] = defaultdict(list)
    for number, player, small, big, reason in Penalty.objects.filter(series__in=series).values_list(
        "series__number", "player_id", "small_points", "big_points", "reason"
    ):
        penalties[number].append(scoring.Penalty(str(player), small, float(big), reason))
    return [scoring.SeriesResult(tables[number], byes[number], penalties[number]) for number in sorted(tables)]


def _team_standings(
    tournament: Tournament,
    players: list[scoring.Standing],
    registrations: dict[int, Registration],
    ruleset: scoring.Ruleset | TournamentRules,
    tiebreaks: tuple[str, ...],
) -> list[scoring.Standing]:
    """Each team's totals from its members' standings (all of them, or the best N), with big
    points as the ruleset gives teams them."""
    members: dict[str, list[scoring.Standing]] = defaultdict(list)
    for standing in players:
        team_id = registrations[int(standing.id)].team_id
        if team_id is not None:
            members[str(team_id)].append(standing)
    best = tournament.team_best_of if tournament.team_ranking == TeamRanking.BEST else None
    return scoring.team_standings(members, ruleset, best=best, tiebreaks=tiebreaks)


def _points(standing: scoring.Standing) -> Row:
    return {"big_points": points(standing.big_points), "small_points": standing.small_points}
