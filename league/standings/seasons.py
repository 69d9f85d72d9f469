"""Season tables (klasyfikacja sezonu): the tournaments of a season added up, best K of N.

A season adds up the individual and team lists of the tournaments that count
for it; with ``Season.best_of`` set, only each player's (or team's) best
``best_of`` results count. Players and teams are matched by primary key.

A tournament's list counts only while its organiser publishes it: a season
table is public, and must not show what the tournament's own page keeps back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

import scoring
from league.models import Season, Tournament
from league.standings.compute import points
from league.standings.lists import SEASON_LISTS
from scoring import Standing

Rankings = dict[str, list[dict[str, Any]]]


def season_tournaments(*seasons: Season) -> QuerySet[Tournament]:
    """The published tournaments that count for the seasons, in date order."""
    return Tournament.objects.filter(season__in=seasons, counts_for_season=True, published=True).order_by("date", "pk")


def season_standings(season: Season, tournaments: list[Tournament], per_tournament: list[Rankings]) -> Rankings:
    """The season's individual and team tables from its tournaments' standing lists (in the same order),
    each adding up the tournaments that publish that list."""
    # big points lead only when some tournament awards them; otherwise small points alone rank
    tiebreaks = ("big_points", "small_points") if any(t.uses_big_points for t in tournaments) else ("small_points",)
    return {
        ranking_list.key: _season_list(
            (
                rankings[ranking_list.key]
                for tournament, rankings in zip(tournaments, per_tournament, strict=True)
                if ranking_list.published(tournament)
            ),
            season.best_of,
            tiebreaks,
        )
        for ranking_list in SEASON_LISTS
    }


def _season_list(
    per_tournament: Iterable[list[dict[str, Any]]], best_of: int | None, tiebreaks: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Add up one list (players or teams) over the tournaments: the best ``best_of`` of them when set."""
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
