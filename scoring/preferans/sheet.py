"""The pulka sheet ("kulka", "пулька"): the score sheet of one Preferans game.

Each player has three columns, all kept as running totals:

- **gora** (góra, "гора", the mountain): penalty points, written for a failed
  contract ("remiz") or a whister's shortfall;
- **pulka** (the bullet): the prices of the contracts made, played up to an agreed
  ``total`` such as 50;
- **wisty** (visty, whists): what the player wrote on each opponent — the opponent
  owes them to the writer.

With three players everybody plays every deal; with four the dealer sits each deal
out. The pulka is over when the pulkas together reach ``players × total`` (with help,
that is when every pulka is full), or when the players close it by agreement.

Help ("pomoc", Sochi): a player whose pulka is full writes the further points of a
contract into the pulka of the opponent with the larger pulka (ties: the one sitting
nearer on the left), and 10 whists on him per point; what that opponent cannot take
goes on to the next (``help_overflow`` ``next``) or stays in the player's own pulka
above the total (``own``). Points nobody can take stay in the player's own pulka above
the total, where the settlement ignores them (``help_leftover`` ``own_pulka``), or are
still written as help whists (``whists``). Leningrad has no help: every contract goes
into the declarer's own pulka in full.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ScoringError
from ..fields import join
from .entry import Deal, Penalty, entry_writes, next_dealer, parse_entry
from .variant import Variant


@dataclass(frozen=True, slots=True, kw_only=True)
class Totals:
    """The three columns of every player; ``whists[a][b]`` is what ``a`` wrote on ``b``."""

    pulka: Mapping[str, int]
    gora: Mapping[str, int]
    whists: Mapping[str, Mapping[str, int]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Row:
    """One entry of the sheet with the running totals after it. ``help`` is the points
    the declarer wrote into other pulkas; ``final`` says a later deal was entered, so
    the table can no longer correct the entry by itself (the pencil rule)."""

    entry: Deal | Penalty
    help: Mapping[str, int]
    totals: Totals
    final: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Sheet:
    players: tuple[str, ...]
    variant: Variant
    total: int
    rows: tuple[Row, ...]
    closed: bool

    @property
    def totals(self) -> Totals:
        if self.rows:
            return self.rows[-1].totals
        zero = dict.fromkeys(self.players, 0)
        return Totals(pulka=zero, gora=zero, whists=_no_whists(self.players))

    @property
    def finished(self) -> bool:
        """Played out: the pulkas together reach players × total (with help: every pulka is full)."""
        return _played_out(self.totals.pulka, self.variant, self.total)

    @property
    def upcoming_dealer(self) -> str:
        """Who deals the next deal unless told otherwise: the last deal's dealer's left neighbour."""
        last = next((row.entry.dealer for row in reversed(self.rows) if isinstance(row.entry, Deal)), None)
        return next_dealer(last, self.players)

    @property
    def over(self) -> bool:
        """Finished or closed by agreement: ready to be settled."""
        return self.finished or self.closed


def _played_out(pulka: Mapping[str, int], variant: Variant, total: int) -> bool:
    if variant.help_whists_per_point is not None:
        # seed line 7: over once every pulka reaches the total; a helper's points above it
        # (help_overflow "own") do not stand in for a pulka still short
        return min(pulka.values()) >= total
    return sum(pulka.values()) >= total * len(pulka)


def _no_whists(players: tuple[str, ...]) -> dict[str, dict[str, int]]:
    return {writer: {on: 0 for on in players if on != writer} for writer in players}


class _Columns:
    """The running totals while the sheet is written."""

    __slots__ = ("players", "variant", "total", "pulka", "gora", "whists")

    def __init__(self, players: tuple[str, ...], variant: Variant, total: int) -> None:
        self.players = players
        self.variant = variant
        self.total = total
        self.pulka = dict.fromkeys(players, 0)
        self.gora = dict.fromkeys(players, 0)
        self.whists = _no_whists(players)

    def opponents_from_left(self, player: str) -> list[str]:
        i = self.players.index(player)
        n = len(self.players)
        return [self.players[(i + k) % n] for k in range(1, n)]

    def write_pulka(self, player: str, points: int) -> dict[str, int]:
        """Write ``points`` for ``player``'s contract; returns the help given, per opponent."""
        helped: dict[str, int] = {}
        per_point = self.variant.help_whists_per_point
        own = points if per_point is None else min(points, max(0, self.total - self.pulka[player]))
        self.pulka[player] += own
        rest = points - own
        while rest:
            opponents = self.opponents_from_left(player)
            candidates = [other for other in opponents if self.pulka[other] < self.total]
            if not candidates:
                if self.variant.help_leftover == "whists":
                    # seed line 26: the contract is worth its help whists whoever's pulka it fills;
                    # all are full, so the larger pulka (ties: the nearest on the left) is written on
                    target = max(opponents, key=self.pulka.__getitem__)
                    self.whists[player][target] += rest * per_point
                self.pulka[player] += rest
                break
            # max() keeps the first of equals: the nearest on the left wins a tie
            target = max(candidates, key=self.pulka.__getitem__)
            given = min(rest, self.total - self.pulka[target])
            self.pulka[target] += given
            self.whists[player][target] += given * per_point
            helped[target] = helped.get(target, 0) + given
            rest -= given
            if rest and self.variant.help_overflow == "own":
                # one opponent helped a deal: what his pulka cannot hold stays with the helper
                self.pulka[player] += rest
                break
        return helped

    def snapshot(self) -> Totals:
        return Totals(
            pulka=dict(self.pulka),
            gora=dict(self.gora),
            whists={writer: dict(row) for writer, row in self.whists.items()},
        )


def keep_sheet(
    *, players: tuple[str, ...], variant: Variant, total: int, entries: list[Any], closed: bool = False
) -> Sheet:
    """The sheet after ``entries`` (the raw ``deals`` list); errors name ``deals[i]``."""
    columns = _Columns(players, variant, total)
    parsed: list[tuple[Deal | Penalty, dict[str, int], Totals]] = []
    dealer: str | None = None
    for i, data in enumerate(entries):
        path = join("deals", i)
        entry = parse_entry(data, path, players=players, previous_dealer=dealer)
        # a penalty may still follow the last deal; another deal may not
        if isinstance(entry, Deal) and _played_out(columns.pulka, variant, total):
            raise ScoringError("pulka_over", {"total": total * len(players)}, path)
        writes = entry_writes(entry, variant)
        helped: dict[str, int] = {}
        if isinstance(entry, Deal):
            dealer = entry.dealer
            helped = columns.write_pulka(entry.declarer, writes.pulka)
        for player, points in writes.gora.items():
            columns.gora[player] += points
        for (writer, on), whists in writes.whists.items():
            columns.whists[writer][on] += whists
        parsed.append((entry, helped, columns.snapshot()))
    last_deal = max((i for i, (entry, _, _) in enumerate(parsed) if isinstance(entry, Deal)), default=-1)
    rows = tuple(
        Row(entry=entry, help=helped, totals=totals, final=i < last_deal)
        for i, (entry, helped, totals) in enumerate(parsed)
    )
    return Sheet(players=players, variant=variant, total=total, rows=rows, closed=closed)
