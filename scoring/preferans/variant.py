"""Preferans variants ("rozpiska", the house rules of a pulka) as data.

A variant is one JSON object in ``variants/`` (``sochi``, ``leningrad``); it holds
every number the seed leaves to agreement or to a regional custom: the prices of the
contracts, the whists a whisted trick earns, the tricks the whisters must take, whether
a full pulka "helps" an opponent, and how the pulka turns into mountain points at the
end.  :func:`parse_variant` validates such an object into :class:`Variant`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Final

from ..errors import ScoringError
from ..fields import fail, join, read_int, read_list, read_number, read_object, read_str, show
from ..ruleset import MAX_TIEBREAKS, TIEBREAK_PATTERN

VARIANTS: Final = ("sochi", "leningrad")

LEVELS: Final = (6, 7, 8, 9, 10)
"""The trick contracts: the declarer undertakes to take 6 to 10 of the 10 tricks."""

MISERE: Final = "misere"
"""Misère ("mizer"): the declarer undertakes to take no trick at all; nobody whists it."""

_ERR = "invalid_ruleset"
_FIELDS: Final = (
    "id",
    "name",
    "notes",
    "prices",
    "whists_per_trick",
    "whist_obligation",
    "help_whists_per_point",
    "whists_per_mountain_point",
    "short_factor",
    "over_factor",
    "tournament",
)
# the settings added after the presets were written: optional, the seed's reading by default
_OPTIONAL: Final = ("remainder", "closing_factor", "help_overflow", "help_leftover")

REMAINDERS: Final = ("mountain", "final")
"""Where the remainder rule applies: to each mountain's share separately (variant 1's "so act
with each mountain", line 23, and line 20's own example dividing one mountain; the default:
equal positions pay equal amounts) or only to fractional final sums (``final``, moving the
largest mountain: a variant, the engine's default from issue 28 to issue 38)."""

HELP_OVERFLOWS: Final = ("next", "own")
"""Help that the helped pulka cannot hold goes on to the next opponent (``next``) or
stays in the helper's own pulka above the total (``own``: one opponent helped a deal)."""

HELP_LEFTOVERS: Final = ("own_pulka", "whists")
"""Points nobody can take (every other pulka full) stay in the helper's own pulka above
the total, worth nothing (``own_pulka``), or are written as help whists on the opponent
who would have been helped (``whists``: seed line 26, a contract is worth the same
whoever's pulka it goes into)."""

TABLE_SIZES: Final = (3, 4)
"""A pulka is played by three, or by four with the dealer sitting each deal out."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """The house rules of a pulka.

    - ``prices``: the price of each contract (``"6"`` … ``"10"``, ``"misere"``); a
      contract made writes it into the pulka, a failed one writes price × undertricks
      onto the mountain;
    - ``whists_per_trick``: the whists a whister writes on the declarer per trick taken;
    - ``whist_obligation``: the tricks the whisters together must take against each
      level; two whisters owe half each, and a whister's shortfall goes onto his
      mountain at the contract's price per trick;
    - ``help_whists_per_point``: the whists a player past the total writes on the
      opponent he helps, per point; ``None`` means no help (Leningrad);
    - ``whists_per_mountain_point``: what a mountain point costs at the settlement,
      shared among the players (10 in the seed);
    - ``short_factor`` / ``over_factor``: at the end, each point a pulka lacks goes onto
      the mountain ``short_factor`` times, each point over the total comes off it
      ``over_factor`` times (Sochi 1 / 0, Leningrad 2 / 2);
    - ``remainder``: the remainder rule ("reszta", the point moved so the division
      leaves none) on each mountain (``mountain``, seed line 23) or on the fractional
      final sums (``final``), :data:`REMAINDERS`;
    - ``closing_factor``: each point a pulka closed by agreement lacks goes onto the
      mountain this many times (seed line 7: once; line 9: twice in Leningrad);
    - ``help_overflow`` / ``help_leftover``: help a pulka cannot hold, and points
      nobody can take, :data:`HELP_OVERFLOWS` and :data:`HELP_LEFTOVERS`;
    - ``placement``, ``bye_points`` and ``tiebreaks``: how a tournament of pulkas ranks
      (one pulka per table and series): the big points of the places at a table of 3 and
      of 4, the big points of a bye by the number of byes in the series (1, 2 …) per
      table size, and the ranking criteria as for Baśka.
    """

    id: str
    name: str
    notes: tuple[str, ...]
    prices: Mapping[str, int]
    whists_per_trick: Mapping[int, int]
    whist_obligation: Mapping[int, int]
    help_whists_per_point: int | None
    whists_per_mountain_point: int
    short_factor: int
    over_factor: int
    remainder: str = "mountain"
    closing_factor: int = 1
    help_overflow: str = "next"
    help_leftover: str = "own_pulka"
    placement: Mapping[int, tuple[float, ...]]
    bye_points: Mapping[int, tuple[float, ...]]
    tiebreaks: tuple[str, ...]

    def price(self, contract: str) -> int:
        return self.prices[contract]


def _table(data: Any, path: str, keys: tuple[str, ...], *, maximum: int) -> dict[str, int]:
    read_object(data, path, _ERR, allowed=keys, required=keys)
    return {key: read_int(data[key], join(path, key), _ERR, minimum=0, maximum=maximum) for key in keys}


def parse_variant(data: Any) -> Variant:
    """A validated :class:`Variant` from its JSON object; errors are ``invalid_ruleset``."""
    read_object(data, "variant", _ERR, allowed=(*_FIELDS, *_OPTIONAL), required=_FIELDS)
    levels = tuple(str(level) for level in LEVELS)
    prices = _table(data["prices"], "variant.prices", (*levels, MISERE), maximum=1000)
    per_trick = _table(data["whists_per_trick"], "variant.whists_per_trick", levels, maximum=1000)
    obligation = _table(data["whist_obligation"], "variant.whist_obligation", levels, maximum=10)
    for level in levels:
        # two whisters owe half the obligation each: an odd one needs an even price
        if obligation[level] % 2 and prices[level] % 2:
            raise fail(_ERR, f"variant.prices.{level}", "even where the whist obligation is odd")
        if obligation[level] > 10 - int(level):
            raise fail(_ERR, f"variant.whist_obligation.{level}", f"at most {10 - int(level)}")
    help_whists = data["help_whists_per_point"]
    if help_whists is not None:
        help_whists = read_int(help_whists, "variant.help_whists_per_point", _ERR, minimum=1, maximum=1000)
    notes = read_list(data["notes"], "variant.notes", _ERR)
    placement, bye_points, tiebreaks = _tournament(data["tournament"])
    return Variant(
        id=read_str(data["id"], "variant.id", _ERR),
        name=read_str(data["name"], "variant.name", _ERR),
        notes=tuple(read_str(note, f"variant.notes[{i}]", _ERR) for i, note in enumerate(notes)),
        prices=MappingProxyType(prices),
        whists_per_trick=MappingProxyType({int(level): value for level, value in per_trick.items()}),
        whist_obligation=MappingProxyType({int(level): value for level, value in obligation.items()}),
        help_whists_per_point=help_whists,
        whists_per_mountain_point=read_int(
            data["whists_per_mountain_point"], "variant.whists_per_mountain_point", _ERR, minimum=1, maximum=1000
        ),
        short_factor=read_int(data["short_factor"], "variant.short_factor", _ERR, minimum=0, maximum=10),
        over_factor=read_int(data["over_factor"], "variant.over_factor", _ERR, minimum=0, maximum=10),
        remainder=read_str(data.get("remainder", "mountain"), "variant.remainder", _ERR, choices=REMAINDERS),
        closing_factor=read_int(data.get("closing_factor", 1), "variant.closing_factor", _ERR, minimum=0, maximum=10),
        help_overflow=read_str(
            data.get("help_overflow", "next"), "variant.help_overflow", _ERR, choices=HELP_OVERFLOWS
        ),
        help_leftover=read_str(
            data.get("help_leftover", "own_pulka"), "variant.help_leftover", _ERR, choices=HELP_LEFTOVERS
        ),
        placement=MappingProxyType(placement),
        bye_points=MappingProxyType(bye_points),
        tiebreaks=tiebreaks,
    )


def _points(data: Any, path: str, *, items: int) -> tuple[float, ...]:
    values = read_list(data, path, _ERR, max_items=items)
    if len(values) != items:
        raise fail(_ERR, path, f"a list of {items} numbers")
    return tuple(read_number(value, join(path, i), _ERR, maximum=1000) for i, value in enumerate(values))


def _tournament(data: Any) -> tuple[dict[int, tuple[float, ...]], dict[int, tuple[float, ...]], tuple[str, ...]]:
    """The ``tournament`` object: placement and bye points per table size, and the tie-breaks."""
    path = "variant.tournament"
    read_object(
        data, path, _ERR, allowed=("placement", "byes", "tiebreaks"), required=("placement", "byes", "tiebreaks")
    )
    sizes = tuple(str(size) for size in TABLE_SIZES)
    for key in ("placement", "byes"):
        read_object(data[key], join(path, key), _ERR, allowed=sizes, required=sizes)
    placement = {
        size: _points(data["placement"][str(size)], f"{path}.placement.{size}", items=size) for size in TABLE_SIZES
    }
    # at most size - 1 byes in a series: one more and they would make a table
    byes = {size: _points(data["byes"][str(size)], f"{path}.byes.{size}", items=size - 1) for size in TABLE_SIZES}
    tiebreaks = read_list(data["tiebreaks"], f"{path}.tiebreaks", _ERR, max_items=MAX_TIEBREAKS)
    for i, tiebreak in enumerate(tiebreaks):
        if not isinstance(tiebreak, str) or not TIEBREAK_PATTERN.match(tiebreak):
            raise fail(_ERR, f"{path}.tiebreaks[{i}]", "big_points, small_points, more_places_N or fewer_places_N")
    return placement, byes, tuple(tiebreaks)


def load_variant(variant_id: Any) -> Variant:
    """A variant of ``variants/`` by id; ``unknown_variant`` at ``variant`` otherwise."""
    if variant_id not in VARIANTS:
        raise ScoringError("unknown_variant", {"variant": show(variant_id), "expected": ", ".join(VARIANTS)}, "variant")
    return _load(variant_id)


@cache
def _load(variant_id: str) -> Variant:
    text = resources.files(__package__).joinpath("variants", f"{variant_id}.json").read_text(encoding="utf-8")
    return parse_variant(json.loads(text))
