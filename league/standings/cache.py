"""Tournament and season standings in Django's cache, keyed by a stamp of their data.

``league.standings.compute`` ranks a tournament and ``league.standings.seasons``
adds up a season; this module keeps both in the cache for the public site.

The cache key carries the tournament's stamp, stored anew by every change the
standings are computed from (``league.standings.refresh``) and read in one query.
A corrected protocol therefore changes the key, and the old standings can never
be served, whether or not the recompute task has run yet; the task only makes
sure the next visitor finds the new standings already computed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, NamedTuple, NotRequired, TypedDict

from django.db.models import QuerySet
from django.db.models.functions import Coalesce

from league.caching import StampedKind
from league.models import Season, Series, Tournament
from league.results.models import DealRow
from league.standings.compute import tournament_standings
from league.standings.seasons import Rankings, season_standings, season_tournaments


class RankedEntry(TypedDict):
    """One entry of a standing list as the cache keeps it (``league.standings.compute``)."""

    place: int
    label: str
    name: str
    pk: int
    team: NotRequired[str | None]  # players only
    big_points: int | float
    small_points: int | float


class PackedSeasonEntry(RankedEntry):
    """One entry of a season's table as kept (``_packed``): its results only where it played,
    each as ``(index, big points, small points, counted)``, and ``of`` how many there are."""

    tournaments: int
    counted: int
    of: int
    results: list[tuple[int, int | float, int | float, bool]]


class SeasonResult(TypedDict):
    big_points: int | float
    small_points: int | float
    counted: bool


class SeasonEntry(RankedEntry):
    """One entry of a season's table with every tournament's result (``None``: not ranked there)."""

    tournaments: int
    counted: int
    results: list[SeasonResult | None]


# player pk → place and its label ("3–4.") in the individual ranking
Places = dict[int, tuple[int, str]]

TOURNAMENT_RANKINGS: StampedKind[Rankings] = StampedKind("tournament-rankings", dict[str, list[RankedEntry]])
PROGRESS: StampedKind[list[tuple[int, Places]]] = StampedKind("places-after-each-series", list[tuple[int, Places]])
SEASON_RANKINGS: StampedKind[Rankings] = StampedKind("season-rankings", dict[str, list[PackedSeasonEntry]])
PLAYER_SEASONS: StampedKind[list[dict[str, Any] | None]] = StampedKind("player-seasons", list[SeasonEntry | None])


# --- the stamp --------------------------------------------------------------


class Stamps(dict[int, str]):
    """Tournaments' standings stamps by pk (``"0"`` for one no change has touched yet), and
    ``changed``: when the latest of them was written (``TournamentStamp.changed``; for a tournament
    no change has touched since the stamps were stored, as after the upgrade that brought them,
    its row's last save: nothing it shows can change without a write that stamps it), a page's
    ``Last-Modified`` (``league.public.page_store``)."""

    def __init__(self, tokens: dict[int, str], changed: datetime | None) -> None:
        super().__init__(tokens)
        self.changed = changed


def stamps(tournaments: QuerySet[Tournament]) -> Stamps:
    """Each tournament's standings stamp (``league.standings.refresh``) and the latest change
    among them, in one query."""
    rows = list(
        tournaments.order_by().values_list(
            "pk", "standings_stamp__token", Coalesce("standings_stamp__changed", "updated")
        )
    )
    tokens = {pk: token or "0" for pk, token, _changed in rows}
    return Stamps(tokens, latest(*(changed for _pk, _token, changed in rows)))


def latest(*times: datetime | None) -> datetime | None:
    """The latest of ``times`` that are known, ``None`` when none is."""
    return max((time for time in times if time is not None), default=None)


class TournamentStampRead(NamedTuple):
    """One tournament's pk, standings stamp and when it was written (:class:`Stamps`)."""

    pk: int
    token: str
    changed: datetime | None


def stamp_of(tournaments: QuerySet[Tournament]) -> TournamentStampRead | None:
    """The :class:`TournamentStampRead` of the tournament ``tournaments`` finds (``None`` if none), in one query."""
    found = stamps(tournaments)
    return next((TournamentStampRead(pk, token, found.changed) for pk, token in found.items()), None)


# --- tournaments ------------------------------------------------------------


def tournament_rankings(tournament: Tournament, stamp: str | None = None) -> Rankings:
    """The tournament's public standing lists (closed, published series), from the cache when current.

    The lists of ``league.standings.compute``: docs/interfaces.md §4 with ``label``,
    players and teams named by ``pk``.
    """
    stamp = stamp or stamps(Tournament.objects.filter(pk=tournament.pk))[tournament.pk]
    return TOURNAMENT_RANKINGS.current(
        f"rankings:tournament:{tournament.pk}", stamp, lambda: tournament_standings(tournament, published_only=True)
    )


def rankings_of(tournaments: Sequence[Tournament], current: dict[int, str]) -> dict[int, Rankings]:
    """:func:`tournament_rankings` of each of ``tournaments`` (by pk) under its stamp in ``current``,
    read from the cache in one round trip: a player's page names every tournament they played."""
    keys = {f"rankings:tournament:{t.pk}": t for t in tournaments}
    kept = TOURNAMENT_RANKINGS.current_many({key: current[t.pk] for key, t in keys.items()})
    return {t.pk: kept[key] if key in kept else tournament_rankings(t, current[t.pk]) for key, t in keys.items()}


def places_after_each_series(tournament: Tournament, stamp: str | None = None) -> list[tuple[int, Places]]:
    """Each public series' number with the individual ranking as it stood after it, for the
    chart on a player's page; from the cache when current. The last is the tournament's own
    ranking; an earlier one ranks the series up to it alone, as ``compute`` would have then."""
    stamp = stamp or stamps(Tournament.objects.filter(pk=tournament.pk))[tournament.pk]
    return PROGRESS.current(f"rankings:progress:{tournament.pk}", stamp, lambda: _progress(tournament, stamp))


def progress_of(tournaments: Sequence[Tournament], current: dict[int, str]) -> dict[int, list[tuple[int, Places]]]:
    """:func:`places_after_each_series` of each of ``tournaments`` (by pk), in one round trip as
    :func:`rankings_of`."""
    keys = {f"rankings:progress:{t.pk}": t for t in tournaments}
    kept = PROGRESS.current_many({key: current[t.pk] for key, t in keys.items()})
    return {t.pk: kept[key] if key in kept else places_after_each_series(t, current[t.pk]) for key, t in keys.items()}


def _progress(tournament: Tournament, stamp: str) -> list[tuple[int, Places]]:
    # a series counts once a table has a deal (compute), so these are the series it ranks
    played = DealRow.objects.filter(
        protocol__series__tournament=tournament,
        protocol__series__status=Series.Status.CLOSED,
        protocol__series__results_published=True,
    )
    numbers = list(
        played.order_by("protocol__series__number").values_list("protocol__series__number", flat=True).distinct()
    )
    progress = []
    for number in numbers:
        lists = (
            tournament_rankings(tournament, stamp)
            if number == numbers[-1]
            else tournament_standings(tournament, published_only=True, through_series=number)
        )
        progress.append((number, {e["pk"]: (e["place"], e["label"]) for e in lists["individual"]}))
    return progress


# --- seasons ----------------------------------------------------------------


def season_rankings(season: Season) -> Rankings:
    """The season's individual and team tables, summed over its counted tournaments."""
    tournaments = list(season_tournaments(season))
    return season_rankings_of(season, tournaments, stamps(season_tournaments(season)))


def season_rankings_of(
    season: Season,
    tournaments: list[Tournament],
    tournament_stamps: dict[int, str],
    lists: Callable[[], dict[int, Rankings]] | None = None,
) -> Rankings:
    """The season's tables given its counted tournaments (in date order) and their stamps,
    so a page showing several seasons reads all the stamps in one query. ``lists`` gives the
    tournaments' standing lists (by pk) where the caller has them at hand (a player's page: from
    the kept results, ``league.standings.summaries.kept_rankings``); else they come from the cache."""

    return _unpacked(_season_packed(season, tournaments, tournament_stamps, lists))


def season_entry_of(
    season: Season,
    tournaments: list[Tournament],
    tournament_stamps: dict[int, str],
    player_id: int,
    lists: Callable[[], dict[int, Rankings]] | None = None,
) -> dict[str, Any] | None:
    """The player's entry of the season's individual table (:func:`season_rankings_of`), or
    ``None``: a player's page shows their own line of every season they played, and unpacking
    every season's whole table for it cost more than the rest of the page."""
    packed = _season_packed(season, tournaments, tournament_stamps, lists)
    entry = next((e for e in packed["individual"] if e["pk"] == player_id), None)
    return None if entry is None else _unpacked({"individual": [entry]})["individual"][0]


def _season_packed(
    season: Season,
    tournaments: list[Tournament],
    tournament_stamps: dict[int, str],
    lists: Callable[[], dict[int, Rankings]] | None,
) -> Rankings:
    def build() -> Rankings:
        per_tournament = lists() if lists is not None else rankings_of(tournaments, tournament_stamps)
        return _packed(season_standings(season, tournaments, [per_tournament[t.pk] for t in tournaments]))

    return SEASON_RANKINGS.current(f"rankings:season:{season.pk}", season_digest(season, tournament_stamps), build)


def season_digest(season: Season, tournament_stamps: dict[int, str]) -> str:
    """A digest of all a season's tables depend on: its settings and its counted tournaments' stamps."""
    settings = (season.best_of, season.scheme, season.place_points, season.team_place_points)
    return hashlib.blake2b(repr((settings, sorted(tournament_stamps.items()))).encode(), digest_size=8).hexdigest()


def _packed(rankings: Rankings) -> Rankings:
    """The season's tables as kept in the cache: each entry's ``results`` only for the tournaments
    it played, as ``[index, big points, small points, counted]``, and ``of`` how many there are.
    A regular plays a tenth of a long season's tournaments; listing every one for every player
    took megabytes per season at 300 tournaments."""
    return {
        key: [
            {
                **entry,
                "of": len(entry["results"]),
                "results": [
                    [index, r["big_points"], r["small_points"], r["counted"]]
                    for index, r in enumerate(entry["results"])
                    if r is not None
                ],
            }
            for entry in entries
        ]
        for key, entries in rankings.items()
    }


def _unpacked(packed: Rankings) -> Rankings:
    """The season's tables as ``_packed`` kept them, with every tournament's result again."""
    rankings: Rankings = {}
    for key, entries in packed.items():
        rankings[key] = []
        for kept in entries:
            entry = {name: value for name, value in kept.items() if name != "of"}
            entry["results"] = [None] * kept["of"]
            for index, big, small, counted in kept["results"]:
                entry["results"][index] = {"big_points": big, "small_points": small, "counted": counted}
            rankings[key].append(entry)
    return rankings


def refresh(tournament_id: int) -> None:
    """Compute and cache the current standings of a tournament and of its season (the recompute
    task then keeps its players' results from them: ``league.standings.summaries``)."""
    tournament = Tournament.objects.select_related("season").filter(pk=tournament_id).first()
    if tournament is None:  # deleted before the task ran
        return
    stamp = stamps(Tournament.objects.filter(pk=tournament.pk))[tournament.pk]
    tournament_rankings(tournament, stamp)
    places_after_each_series(tournament, stamp)
    if tournament.season is not None and tournament.counts_for_season:
        season_rankings(tournament.season)
