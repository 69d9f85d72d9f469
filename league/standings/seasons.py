"""Season tables (klasyfikacja sezonu): the tournaments of a season added up, best K of N.

A season adds up the individual and team lists of the tournaments that count
for it by its scheme (``Season.scheme``, docs/rules.md §6):

- **small** (psb example I): the small points summed (+178, −100, +50 → +128);
- **big**: the big points summed, small points deciding ties;
- **places** (psb example II): each tournament first turns places into season
  points ("punkty za miejsca") by ``Season.place_points`` (teams:
  ``team_place_points``), only for a positive result; the season adds those up,
  with the small points as the second figure (100 + 0 + 25 = 125, +128).

With ``Season.best_of`` set, only each player's (or team's) best ``best_of``
results count, by the season's own figure. Players and teams are matched by
primary key.

A tournament's list counts only while its organiser publishes it: a season
table is public, and must not show what the tournament's own page keeps back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db.models import QuerySet

import scoring
from league.models import Season, SeasonScheme, Tournament
from league.ranking_lists import SEASON_LISTS, points
from scoring import Ranked, Standing

Rankings = dict[str, list[dict[str, Any]]]
# one tournament's list (players or teams) → each entry's result as the season counts it, by pk
Results = Callable[[list[dict[str, Any]]], dict[str, Standing]]


def season_tournaments(*seasons: Season) -> QuerySet[Tournament]:
    """The published tournaments that count for the seasons, in date order."""
    return Tournament.objects.filter(season__in=seasons, counts_for_season=True, published=True).order_by("date", "pk")


def season_uses_big_points(season: Season, tournaments: Iterable[Tournament]) -> bool:
    """Whether the season's tables show big points: always for points for places, never for
    small points summed, and for big points summed when some tournament awards them."""
    if season.scheme == SeasonScheme.PLACES:
        return True
    if season.scheme == SeasonScheme.SMALL:
        return False
    return any(t.uses_big_points for t in tournaments)


def season_standings(season: Season, tournaments: list[Tournament], per_tournament: list[Rankings]) -> Rankings:
    """The season's individual and team tables from its tournaments' standing lists (in the same order),
    each adding up the tournaments that publish that list.

    Each entry carries ``tournaments`` (how many of the season's tournaments ranked it),
    ``counted`` (how many of those count: all, or at most ``best_of``) and ``results``: per
    tournament that publishes the list, in order, its result as the season counts it and
    whether it counted or was dropped (``None`` where the tournament did not rank it).
    """
    big_points = season_uses_big_points(season, tournaments)
    tiebreaks = ("big_points", "small_points") if big_points else ("small_points",)
    return {
        ranking_list.key: _season_list(
            (
                rankings[ranking_list.key]
                for tournament, rankings in zip(tournaments, per_tournament, strict=True)
                if ranking_list.published(tournament)
            ),
            _results(season, season.team_place_points if ranking_list.teams else season.place_points),
            season.best_of,
            tiebreaks,
        )
        for ranking_list in SEASON_LISTS
    }


def _results(season: Season, place_points: Sequence[float]) -> Results:
    """How one tournament's list counts under the season's scheme: the big points it
    gives (none when only small points count, season points by place for the PSB scheme)
    and the small points; the best ``best_of`` are chosen by the same figures."""

    def results(entries: list[dict[str, Any]]) -> dict[str, Standing]:
        standings = [Standing(str(e["pk"]), e["big_points"], e["small_points"]) for e in entries]
        if season.scheme == SeasonScheme.SMALL:
            return {s.id: Standing(s.id, 0.0, s.small_points) for s in standings}
        if season.scheme == SeasonScheme.PLACES:
            ranked = [Ranked(e["place"], e["label"], s) for e, s in zip(entries, standings, strict=True)]
            return scoring.season_place_points(ranked, place_points)
        return {s.id: s for s in standings}

    return results


def _season_list(
    per_tournament: Iterable[list[dict[str, Any]]], results: Results, best_of: int | None, tiebreaks: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Add up one list (players or teams) over the tournaments: the best ``best_of`` of them when set."""
    season_results: list[dict[str, Standing]] = []
    latest: dict[str, dict[str, Any]] = {}  # name and team as in the player's last tournament
    played: Counter[str] = Counter()
    for entries in per_tournament:
        season_results.append(results(entries))
        for entry in entries:
            latest[str(entry["pk"])] = {"pk": entry["pk"], "name": entry["name"], "team": entry.get("team")}
            played[str(entry["pk"])] += 1
    totals = scoring.season_totals(season_results, best_of)
    counted = _counted_results(season_results, best_of)
    return [
        {
            **latest[r.standing.id],
            "place": r.place,
            "label": r.label,
            "big_points": points(r.standing.big_points),
            "small_points": r.standing.small_points,
            "tournaments": played[r.standing.id],
            # season_totals keeps a player's best ``best_of`` results, all of them when fewer
            "counted": min(played[r.standing.id], best_of or played[r.standing.id]),
            "results": [
                {
                    "big_points": points(result[r.standing.id].big_points),
                    "small_points": result[r.standing.id].small_points,
                    "counted": index in counted[r.standing.id],
                }
                if r.standing.id in result
                else None
                for index, result in enumerate(season_results)
            ],
        }
        for r in scoring.rank(totals.values(), tiebreaks)
    ]


def _counted_results(season_results: list[dict[str, Standing]], best_of: int | None) -> dict[str, set[int]]:
    """Which tournaments (by index) count for each entry: all, or the best ``best_of`` chosen as
    ``scoring.season_totals`` chooses them (big points, then small points; the earlier of equal ones)."""
    per_entry: dict[str, list[tuple[int, Standing]]] = {}
    for index, result in enumerate(season_results):
        for pk, standing in result.items():
            per_entry.setdefault(pk, []).append((index, standing))
    counted: dict[str, set[int]] = {}
    for pk, results in per_entry.items():
        best = sorted(results, key=lambda pair: (pair[1].big_points, pair[1].small_points), reverse=True)
        counted[pk] = {index for index, _ in best[:best_of]}
    return counted
