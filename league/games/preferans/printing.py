"""A Preferans table's protocol on paper: the pulka sheet ("arkusz pulki").

A Preferans tournament's table plays one **pulka** per series (docs/preferans.md): per
player three columns kept as running totals, the **pulka** (contracts made, up to the
agreed total), the **góra** (mountain: penalty points) and the **wisty** (whists written
on each opponent). The sheet printed for the table has those columns for 3 or 4 players,
blank lines, and a key of the variant's prices and settlement; the archive copy has the
entries as the referee entered them and the **rozliczenie** (settlement) whose balances
are the table's small points. Everything here is read from the engine
(``scoring.preferans``); :mod:`league.printing.documents` puts it under the table's head.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from league.games.labels import pulka_contract_label
from league.games.preferans.describe import describe_pulka_entry, entry_data
from league.printing.documents import row_grid
from scoring import preferans
from scoring.preferans import LEVELS, MISERE

if TYPE_CHECKING:
    from league.models import Tournament

BLANK_LINES = 30  # a pulka to 20 among four takes some 20–30 entries; a longer one goes on to a second sheet
LEAD_COLUMNS_MM = (6, 6, 36)  # number, dealer, the deal
SHEET_WIDTH_MM = 186  # A4 less the 12 mm margins


def opponents(seats: Sequence[str], seat: str) -> list[str]:
    """The players a seat writes whists on, in seating order."""
    return [other for other in seats if other != seat]


def column_widths(players: int) -> tuple[float, ...]:
    """The sheet's columns in mm: number, dealer, the deal, then per player the pulka, the
    góra and one whist column per opponent, all alike."""
    per_player = players + 1
    width = (SHEET_WIDTH_MM - sum(LEAD_COLUMNS_MM)) / (players * per_player)
    return (*LEAD_COLUMNS_MM, *[round(width, 2)] * (players * per_player))


def grid_marks(players: int) -> tuple[frozenset[int], frozenset[int]]:
    """The blank row's grid past the number column (``documents.row_grid``): each player's
    pulka column shaded, a thick line before each player's columns."""
    per_player = players + 1
    starts = [2 + index * per_player for index in range(players)]
    return frozenset(starts), frozenset(start - 1 for start in starts)


@dataclass
class PulkaLine:
    """One line of the sheet; ``cells`` (each column's running total and whether this entry
    changed it) is None for a line left blank for the pen."""

    number: int
    dealer: str = ""
    text: str = ""
    penalty: bool = False
    cells: list[tuple[int, bool]] | None = None


@dataclass
class PulkaBalance:
    """A player's line of the settlement: the sheet's last pulka and góra, the mountain after
    the pulka is turned into mountain points and after the amnesty, the net whists with each
    seat (None against himself), and the balance, his small points."""

    seat: str
    name: str
    pulka: int
    gora: int
    mountain_at_end: int
    mountain: int
    net: list[int | None]
    balance: int


@dataclass
class PulkaSettlement:
    """The settlement ("rozliczenie") under the archive copy: a line per player, the amnesty,
    and notes on how the pulka ended and on the remainder rule."""

    lines: list[PulkaBalance]
    amnesty: int
    notes: list[str]


@dataclass
class PulkaPaper:
    """What the pulka sheet of one table shows below its head: the lines and, on the archive
    copy, the settlement."""

    lines: list[PulkaLine]
    settlement: PulkaSettlement | None = None


def sheet_columns(totals: preferans.Totals, seats: Sequence[str]) -> list[int]:
    """The running totals in the sheet's column order: per seat pulka, góra, whists on each opponent."""
    return [
        value
        for seat in seats
        for value in (
            totals.pulka[seat],
            totals.gora[seat],
            *(totals.whists[seat][on] for on in opponents(seats, seat)),
        )
    ]


def entry_text(row: preferans.Row) -> str:
    """An entry in the words of the referee's page (``describe_pulka_entry``), with the help it gave."""
    text = str(describe_pulka_entry(entry_data(row.entry)))
    if row.help:
        text += " · " + _("help %(help)s") % {
            "help": ", ".join(f"{seat} {points}" for seat, points in row.help.items())
        }
    return text


def filled_pulka(
    *,
    seats: tuple[str, ...],
    names: Mapping[str, str],
    variant: preferans.Variant,
    total: int,
    entries: list[Any],
    closed: bool,
) -> PulkaPaper:
    """The archive copy's lines and settlement of a table's stored entries. A pulka not
    played out is settled as if closed by agreement, as the standings count it."""
    sheet = preferans.keep_sheet(players=seats, variant=variant, total=total, entries=entries, closed=closed)
    lines, before = [], [0] * (len(seats) * (len(seats) + 1))
    for number, row in enumerate(sheet.rows, start=1):
        after = sheet_columns(row.totals, seats)
        lines.append(
            PulkaLine(
                number=number,
                dealer=getattr(row.entry, "dealer", ""),
                text=entry_text(row),
                penalty=isinstance(row.entry, preferans.Penalty),
                cells=[(value, value != old) for value, old in zip(after, before, strict=True)],
            )
        )
        before = after
    return PulkaPaper(lines=lines, settlement=pulka_settlement(sheet, names))


