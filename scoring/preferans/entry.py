"""One entry of the pulka sheet: a deal played, or the referee's penalty.

A deal names its contract, the declarer ("rozgrywający") and, when anyone whisted,
the tricks of the declarer and of each whister. A contract is ``6``–``10`` (the tricks
the declarer undertakes to take) with a suit — ``S`` spades ♠, ``C`` clubs ♣, ``D``
diamonds ♦, ``H`` hearts ♥ — or ``NT`` (no trumps), such as ``7H`` or ``6NT``; or
``misere``. A contract nobody whists counts as made without play.

A penalty is the seed's rule for a deliberately wrong entry, "equal for equal": the
penalty is the size of the over-written amount. Over-written pulka points cost the
writer as many mountain points; whists over-written on a partner let the partner
write as many whists back. The referee enters it with a reason; the wrong entry
itself is corrected in the deal it belongs to.

:func:`entry_writes` says what an entry writes on the sheet, except the help rule,
which depends on the other pulkas and is applied by :mod:`.sheet`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

from ..errors import ScoringError
from ..fields import fail, join, read_int, read_list, read_object, read_str, show
from .variant import MISERE, Variant

CONTRACT_PATTERN: Final = re.compile(r"^(6|7|8|9|10)(S|C|D|H|NT)$")
PENALTY_COLUMNS: Final = ("pulka", "whists")
MAX_REASON_LENGTH: Final = 2000
"""A penalty's reason is a sentence or two, as the referee's form takes it."""
TRICKS: Final = 10
"""Tricks in a deal: 32 cards, ten to each of the three players and two in the talon."""

_ERR = "invalid_input"


@dataclass(frozen=True, slots=True, kw_only=True)
class Whister:
    """A defender who whisted ("wist", "вист": played against the declarer for whists)."""

    player: str
    tricks: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal:
    """A deal played. ``level`` is ``None`` for misère; ``tricks`` is ``None`` when
    nobody whisted (the contract counts as made); ``dealer`` deals and, with four
    players, sits the deal out."""

    path: str
    contract: str
    level: int | None
    declarer: str
    tricks: int | None
    whisters: tuple[Whister, ...]
    dealer: str

    @property
    def price_key(self) -> str:
        return MISERE if self.level is None else str(self.level)

    @property
    def made(self) -> bool:
        if self.tricks is None:
            return True
        return self.tricks == 0 if self.level is None else self.tricks >= self.level


@dataclass(frozen=True, slots=True, kw_only=True)
class Penalty:
    """The referee's penalty of a deliberately wrong entry by ``player``, of its own ``size``."""

    path: str
    column: str
    player: str
    size: int
    reason: str
    wronged: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Writes:
    """What an entry writes: ``pulka`` points to the declarer (before help), mountain
    points per player, and whists keyed (writer, the player they are written on)."""

    pulka: int = 0
    gora: dict[str, int] = field(default_factory=dict)
    whists: dict[tuple[str, str], int] = field(default_factory=dict)


def _player(value: Any, path: str, players: tuple[str, ...]) -> str:
    if value not in players:
        raise ScoringError("pulka_unknown_player", {"player": show(value), "players": ", ".join(players)}, path)
    return value


def next_dealer(previous: str | None, players: tuple[str, ...]) -> str:
    """The deal passes to the left: the first deal is dealt by the first player."""
    return players[0] if previous is None else players[(players.index(previous) + 1) % len(players)]


def parse_entry(data: Any, path: str, *, players: tuple[str, ...], previous_dealer: str | None) -> Deal | Penalty:
    """A validated entry of the ``deals`` list; every error names its place under ``path``."""
    if isinstance(data, dict) and "penalty" in data:
        return _parse_penalty(data, path, players)
    return _parse_deal(data, path, players=players, previous_dealer=previous_dealer)


def _parse_penalty(data: dict[str, Any], path: str, players: tuple[str, ...]) -> Penalty:
    read_object(
        data,
        path,
        _ERR,
        allowed=("penalty", "player", "size", "reason", "wronged"),
        required=("penalty", "player", "size", "reason"),
    )
    column = read_str(data["penalty"], join(path, "penalty"), _ERR, choices=PENALTY_COLUMNS)
    player = _player(data["player"], join(path, "player"), players)
    reason = read_str(data["reason"], join(path, "reason"), _ERR, max_length=MAX_REASON_LENGTH)
    if not reason.strip():
        raise fail(_ERR, join(path, "reason"), "a reason (the referee says why)")
    wronged = None
    if column == "whists":
        if "wronged" not in data:
            raise fail(_ERR, join(path, "wronged"), "given (the player the whists were over-written on)")
        wronged = _player(data["wronged"], join(path, "wronged"), players)
        if wronged == player:
            raise fail(_ERR, join(path, "wronged"), "another player than the offender")
    elif "wronged" in data:
        raise fail(_ERR, join(path, "wronged"), "absent (a pulka penalty goes onto the offender's own mountain)")
    size = read_int(data["size"], join(path, "size"), _ERR, minimum=1, maximum=10_000)
    return Penalty(path=path, column=column, player=player, size=size, reason=reason, wronged=wronged)


