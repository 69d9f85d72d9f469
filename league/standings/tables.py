"""Wynik stolika (a table's result): one table of one series as the standings count it and
every page shows it.

A table's **small points** (małe punkty) are its protocol's totals, the sum of each seat's
deal values (or what the game values its rows by). Its **places** go by them, tied
seats sharing the places they cover, and the places give **big points** (duże punkty) by the
tournament's rules; ``scoring`` decides both, and prints a place as the standings do: "1.",
or "1–2." for a place shared.

One rule for a table with an empty seat (docs/rules.md §6): the table counts for the players
seated at it, placed among themselves; a seat nobody took (say after a withdrawal) is nobody's
result. Seat D at a Preferans table of three is no empty seat: such a table has no seat D.

:func:`table_totals` reads the tables (summed by :func:`seat_totals`), :func:`table_places` places
one of them; the standings (``compute``), the public series pages (``selectors``), a player's
series (``league.public.player_history``) and the ratings (``league.rating``) all read them here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Exists, F, OuterRef, QuerySet, Sum

import scoring
from league.models import Series, TableAssignment
from league.results.models import DealRow
from players.models import Player
from scoring.preferans import TournamentRules


@dataclass(frozen=True)
class TableTotals:
    """One seated table of one series: who sits where, in seat order (the seats taken only,
    each with its player read), and their small points, or None before the table's first deal."""

    tournament_id: int
    series_number: int
    table: int
    seats: dict[str, TableAssignment]
    small_points: dict[str, int] | None


def table_totals(
    *, series: QuerySet[Series], player: Player | None = None, with_totals: bool = True
) -> list[TableTotals]:
    """Every seated table of ``series`` (a queryset of series, of one or many tournaments), by
    series number and table, in two queries (one ``with_totals=False``, where the small points
    are not wanted). With ``player``, only the tables where they sit."""
    assignments = TableAssignment.objects.filter(series__in=series)
    rows = DealRow.objects.filter(protocol__series__in=series)
    if player is not None:
        player_seats = TableAssignment.objects.filter(player=player)
        assignments = assignments.filter(
            Exists(player_seats.filter(series=OuterRef("series"), table=OuterRef("table")))
        )
        rows = rows.filter(
            Exists(player_seats.filter(series=OuterRef("protocol__series"), table=OuterRef("protocol__table")))
        )
    seated: dict[tuple[int, int], dict[str, TableAssignment]] = {}
    for assignment in (
        assignments.select_related("player", "player__club")
        .annotate(number=F("series__number"), tournament_id=F("series__tournament_id"))
        .order_by("series__number", "table", "seat")
    ):
        seated.setdefault((assignment.series_id, assignment.table), {})[assignment.seat] = assignment

    small: dict[tuple[int, int], dict[str, int]] = {}
    if with_totals:
        for key, totals in seat_totals(rows).items():
            taken = seated.get(key, {})
            # no player's result: the total of a seat nobody took, or of D at a table of three (always 0)
            small[key] = {s: v for s, v in totals.items() if s in taken}
    tables = []
    for key, seats in seated.items():
        first = next(iter(seats.values()))
        tables.append(TableTotals(first.tournament_id, first.number, first.table, seats, small.get(key)))
    return tables


def seat_totals(rows: QuerySet[DealRow]) -> dict[tuple[int, int], dict[str, int]]:
    """Each protocol's small points of ``rows`` seat by seat (every seat, taken or not), by series pk
    and table, in one query: :func:`table_totals` keeps the seats taken; the ratings
    (``league.rating.selectors``), which read a whole history's tables, read the seats as values."""
    sums = (Sum(f"value_{seat.lower()}") for seat in scoring.SEATS)
    return {
        (series_id, table): dict(zip(scoring.SEATS, values, strict=True))
        for series_id, table, *values in rows.values_list("protocol__series_id", "protocol__table")
        .annotate(*sums)
        .order_by()
    }


@dataclass(frozen=True)
class SeatResult:
    """One seat's result at its table: small points, big points for its place (unrounded) and
    the place as printed ("1." or, shared, "1–2.")."""

    small_points: int
    big_points: float
    place: str


def table_places(small_points: Mapping[str, int], rules: scoring.Ruleset | TournamentRules) -> dict[str, SeatResult]:
    """Each seat's result at one table from the seats' small points, by ``scoring``: big points
    by the tournament's ``rules`` (``Tournament.standing_rules``), places by small points."""
    big = scoring.placement_points(small_points, rules)
    ranked = scoring.rank(
        [scoring.Standing(seat, small_points=points) for seat, points in small_points.items()], ["small_points"]
    )
    places = {r.standing.id: r.label for r in ranked}
    return {seat: SeatResult(points, big[seat], places[seat]) for seat, points in small_points.items()}