def pulka_settlement(sheet: preferans.Sheet, names: Mapping[str, str]) -> PulkaSettlement:
    """The settlement of the sheet, closed by agreement where it is not over; ``names`` by seat."""
    notes = []
    if sheet.closed and not sheet.finished:
        notes.append(_("Closed by agreement: each player's missing pulka points went onto his mountain."))
    elif not sheet.over:
        notes.append(_("Not played out: settled as if closed by agreement, as the standings count it."))
        sheet = dataclasses.replace(sheet, closed=True)
    settlement = preferans.settle(sheet)
    for adjustment in settlement.adjustments:
        values = {"player": adjustment.player, "whists": adjustment.whists_each}
        if adjustment.points < 0:
            notes.append(
                _("Remainder: the mountain of %(player)s −1, each other player's whists on %(player)s +%(whists)s.")
                % values
            )
        else:
            notes.append(
                _("Remainder: the mountain of %(player)s +1, whists of %(player)s on each other player +%(whists)s.")
                % values
            )
    totals = sheet.totals
    return PulkaSettlement(
        lines=[
            PulkaBalance(
                seat=seat,
                name=names.get(seat, ""),
                pulka=totals.pulka[seat],
                gora=totals.gora[seat],
                mountain_at_end=settlement.mountains_at_end[seat],
                mountain=settlement.mountains[seat],
                net=[settlement.net[seat].get(other) for other in sheet.players],
                balance=settlement.balance[seat],
            )
            for seat in sheet.players
        ],
        amnesty=settlement.amnesty,
        notes=notes,
    )


def blank_pulka() -> PulkaPaper:
    return PulkaPaper(lines=[PulkaLine(number) for number in range(1, BLANK_LINES + 1)])


@dataclass
class PulkaKey:
    """The key of the blank sheet: the variant's numbers per contract, its rules in a sentence
    each, and the order of dealing (printed under the players)."""

    contracts: list[str]
    rows: list[tuple[str, list[int | str]]]
    dealing: str
    rules: list[str]


def pulka_key(variant: preferans.Variant, *, seats: Sequence[str], total: int) -> PulkaKey:
    """The key of ``variant``'s pulka to ``total`` among ``seats``, and who deals first."""
    levels = [str(level) for level in LEVELS]
    rows: list[tuple[str, list[int | str]]] = [
        (_("Price"), [variant.price(level) for level in [*levels, MISERE]]),
        (_("Whists per trick taken"), [*(variant.whists_per_trick[level] for level in LEVELS), "—"]),
        (_("The whisters must take"), [*(variant.whist_obligation[level] for level in LEVELS), "—"]),
    ]
    order = " → ".join([*seats, seats[0]])
    dealing = _("Seat %(first)s deals first, then the deal passes to the left: %(order)s.") % {
        "first": seats[0],
        "order": order,
    }
    if len(seats) == 4:
        dealing += " " + _("The dealer sits the deal out.")
    rules = [
        _(
            "Made: the price into the declarer's pulka. Failed (remiz): the price for each trick short onto his "
            "mountain (misère: for each trick taken). A whister short of his share (half each with a partner): "
            "the price for each trick short onto his mountain."
        ),
    ]
    if variant.help_whists_per_point is not None:
        rules.append(
            _(
                "Help: a player whose pulka is full writes the rest into the larger pulka of an opponent and "
                "%(whists)s whists on him per point."
            )
            % {"whists": variant.help_whists_per_point}
        )
    rules.append(
        _("The pulka is over when the pulkas reach %(sum)s together (%(players)s × %(total)s).")
        % {"sum": len(seats) * total, "players": len(seats), "total": total}
    )
    ending = _("Settlement: each point a pulka lacks goes onto its mountain %(short)s×") % {
        "short": variant.short_factor
    }
    if variant.over_factor:
        ending += _(", each point over the total comes off it %(over)s×") % {"over": variant.over_factor}
    rules.append(
        ending
        + _(
            "; the smallest mountain is taken off every mountain (amnesty); each owes every other player his "
            "mountain × %(per_point)s / %(players)s whists; the whists are netted pair by pair, and the balance "
            "is the small points."
        )
        % {"per_point": variant.whists_per_mountain_point, "players": len(seats)}
    )
    return PulkaKey(contracts=[*levels, str(pulka_contract_label(MISERE))], rows=rows, dealing=dealing, rules=rules)


def column_heads(seats: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Each seat with the opponents its whist columns are written on."""
    return [(seat, opponents(seats, seat)) for seat in seats]


def pulka_sheet_context(tournament: Tournament, *, variant: preferans.Variant, total: int) -> dict[str, Any]:
    """What every pulka sheet of the tournament shares: the columns for its table size, the
    blank line's grid and the key of its ``variant`` played to ``total``."""
    seats = tournament.seats
    columns = column_widths(len(seats))
    shaded, thick = grid_marks(len(seats))
    return {
        "seats": seats,
        "per_player": len(seats) + 1,
        "columns": columns,
        "heads": column_heads(seats),
        "blank_row_grid": row_grid(columns[1:], shaded=shaded, thick=thick),
        "key": pulka_key(variant, seats=seats, total=total),
    }
