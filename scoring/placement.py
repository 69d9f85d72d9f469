"""Big points ("duże punkty") for the places at one table in one series, and
the compensation for a bye ("wolny los", "pauza").

Players with equal small points share their places: each gets an equal share
of every place the group covers, so two players tied for 1st–2nd each hold ½
of 1st and ½ of 2nd and get the mean of the two places' points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from .errors import ScoringError
from .fields import fail, join, read_int
from .ruleset import Ruleset

TABLE_SIZE = 4
# a Baśka table has four players; a Preferans table (scoring.preferans) three or four
TABLE_SIZES = (3, 4)


@dataclass(frozen=True, slots=True)
class ByeCompensation:
    big_points: float
    small_points: int


def _read_table(small_points: Mapping[str, int]) -> dict[str, int]:
    if not isinstance(small_points, Mapping) or len(small_points) not in TABLE_SIZES:
        raise fail("invalid_input", "small_points", "an object of 3 or 4 players' small points")
    return {
        str(key): read_int(value, join("small_points", str(key)), "invalid_input")
        for key, value in small_points.items()
    }


def place_shares(small_points: Mapping[str, int]) -> dict[str, tuple[Fraction, ...]]:
    """Per player, the share of each place 1–4 held (a row sums to 1; at a table of 3 nobody holds 4th)."""
    return _shares(_read_table(small_points))


def _shares(table: dict[str, int]) -> dict[str, tuple[Fraction, ...]]:
    ordered = sorted(table.values(), reverse=True)
    shares: dict[str, tuple[Fraction, ...]] = {}
    for key, points in table.items():
        first = ordered.index(points)
        size = ordered.count(points)
        shares[key] = tuple(
            Fraction(1, size) if first <= place < first + size else Fraction(0) for place in range(TABLE_SIZE)
        )
    return shares


def _exact(number: float) -> Fraction:
    return Fraction(number).limit_denominator(1000)


def placement_points(small_points: Mapping[str, int], ruleset: Ruleset) -> dict[str, float]:
    """Big points of each player at one table in one series.

    A tied group shares the sum of the points of the places it covers; the
    ``positive_bonus`` is shared by the players whose small points are above zero.
    """
    table = _read_table(small_points)
    shares = _shares(table)
    points = [_exact(p) for p in ruleset.placement.points] + [Fraction(0)] * TABLE_SIZE
    positive = [key for key, value in table.items() if value > 0]
    bonus = _exact(ruleset.placement.positive_bonus) / len(positive) if positive else Fraction(0)
    return {
        key: float(
            sum((s * p for s, p in zip(row, points, strict=False)), Fraction(0)) + (bonus if key in positive else 0)
        )
        for key, row in shares.items()
    }


def bye_compensation(ruleset: Ruleset, byes_in_series: int) -> ByeCompensation:
    """What each bye player of a series gets, by the number of bye players."""
    table = ruleset.byes.big_points
    count = read_int(byes_in_series, "byes_in_series", "invalid_input")
    if not 1 <= count <= len(table):
        raise ScoringError("invalid_bye_count", {"max": len(table), "count": count}, "byes_in_series")
    return ByeCompensation(big_points=float(table[count - 1]), small_points=ruleset.byes.small_points)
