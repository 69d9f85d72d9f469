"""A pulka's entries in words, and its sheet and settlement laid out as the pages show them.

The one place that turns a pulka entry (docs/preferans.md: a deal or a referee's penalty,
players named by seat) into what a person reads: the contract ("kontrakt", "7 kier ♥"), who
declared it ("rozgrywa", the declarer), whether it was made or failed (a **remiz**), who
whisted ("wisty": the defenders who played against the declarer) with their tricks, and for
a penalty what was over-written and the referee's reason. :func:`describe_pulka_entry` needs
no sheet, so the history describes an old entry as it was; :func:`pulka_sheet_layout` and
:func:`pulka_settlement_layout` read a :class:`~league.games.preferans.pulka.PulkaView` for the
includes ``games/preferans/_sheet.html`` and ``games/preferans/_settlement.html``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from league.games.labels import pulka_contract_label
from scoring.preferans import MISERE, Adjustment, Deal, Penalty
from scoring.preferans.entry import CONTRACT_PATTERN

if TYPE_CHECKING:  # the models describe their rows with this module, and .pulka reads the models
    from .pulka import PulkaView


def is_pulka_entry(deal: Mapping[str, Any]) -> bool:
    """Whether a stored row is a pulka's entry: a Baśka deal names its old side or the paper's values, no declarer."""
    return "declarer" in deal or "penalty" in deal


def player_label(seat: str, names: Mapping[str, str]) -> str:
    """A player as the pulka pages name him: "B – Nowak", or the seat alone when no name is known."""
    name = names.get(seat)
    return f"{seat} – {name}" if name else seat


def _tricks(count: int) -> str:
    return ngettext("%(count)s trick", "%(count)s tricks", count) % {"count": count}


def _made(entry: Mapping[str, Any]) -> bool:
    """As the engine reads it: unwhisted counts as made; a misère is made taking no trick."""
    tricks = entry.get("tricks")
    if tricks is None:
        return True
    if entry["contract"] == MISERE:
        return tricks == 0
    return tricks >= int(CONTRACT_PATTERN.match(entry["contract"]).group(1))


@dataclass(frozen=True)
class PulkaEntryDescription:
    """One entry in words. A deal fills ``contract`` … ``whisters`` (the whisters with their tricks;
    ``no_whist`` says when nobody whisted; ``dealer`` only when the entry names one); a penalty
    fills ``penalty`` and ``reason``. ``str()`` joins the parts into one line:
    "7 kier ♥, rozgrywa B – Nowak (7 lew, ugrany), wisty: C 3 lewy"."""

    contract: str = ""
    declarer: str = ""
    declarer_seat: str = ""  # the sheet's column, where the heads name the seats
    tricks: str = ""
    result: str = ""
    whisters: str = ""
    no_whist: str = ""
    dealer: str = ""
    penalty: str = ""
    reason: str = ""

    @property
    def parts(self) -> list[str]:
        if self.penalty:
            return [self.penalty, _("reason: %(reason)s") % {"reason": self.reason}]
        played = ", ".join(part for part in (self.tricks, self.result) if part)
        head = _("%(contract)s, declared by %(player)s") % {"contract": self.contract, "player": self.declarer}
        if played:
            head += f" ({played})"
        whisted = _("whists: %(whisters)s") % {"whisters": self.whisters} if self.whisters else self.no_whist
        dealer = _("dealt by %(player)s") % {"player": self.dealer} if self.dealer else ""
        return [part for part in (head, whisted, dealer) if part]

    def __str__(self) -> str:
        return ", ".join(self.parts)


def describe_pulka_entry(entry: Mapping[str, Any], names: Mapping[str, str] | None = None) -> PulkaEntryDescription:
    """``entry`` (stored, so valid) in words, the players by seat and, where ``names`` has them, by name."""
    names = names or {}
    if "penalty" in entry:
        player = player_label(entry["player"], names)
        if entry["penalty"] == "whists":
            text = _("penalty: %(player)s over-wrote %(size)s whists on %(wronged)s, who writes as many back") % {
                "player": player,
                "size": entry["size"],
                "wronged": player_label(entry["wronged"], names),
            }
        else:
            text = _("penalty: %(player)s over-wrote the pulka by %(size)s, as many onto the mountain") % {
                "player": player,
                "size": entry["size"],
            }
        return PulkaEntryDescription(penalty=text, reason=entry["reason"])
    whisters = ", ".join(f"{whister['player']} {_tricks(whister['tricks'])}" for whister in entry.get("whisters", []))
    return PulkaEntryDescription(
        contract=pulka_contract_label(entry["contract"]),
        declarer=player_label(entry["declarer"], names),
        declarer_seat=entry["declarer"],
        tricks=_tricks(entry["tricks"]) if "tricks" in entry else "",
        result=pgettext("contract", "made") if _made(entry) else pgettext("contract", "failed"),
        whisters=whisters,
        no_whist="" if whisters or entry["contract"] == MISERE else _("nobody whisted"),
        dealer=player_label(entry["dealer"], names) if "dealer" in entry else "",
    )


def entry_data(entry: Deal | Penalty) -> dict[str, Any]:
    """The engine's parsed entry back in the stored format, with the dealer it worked out."""
    if isinstance(entry, Penalty):
        data: dict[str, Any] = {"penalty": entry.column, "player": entry.player, "size": entry.size}
        if entry.wronged:
            data["wronged"] = entry.wronged
        return {**data, "reason": entry.reason}
    data = {"contract": entry.contract, "declarer": entry.declarer}
    if entry.tricks is not None:
        data["tricks"] = entry.tricks
    if entry.whisters:
        data["whisters"] = [{"player": w.player, "tricks": w.tricks} for w in entry.whisters]
    return data


