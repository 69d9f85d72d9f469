"""Reads of the ratings: the matches they are computed from, and the kept ratings the pages show.

The matches come from the one read of table totals (``league.standings.tables.seat_totals``,
which ``table_totals`` sums by for the standings and the public pages): a series counts once it is closed with its
results published, in a published tournament, as it does on every public page.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Max, OuterRef, QuerySet, Subquery

from league.games import registered_games
from league.models import League, Series, TableAssignment
from league.rating.compute import PROVISIONAL_SERIES, Sitting, Table, displayed, places
from league.rating.models import RatedTournament, Rating
from league.results.models import DealRow
from league.standings.tables import seat_totals
from players.models import Player, public_name_of
from players.names import name_key


@dataclass(frozen=True)
class TournamentSittings:
    """One tournament's rated series in order (each ``Sitting.key`` the series' pk, with its number
    in ``numbers``), with the digest a refresh compares."""

    tournament_id: int
    date: date
    sittings: list[Sitting]
    numbers: dict[int, int]

    @property
    def digest(self) -> str:
        return sittings_digest(self.date, self.sittings)


def sittings_digest(when: date, sittings: list[Sitting]) -> str:
    """A short digest of a tournament's date and matches: it moves with any result that counts."""
    return hashlib.blake2b(repr((when, sittings)).encode(), digest_size=8).hexdigest()


def rated_series() -> QuerySet[Series]:
    """The series the ratings count: closed, with results published, of a published tournament."""
    return Series.objects.filter(
        status=Series.Status.CLOSED, results_published=True, tournament__published=True
    ).order_by()


def tournament_sittings(*, since: date | None = None, tournament_id: int | None = None) -> list[TournamentSittings]:
    """Each tournament's rated series (of those from the day ``since`` on, or of the one tournament),
    in time order (the tournament's date, then its pk, then the series' number), in three queries:
    each table with its players and their small points (``league.standings.tables.seat_totals``,
    the tables' totals every page reads); a table before its first deal is no match."""
    series = rated_series()
    if since is not None:
        series = series.filter(tournament__date__gte=since)
    if tournament_id is not None:
        series = series.filter(tournament_id=tournament_id)
    # the seats as plain values: a history's 60,000 seats as model instances with their players
    # took longer than rating them
    seated: dict[tuple[int, int], list[tuple[str, int]]] = defaultdict(list)
    seats = TableAssignment.objects.filter(series__in=series).order_by()
    for series_id, table, seat, player_id in seats.values_list("series_id", "table", "seat", "player_id"):
        seated[series_id, table].append((seat, player_id))
    totals = seat_totals(DealRow.objects.filter(protocol__series__in=series))
    tables: dict[int, list[Table]] = defaultdict(list)
    for (series_id, table), players in sorted(seated.items()):
        points = totals.get((series_id, table))
        if points is None:
            continue  # no deal yet
        tables[series_id].append(Table(table, tuple((player, points[seat]) for seat, player in sorted(players))))
    found: dict[int, TournamentSittings] = {}
    in_order = series.order_by("tournament__date", "tournament_id", "number")
    for series_id, number, tournament, when, game in in_order.values_list(
        "pk", "number", "tournament_id", "tournament__date", "tournament__game"
    ):
        if series_id in tables:
            kept = found.setdefault(tournament, TournamentSittings(tournament, when, [], {}))
            kept.sittings.append(Sitting(series_id, game, tuple(tables[series_id])))
            kept.numbers[series_id] = number
    return list(found.values())


def ratings_stamp() -> tuple[int, int]:
    """How many rating rows there are and the newest one's pk: any rewrite moves it (one query),
    so a kept page naming ratings is laid out again after it."""
    found = Rating.objects.aggregate(count=Count("pk"), newest=Max("pk"))
    return (found["count"], found["newest"] or 0)


def rated_stamp() -> Subquery:
    """For a query of tournaments: the pk of what the ratings last read of each (``RatedTournament``),
    written afresh whenever its series are rated again, so a page showing their expected orders
    knows, within the query that reads the tournament, that they moved."""
    return Subquery(RatedTournament.objects.filter(tournament=OuterRef("pk")).values("pk")[:1])


