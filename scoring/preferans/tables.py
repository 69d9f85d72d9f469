"""A pulka as one table of a tournament ("turniej preferansowy"): its small points and the rules of the ranking.

A Preferans tournament is played like a Baśka one: series of tables drawn anew, one pulka
per table and series. A table's **small points** are the whist balances its settlement
gives (zero-sum, as Baśka's are); a pulka not played out when the series ends is settled
as if closed by agreement, so every entry already moves the small points and a table
stopped by the time limit has a result. **Big points** go by the place at the table, under
the variant's ``placement`` for the table's size, and the ranking reads them through
:class:`TournamentRules`, the same fields the Baśka standings read from a ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..ruleset import Byes, Placement, TeamBigPoints
from .settlement import settle
from .sheet import Sheet, keep_sheet
from .variant import TABLE_SIZES, Variant


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentRules:
    """What the standings of a Preferans tournament read, as they read a Baśka ruleset:
    places to big points, the bye's compensation, the tie-breaks and the team and
    penalty readings (members' points added; a referee's penalty takes small points only)."""

    id: str
    placement: Placement
    byes: Byes
    tiebreaks: tuple[str, ...]
    shared_places: str = "fractional"
    team_big_points: TeamBigPoints = TeamBigPoints()
    penalty_big_points: bool = False


def tournament_rules(variant: Variant, table_size: int) -> TournamentRules:
    """The ranking rules of a tournament of ``variant`` pulkas at tables of ``table_size``."""
    if table_size not in TABLE_SIZES:
        raise ValueError(f"a pulka is played by {TABLE_SIZES}, not {table_size}")
    return TournamentRules(
        id=f"preferans-{variant.id}",
        placement=Placement(points=variant.placement[table_size], positive_bonus=0),
        byes=Byes(big_points=variant.bye_points[table_size], small_points=0, max_per_player=1, individuals_first=True),
        tiebreaks=variant.tiebreaks,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRow:
    """One entry's share of the table's small points (``values``, zero-sum) and the
    small points after it (``totals``): the balances were the pulka closed there."""

    values: Mapping[str, int]
    totals: Mapping[str, int]
    doubled: bool = False  # the stored rows' shared mark (DealRow.doubled); a pulka's entries count once


@dataclass(frozen=True, slots=True, kw_only=True)
class TableScore:
    sheet: Sheet
    rows: tuple[TableRow, ...]
    totals: Mapping[str, int]


def table_score(
    *, players: tuple[str, ...], variant: Variant, total: int, entries: list[Any], closed: bool = False
) -> TableScore:
    """The sheet of ``entries`` (errors as :func:`keep_sheet`'s) and each entry's small points."""
    sheet = keep_sheet(players=players, variant=variant, total=total, entries=entries, closed=closed)
    before = dict.fromkeys(players, 0)
    rows = []
    for i in range(len(sheet.rows)):
        # the sheet up to this entry, closed there: what the table would have were the pulka over now
        balance = settle(
            Sheet(players=players, variant=variant, total=total, rows=sheet.rows[: i + 1], closed=True)
        ).balance
        rows.append(TableRow(values={p: balance[p] - before[p] for p in players}, totals=dict(balance)))
        before = balance
    return TableScore(sheet=sheet, rows=tuple(rows), totals=before)