@dataclass(frozen=True)
class PlayerColumns:
    """One player's columns after an entry: the running pulka, mountain (góra), the whists he
    wrote on each opponent, and his small points were the pulka settled there."""

    seat: str
    pulka: int
    gora: int
    whists: list[tuple[str, int]]
    small_points: int


@dataclass(frozen=True)
class SheetLine:
    """One entry of the sheet. ``final``: a later deal was entered, so the entry stands (the
    pencil rule); ``help``: the points its declarer wrote into others' pulkas (Sochi)."""

    number: int
    penalty: bool
    final: bool
    dealer: str
    description: PulkaEntryDescription
    help: list[tuple[str, int]]
    players: list[PlayerColumns]


@dataclass(frozen=True)
class SheetLayout:
    players: list[tuple[str, str]]
    lines: list[SheetLine]
    provisional: bool
    filled: int
    of: int


def pulka_sheet_layout(pulka: PulkaView, names: Mapping[str, str]) -> SheetLayout:
    """The sheet as on paper: per entry its words, then per player the columns after it."""
    sheet = pulka.sheet
    lines = []
    for number, (row, table_row) in enumerate(pulka.lines, start=1):
        totals = row.totals
        lines.append(
            SheetLine(
                number=number,
                penalty=isinstance(row.entry, Penalty),
                final=row.final,
                dealer="" if isinstance(row.entry, Penalty) else row.entry.dealer,  # the names head the columns
                description=describe_pulka_entry(entry_data(row.entry), names),
                help=list(row.help.items()),
                players=[
                    PlayerColumns(
                        seat=seat,
                        pulka=totals.pulka[seat],
                        gora=totals.gora[seat],
                        whists=list(totals.whists[seat].items()),
                        small_points=table_row.totals[seat],
                    )
                    for seat in sheet.players
                ],
            )
        )
    return SheetLayout(
        players=[(seat, player_label(seat, names)) for seat in sheet.players],
        lines=lines,
        provisional=not sheet.over,
        filled=sum(sheet.totals.pulka.values()),
        of=sheet.total * len(sheet.players),
    )


@dataclass(frozen=True)
class SettlementLine:
    """One player's settlement ("rozliczenie"): the mountain once the pulka is turned into mountain
    points, after the amnesty and the remainder rule, the whists he has on each opponent (mountains
    included), what each pays him net, and his balance (the table's small points)."""

    seat: str
    label: str
    mountain_at_end: int
    mountain: int
    adjustment: Adjustment | None
    whists: list[tuple[str, int]]
    net: list[tuple[str, int]]
    balance: int


@dataclass(frozen=True)
class SettlementLayout:
    amnesty: int
    closed: bool
    lines: list[SettlementLine]


def pulka_settlement_layout(pulka: PulkaView, names: Mapping[str, str]) -> SettlementLayout | None:
    """The settlement per player, or None while the pulka is not over."""
    settlement = pulka.settlement
    if settlement is None:
        return None
    adjustments = {adjustment.player: adjustment for adjustment in settlement.adjustments}
    return SettlementLayout(
        amnesty=settlement.amnesty,
        closed=pulka.sheet.closed and not pulka.sheet.finished,
        lines=[
            SettlementLine(
                seat=seat,
                label=player_label(seat, names),
                mountain_at_end=settlement.mountains_at_end[seat],
                mountain=settlement.mountains[seat],
                adjustment=adjustments.get(seat),
                whists=list(settlement.whists[seat].items()),
                net=list(settlement.net[seat].items()),
                balance=settlement.balance[seat],
            )
            for seat in pulka.sheet.players
        ],
    )
