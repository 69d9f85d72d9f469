"""The table draw ("losowanie stołów") of Baśka and Preferans tournaments, without Django.

Players are seated four to a table in every *seria* (series), or three to a
table for Preferans where the tournament says so; the remainder gets a
*wolny los* (bye).  Teammates never share a table, and pairs of players
meet as rarely as possible across the tournament.  See docs/draw.md for the method.
"""

from .bound import repeat_lower_bound
from .errors import DrawError
from .model import DrawPlayer, DrawResult, FixedSeat, SeriesDraw, check_swap, count_repeats, swap
from .problem import check_fixed_seats
from .tournament import ALGORITHM_VERSION, draw_tournament

__all__ = [
    "ALGORITHM_VERSION",
    "DrawError",
    "DrawPlayer",
    "DrawResult",
    "FixedSeat",
    "SeriesDraw",
    "check_fixed_seats",
    "check_swap",
    "count_repeats",
    "draw_tournament",
    "repeat_lower_bound",
    "swap",
]
