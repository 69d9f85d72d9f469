"""Who sits where, on paper: a slip for each player and the noticeboard list.

A **karteczka** (seating slip) is cut from an A4 sheet of ten and handed to a
player: their name and, for each drawn series, their table (stolik) and seat
(miejsce, A–D), with the opponents while they fit. The **lista na tablicę**
(noticeboard list) is every player by surname, Polish order, with the table and
seat of each drawn series in columns, in type large enough to read on a wall.
Both show every drawn series, published or not: the organiser prints them before
the draw goes up on the public pages.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from league.models import Bye, Series, TableAssignment, Tournament
from players.models import Player, public_name_of
from players.names import player_key

SLIPS_PER_ROW, SLIP_ROWS = 2, 5  # ten slips on an A4 page
# a slip names the opponents while one row per series fits it; with more series it is a grid
SLIP_OPPONENTS_UP_TO = 4


@dataclass
class Place:
    """A player's seat in one series: table and seat, a bye (pauza), or neither."""

    series: int
    table: int | None = None
    seat: str = ""
    bye: bool = False
    opponents: list[str] = field(default_factory=list)


@dataclass
class PlayerSeating:
    """A player's place in each drawn series, and their name as the public sees it (``shown``:
    the initials and club of a player who asked so, RODO) for the sheets posted in the hall."""

    player: Player
    places: list[Place]
    shown: str = ""


def drawn_series_numbers(tournament: Tournament) -> list[int]:
    return list(
        tournament.series.exclude(status=Series.Status.PLANNED).order_by("number").values_list("number", flat=True)
    )


def player_seatings(tournament: Tournament, numbers: list[int]) -> list[PlayerSeating]:
    """Every player seated or sitting out in a drawn series ``numbers``, by surname in Polish
    order, with a place for each of those series; three queries however many tables."""
    assignments = (
        TableAssignment.objects.filter(series__tournament=tournament, series__number__in=numbers)
        .values_list("series__number", "table", "seat", "player_id", *NAME_FIELDS)
        .order_by("series__number", "table", "seat")
    )
    players: dict[int, Player] = {}
    shown: dict[int, str] = {}
    at_table: dict[tuple[int, int], list[tuple[str, int, str]]] = defaultdict(list)
    for number, table, seat, pk, *name in assignments:
        player = _named(players, shown, pk, *name)
        # an opponent on another player's slip is named as the public sees them
        at_table[number, table].append((seat, pk, shown[player.pk]))
    places: dict[tuple[int, int], Place] = {}
    for (number, table), seats in at_table.items():
        for seat, pk, _name in seats:
            opponents = [f"{other_seat} {name}" for other_seat, other, name in seats if other != pk]
            places[number, pk] = Place(number, table, seat, opponents=opponents)
    byes = Bye.objects.filter(series__tournament=tournament, series__number__in=numbers).values_list(
        "series__number", "player_id", *NAME_FIELDS
    )
    for number, pk, *name in byes:
        _named(players, shown, pk, *name)
        places[number, pk] = Place(number, bye=True)
    return [
        PlayerSeating(player, [places.get((number, player.pk), Place(number)) for number in numbers], shown[player.pk])
        for player in sorted(players.values(), key=player_key)
    ]


NAME_FIELDS = ("player__first_name", "player__last_name", "player__public_initials", "player__club__name")


def _named(
    players: dict[int, Player], shown: dict[int, str], pk: int, first: str, last: str, initials: bool, club: str | None
) -> Player:
    if pk not in players:
        players[pk] = Player(pk=pk, first_name=first, last_name=last, public_initials=initials)
        shown[pk] = public_name_of(first, last, initials=initials, club=club)
    return players[pk]


def seating_slips(tournament: Tournament) -> dict[str, object]:
    """The slips in pages of ten, rows of two, for the template's cut-line grid."""
    numbers = drawn_series_numbers(tournament)
    seatings = player_seatings(tournament, numbers)
    per_page = SLIPS_PER_ROW * SLIP_ROWS
    pages = [
        [page[row : row + SLIPS_PER_ROW] for row in range(0, len(page), SLIPS_PER_ROW)]
        for page in (seatings[start : start + per_page] for start in range(0, len(seatings), per_page))
    ]
    return {"numbers": numbers, "pages": pages, "with_opponents": len(numbers) <= SLIP_OPPONENTS_UP_TO}


def noticeboard(tournament: Tournament) -> dict[str, object]:
    """Everyone by surname, a column per drawn series."""
    numbers = drawn_series_numbers(tournament)
    return {"numbers": numbers, "seatings": player_seatings(tournament, numbers)}