@dataclass(frozen=True)
class ListedRating:
    """One player's line of the rating list: place (shared by equal ratings), the rating as shown,
    the series it rests on (provisional below ``PROVISIONAL_SERIES``) and the last day they played."""

    place: int
    player_id: int
    name: str
    gender: str
    shown: int
    series: int
    last_played: date

    @property
    def provisional(self) -> bool:
        return self.series < PROVISIONAL_SERIES


def rating_list(
    *, game: str, league: League | None = None, active_since: date | None = None, gender: str = ""
) -> list[ListedRating]:
    """The rating list of ``game``: each player's latest rating, the highest first, equal ratings in
    Polish order of names and sharing their place; only players who played a series of ``league``,
    who played since ``active_since``, of ``gender``, where given. Places count the list shown."""
    rows = Rating.objects.filter(game=game, latest=True)
    if league is not None:
        rows = rows.filter(player__in=Rating.objects.filter(game=game, tournament__league=league).values("player"))
    if active_since is not None:
        rows = rows.filter(date__gte=active_since)
    if gender:
        rows = rows.filter(player__gender=gender)
    lines = [
        (
            displayed(mu, sigma),
            (name_key(last), name_key(first)),
            pk,
            public_name_of(first, last, initials=initials, club=club),  # RODO: initials and club where asked
            sex,
            count,
            when,
        )
        for pk, first, last, initials, club, sex, mu, sigma, count, when in rows.order_by().values_list(
            "player_id",
            "player__first_name",
            "player__last_name",
            "player__public_initials",
            "player__club__name",
            "player__gender",
            "mu",
            "sigma",
            "series_count",
            "date",
        )
    ]
    lines.sort(key=lambda line: (-line[0], line[1], line[2]))
    ranks = places([line[0] for line in lines])
    return [
        ListedRating(place, pk, name, sex, shown, count, when)
        for place, (shown, _key, pk, name, sex, count, when) in zip(ranks, lines, strict=True)
    ]


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating in one game, its place in the whole list of that game (of ``of`` players),
    and its history in time order (each row a series played)."""

    game: str
    current: Rating
    place: int
    of: int
    history: list[Rating]


def player_ratings(player: Player) -> list[PlayerRating]:
    """The player's rating in each game they have played a rated series of, in two queries."""
    history: dict[str, list[Rating]] = defaultdict(list)
    for row in (
        Rating.objects.filter(player=player).select_related("tournament").order_by("date", "tournament", "number")
    ):
        history[row.game].append(row)
    if not history:
        return []
    shown: dict[str, list[int]] = defaultdict(list)
    for game, mu, sigma in Rating.objects.filter(latest=True, game__in=list(history)).values_list(
        "game", "mu", "sigma"
    ):
        shown[game].append(displayed(mu, sigma))
    found = []
    order = list(registered_games())  # the games in the settings' order, the usual first
    for game, rows in sorted(history.items(), key=lambda item: order.index(item[0])):
        current = rows[-1]
        place = 1 + sum(value > current.shown for value in shown[game])
        found.append(PlayerRating(game, current, place, len(shown[game]), rows))
    return found


def table_expectations(*, series: Series, table: int) -> dict[int, Rating]:
    """The rating rows of one table of a series, by player: the place each was expected to take."""
    return {row.player_id: row for row in Rating.objects.filter(series=series, table=table)}


def current_ratings(*, game: str, player_ids: Collection[int]) -> dict[int, int]:
    """Each of ``player_ids``' current rating in ``game`` as shown, in one query; a player who has
    played no rated series of it is left out (the draw's rozstawienie counts them the weakest)."""
    rows = Rating.objects.filter(game=game, latest=True, player_id__in=list(player_ids)).order_by()
    return {pk: displayed(mu, sigma) for pk, mu, sigma in rows.values_list("player_id", "mu", "sigma")}
