"""The draw's vocabulary and the small operations on finished draws.

A *seria* (series, also "runda") is one sitting of the whole tournament: every
player is either at a table, seats A–D at a table of four (Baśka, Preferans) or
A–C at a table of three (Preferans), or has a *wolny los* (bye, also "pauza")
and sits the series out.  A *meeting* is two players sharing a
table in one series; a *repeat* is every meeting of a pair beyond its first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .errors import DrawError

Pair = tuple[str, str]
Table = tuple[str, ...]

# Players at a table: four for Baśka, three or four for Preferans.
TABLE_SIZES = (3, 4)
SEAT_LETTERS = "ABCD"


@dataclass(frozen=True)
class DrawPlayer:
    """A player to be drawn; ``team`` None means an individual (plays for no team)."""

    id: str
    team: str | None
    club: str | None = None


@dataclass(frozen=True)
class FixedSeat:
    """A *stałe miejsce* (fixed seat): ``player`` is kept at table ``table`` (1, 2, …) in a new series.

    Kept so for a wheelchair user at the table by the door, or a referee who
    plays at the table by the desk. ``seat`` (0 for A, 1 for B, …) keeps him at
    one letter too; None lets the seat order be drawn. ``series`` is the number
    of the new series (1 for the first one drawn now) it holds in; None means
    every new series.
    """

    player: str
    table: int
    seat: int | None = None
    series: int | None = None


@dataclass(frozen=True)
class SeriesDraw:
    """One series: tables listed in seat order (A–D, or A–C at tables of three), and the players on a bye."""

    tables: list[Table]
    byes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class DrawResult:
    """A finished draw: the seed and algorithm version reproduce it exactly, with ``seeded_by``, the
    strengths its first new series was seeded by (rozstawienie; None when it was not)."""

    seed: int
    series: list[SeriesDraw]
    repeats: int
    max_meetings: int
    algorithm: str
    seeded_by: dict[str, float] | None = None


def pair(a: str, b: str) -> Pair:
    """The canonical (sorted) key of an unordered pair of player ids."""
    return (a, b) if a <= b else (b, a)


def table_pairs(table: Sequence[str]) -> Iterable[Pair]:
    """The pairs that meet at one table (six at a table of four, three at a table of three)."""
    for i, a in enumerate(table):
        for b in table[i + 1 :]:
            yield pair(a, b)


def _meeting_totals(
    series_list: Sequence[SeriesDraw], meetings: Mapping[Pair, int] | None
) -> tuple[dict[Pair, int], int]:
    """Total meetings per pair (earlier ones included) and repeats made by these series."""
    totals: dict[Pair, int] = {}
    for (a, b), count in (meetings or {}).items():
        key = pair(a, b)
        totals[key] = totals.get(key, 0) + count
    repeats = 0
    for series in series_list:
        for table in series.tables:
            for key in table_pairs(table):
                before = totals.get(key, 0)
                # Any meeting after the pair's first one, earlier tournaments included.
                repeats += before >= 1
                totals[key] = before + 1
    return totals, repeats


def count_repeats(series_list: Sequence[SeriesDraw], meetings: Mapping[Pair, int] | None = None) -> int:
    """Repeated meetings in ``series_list``: a pair meeting three times counts twice.

    ``meetings`` are earlier meeting counts (earlier tournaments of the season);
    a meeting here of a pair that already met there counts as a repeat, while
    repeats that happened entirely before are not counted again.
    """
    return _meeting_totals(series_list, meetings)[1]


def max_meetings(series_list: Sequence[SeriesDraw], meetings: Mapping[Pair, int] | None = None) -> int:
    """The highest total meeting count of any pair that shares a table in ``series_list``."""
    totals, _ = _meeting_totals(series_list, meetings)
    seen = {key for series in series_list for table in series.tables for key in table_pairs(table)}
    return max((totals[key] for key in sorted(seen)), default=0)


def _locate(series: SeriesDraw, player: str) -> tuple[int, int] | None:
    """(table, seat) of a player, (-1, index) on a bye, None when absent."""
    for t, table in enumerate(series.tables):
        if player in table:
            return t, table.index(player)
    if player in series.byes:
        return -1, series.byes.index(player)
    return None


def swap(series: SeriesDraw, a: str, b: str) -> SeriesDraw:
    """The series with players ``a`` and ``b`` exchanging places (a seat or a bye)."""
    where_a, where_b = _locate(series, a), _locate(series, b)
    for player, where in ((a, where_a), (b, where_b)):
        if where is None:
            raise DrawError(
                "player_not_in_series",
                f"Player {player} is neither at a table nor on a bye in this series.",
                player=player,
            )
    tables = [list(t) for t in series.tables]
    byes = list(series.byes)

    def put(where: tuple[int, int], player: str) -> None:
        t, i = where
        if t < 0:
            byes[i] = player
        else:
            tables[t][i] = player

    put(where_a, b)  # type: ignore[arg-type]
    put(where_b, a)  # type: ignore[arg-type]
    return SeriesDraw(tables=[tuple(t) for t in tables], byes=byes)  # type: ignore[misc]


def check_swap(series: SeriesDraw, a: str, b: str, teams: Mapping[str, str | None]) -> None:
    """Refuse a manual swap of ``a`` and ``b`` that would seat teammates together."""
    swapped = swap(series, a, b)
    for table in swapped.tables:
        if a not in table and b not in table:
            continue
        for i, x in enumerate(table):
            for y in table[i + 1 :]:
                team = teams.get(x)
                if team is not None and team == teams.get(y):
                    raise DrawError(
                        "teammates_at_table",
                        f"Swapping {a} and {b} would seat {x} and {y} of team {team} at the same table.",
                        player=x,
                        other=y,
                        team=team,
                    )


def seat_balance(series_list: Sequence[SeriesDraw]) -> int:
    """The most times any player sits at the same seat letter."""
    counts: dict[tuple[str, int], int] = {}
    for series in series_list:
        for table in series.tables:
            for seat, player in enumerate(table):
                counts[player, seat] = counts.get((player, seat), 0) + 1
    return max(counts.values(), default=0)


def teammates_apart(series_list: Sequence[SeriesDraw], teams: Mapping[str, str | None]) -> bool:
    """True when no table of any series holds two members of one team."""
    for series in series_list:
        for table in series.tables:
            named = [teams[p] for p in table if teams.get(p) is not None]
            if len(named) != len(set(named)):
                return False
    return True
