"""Writes of the ratings: rewriting the kept rows (``league.rating.models``) from the series whose
inputs changed on, by the pure computation (``league.rating.compute``).

:func:`ratings_refresh` runs after every change of a tournament's results (the standings'
recompute task calls it: a series closed or reopened, a correction, published results): it
compares the tournament's matches with what the ratings last read of it and, when they differ,
rates again from that tournament's day on (:func:`ratings_recompute`), starting from each
player's rating as it stood the day before. A correction a year back therefore rewrites a
year of rows; a series closed tonight, tonight's. ``manage.py rebuild_ratings`` rewrites all.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from itertools import islice

from django.db import connection, transaction
from django.db.models import Min

from league.models import Tournament
from league.rating.compute import Skill, rate_history
from league.rating.models import RatedTournament, Rating
from league.rating.selectors import tournament_sittings
from players.models import Player


def ratings_refresh(*, tournament_id: int) -> bool:
    """Rate again from ``tournament_id``'s day on if its matches or its date changed since the
    ratings last read it (else nothing is written); returns whether they did."""
    day = Tournament.objects.filter(pk=tournament_id).values_list("date", flat=True).first()
    if day is None:  # deleted before the task ran: nothing was drawn, so nothing was rated
        return False
    [read] = tournament_sittings(tournament_id=tournament_id) or [None]
    kept = RatedTournament.objects.filter(tournament_id=tournament_id).values_list("date", "digest").first()
    if read is None and kept is None:
        return False
    if read is not None and kept == (read.date, read.digest):
        return False
    # from the earlier of the day it had and the day it has: a moved date moves it in time
    ratings_recompute(since=min(day, kept[0]) if kept else day)
    return True


def ratings_after_merge(*, player: Player) -> None:
    """Rate again from the first series of ``player``, who has just taken over the rows of another."""
    first = Rating.objects.filter(player=player).aggregate(first=Min("date"))["first"]
    if first is not None:
        ratings_recompute(since=first)


# the columns :func:`rows_insert` writes, in its order
INSERTED = (
    "player",
    "series",
    "tournament",
    "date",
    "number",
    "game",
    "table",
    "mu",
    "sigma",
    "series_count",
    "expected_place",
    "place",
    "latest",
)
INSERT_BATCH = 5000


def rows_insert(values: Iterable[tuple[object, ...]]) -> None:
    """Insert rating rows given as values of ``INSERTED``, ``INSERT_BATCH`` at a time.

    A full rebuild writes some 60,000 rows: through ``bulk_create`` a model instance each and
    every field prepared one by one took most of the rebuild's five seconds. The values here are
    plain numbers, the game's code and a date (made the database's date value here), which the
    driver takes as they are; ``Rating`` has no ``save`` of its own to skip.
    """
    fields = [Rating._meta.get_field(name) for name in INSERTED]
    quote = connection.ops.quote_name
    statement = "INSERT INTO {} ({}) VALUES ({})".format(
        quote(Rating._meta.db_table),
        ", ".join(quote(field.column) for field in fields),
        ", ".join(["%s"] * len(fields)),
    )
    at_date = INSERTED.index("date")
    values = iter(values)
    with connection.cursor() as cursor:
        while batch := list(islice(values, INSERT_BATCH)):
            cursor.executemany(
                statement,
                [
                    (*row[:at_date], connection.ops.adapt_datefield_value(row[at_date]), *row[at_date + 1 :])
                    for row in batch
                ],
            )


@transaction.atomic
def ratings_recompute(*, since: date | None = None) -> int:
    """Rewrite every rating row from the day ``since`` on (all of them without it) from the matches,
    starting from each player's rating the day before; returns how many rows were written.

    Two rewrites overlapping in time (two referees closing series of two tournaments of one day)
    wait for each other on the tournaments' rows, so neither deletes the rows the other writes.
    """
    later = Tournament.objects.select_for_update().order_by("pk")
    list((later.filter(date__gte=since) if since else later).values_list("pk"))
    read = tournament_sittings(since=since)
    rows = Rating.objects.all() if since is None else Rating.objects.filter(date__gte=since)
    earlier = Rating.objects.none() if since is None else Rating.objects.filter(date__lt=since)
    # Each player's rating the day before: the latest row where it is their last, else (they have
    # rows from that day on) their last row before it.
    start: dict[tuple[str, int], tuple[int, Skill]] = {}
    fields = ("game", "player_id", "pk", "mu", "sigma", "series_count")
    for game, player, pk, mu, sigma, count in earlier.filter(latest=True).values_list(*fields):
        start[game, player] = (pk, Skill(mu, sigma, count))
    played_on: dict[tuple[str, int], int] = {}  # those with rows from that day on: their last row before it
    for game, player, pk, mu, sigma, count in (
        earlier.filter(player__in=rows.values("player"))
        .order_by("date", "tournament_id", "number")
        .values_list(*fields)
    ):
        start[game, player] = (pk, Skill(mu, sigma, count))
        played_on[game, player] = pk
    tournament_of = {sitting.key: kept for kept in read for sitting in kept.sittings}
    rated, _skills = rate_history(
        (sitting for kept in read for sitting in kept.sittings), {key: skill for key, (_, skill) in start.items()}
    )
    rows.delete()
    last = {(r.game, r.person): r for r in rated}
    rows_insert(
        (
            r.person,
            r.key,
            tournament_of[r.key].tournament_id,
            tournament_of[r.key].date,
            tournament_of[r.key].numbers[r.key],
            r.game,
            r.table,
            r.skill.mu,
            r.skill.sigma,
            r.skill.series,
            r.expected_place,
            r.place,
            last[r.game, r.person] is r,
        )
        for r in rated
    )
    # the rows before the day stop being the latest where a new one follows, and are again where none does
    Rating.objects.filter(pk__in=[pk for key, (pk, _) in start.items() if key in last]).update(latest=False)
    Rating.objects.filter(pk__in=[pk for key, pk in played_on.items() if key not in last]).update(latest=True)
    kept_tournaments = (
        RatedTournament.objects.all() if since is None else RatedTournament.objects.filter(date__gte=since)
    )
    kept_tournaments.delete()
    RatedTournament.objects.bulk_create(
        RatedTournament(tournament_id=kept.tournament_id, date=kept.date, digest=kept.digest) for kept in read
    )
    return len(rated)
