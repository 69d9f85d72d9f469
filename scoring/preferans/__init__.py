"""Preferans score keeping: the pulka sheet and its settlement, pure Python.

Preferans is the three-player trick-taking game (a fourth player may sit in, the
dealer sitting each deal out); a game is played "to a pulka" of an agreed size and
settled in whists. The words, once:

- **pulka** (пулька, "kulka" in the seed): the sheet, and its column of contracts made,
  filled up to the agreed total;
- **gora** (góra, гора, the mountain): the column of penalty points;
- **wisty** (visty, висты, whists): points a player writes on an opponent, who owes
  them to him; to **whist** is to play against the declarer for them;
- **remiz**: a failed contract, or a whister's shortfall, written onto the mountain;
- **misère** (мизер): the contract to take no trick;
- **rozpisanie / raspasy** (распасы, pass-outs): a deal everybody passes and plays
  out to take as few tricks as possible. The seed gives them no scoring, so the sheet
  has no such entry (a passed deal is not written; give the next deal's ``dealer``).

The house rules of a pulka are a :class:`Variant` (``sochi``, ``leningrad``) kept as
data in ``variants/``; :func:`keep_sheet` writes the sheet and :func:`settle`
settles it; :func:`table_score` and :func:`tournament_rules` are a tournament's reading
of a pulka (one per table and series). The Baśka engine (:mod:`scoring`) is a separate game.
"""

from .entry import Deal, Penalty, Whister, Writes, entry_writes, next_dealer, parse_entry
from .report import pulka_report, read_sheet
from .settlement import Adjustment, Settlement, money, mountains_at_end, settle
from .sheet import Row, Sheet, Totals, keep_sheet
from .tables import TableRow, TableScore, TournamentRules, table_score, tournament_rules
from .variant import LEVELS, MISERE, TABLE_SIZES, VARIANTS, Variant, load_variant, parse_variant

__all__ = [
    "LEVELS",
    "MISERE",
    "TABLE_SIZES",
    "VARIANTS",
    "Adjustment",
    "Deal",
    "Penalty",
    "Row",
    "Settlement",
    "Sheet",
    "TableRow",
    "TableScore",
    "Totals",
    "TournamentRules",
    "Variant",
    "Whister",
    "Writes",
    "entry_writes",
    "keep_sheet",
    "load_variant",
    "money",
    "mountains_at_end",
    "next_dealer",
    "parse_entry",
    "parse_variant",
    "pulka_report",
    "read_sheet",
    "settle",
    "table_score",
    "tournament_rules",
]