def _parse_deal(data: Any, path: str, *, players: tuple[str, ...], previous_dealer: str | None) -> Deal:
    read_object(
        data,
        path,
        _ERR,
        allowed=("contract", "declarer", "tricks", "whisters", "dealer"),
        required=("contract", "declarer"),
    )
    contract = data["contract"]
    match = CONTRACT_PATTERN.match(contract) if isinstance(contract, str) else None
    if contract != MISERE and match is None:
        raise ScoringError("pulka_unknown_contract", {"contract": show(contract)}, join(path, "contract"))
    level = int(match.group(1)) if match else None
    if "dealer" in data:
        dealer = _player(data["dealer"], join(path, "dealer"), players)
    else:
        dealer = next_dealer(previous_dealer, players)
    sits_out = dealer if len(players) == 4 else None
    declarer = _player(data["declarer"], join(path, "declarer"), players)
    if declarer == sits_out:
        raise ScoringError("pulka_dealer_plays", {"player": declarer}, join(path, "declarer"))
    whisters = _parse_whisters(data.get("whisters", []), join(path, "whisters"), players, declarer, sits_out)
    if level is None and whisters:
        raise ScoringError("pulka_misere_whist", {}, join(path, "whisters"))
    tricks_path = join(path, "tricks")
    tricks = None
    if level is None or whisters:
        if "tricks" not in data:
            raise fail(_ERR, tricks_path, "given (the declarer's tricks)")
        tricks = read_int(data["tricks"], tricks_path, _ERR, minimum=0, maximum=TRICKS)
    elif "tricks" in data:
        raise fail(_ERR, tricks_path, "absent: nobody whisted, so the contract counts as made")
    if tricks is not None and whisters:
        total = tricks + sum(whister.tricks for whister in whisters)
        defenders = len(players) - (2 if sits_out else 1)
        if total > TRICKS or (len(whisters) == defenders and total != TRICKS):
            expected = f"{TRICKS}, as both defenders whisted" if len(whisters) == defenders else f"at most {TRICKS}"
            raise ScoringError("pulka_tricks_total", {"total": total, "expected": expected}, path)
    return Deal(
        path=path, contract=contract, level=level, declarer=declarer, tricks=tricks, whisters=whisters, dealer=dealer
    )


def _parse_whisters(
    data: Any, path: str, players: tuple[str, ...], declarer: str, sits_out: str | None
) -> tuple[Whister, ...]:
    whisters: list[Whister] = []
    for i, item in enumerate(read_list(data, path, _ERR)):
        item_path = join(path, i)
        read_object(item, item_path, _ERR, allowed=("player", "tricks"), required=("player", "tricks"))
        player_path = join(item_path, "player")
        player = _player(item["player"], player_path, players)
        if player == declarer:
            raise ScoringError("pulka_declarer_whists", {"player": player}, player_path)
        if player == sits_out:
            raise ScoringError("pulka_dealer_plays", {"player": player}, player_path)
        if any(whister.player == player for whister in whisters):
            raise ScoringError("pulka_duplicate_player", {"player": player}, player_path)
        tricks = read_int(item["tricks"], join(item_path, "tricks"), _ERR, minimum=0, maximum=TRICKS)
        whisters.append(Whister(player=player, tricks=tricks))
    return tuple(whisters)


def entry_writes(entry: Deal | Penalty, variant: Variant) -> Writes:
    """What ``entry`` writes on the sheet (help aside, see :mod:`.sheet`)."""
    if isinstance(entry, Penalty):
        if entry.column == "pulka":
            return Writes(gora={entry.player: entry.size})
        return Writes(whists={(entry.wronged, entry.player): entry.size})
    price = variant.price(entry.price_key)
    gora: dict[str, int] = {}
    if not entry.made:
        # a remiz: price × each trick the declarer fell short (misère: each trick taken)
        short = entry.tricks if entry.level is None else entry.level - entry.tricks
        gora[entry.declarer] = price * short
    whists: dict[tuple[str, str], int] = {}
    if entry.level is not None and entry.whisters:
        per_trick = variant.whists_per_trick[entry.level]
        obligation = variant.whist_obligation[entry.level]
        taken = sum(whister.tricks for whister in entry.whisters)
        for whister in entry.whisters:
            whists[(whister.player, entry.declarer)] = per_trick * whister.tricks
            if taken < obligation:
                # counted in half tricks: two whisters owe half the obligation each
                owed_halves = obligation * (2 if len(entry.whisters) == 1 else 1)
                short_halves = max(0, owed_halves - 2 * whister.tricks)
                if short_halves:
                    gora[whister.player] = price * short_halves // 2
    return Writes(pulka=price if entry.made else 0, gora=gora, whists=whists)
