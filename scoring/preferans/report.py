"""``python -m scoring pulka``: a pulka request in, the running sheet and the
settlement out, as docs/preferans.md describes."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from ..errors import ScoringError
from ..fields import fail, join, read_bool, read_int, read_list, read_object, read_str
from .entry import Deal, Penalty
from .settlement import money, settle
from .sheet import Row, Sheet, Totals, keep_sheet
from .variant import load_variant

_ERR = "invalid_input"
_FIELDS = ("players", "variant", "total", "stake", "deals", "closed")


def read_players(value: Any) -> tuple[str, ...]:
    """The three or four players in seating order (each one's left neighbour follows)."""
    items = read_list(value, "players", _ERR)
    if len(items) not in (3, 4):
        raise fail(_ERR, "players", "a list of 3 or 4 players")
    players: list[str] = []
    for i, item in enumerate(items):
        name = read_str(item, join("players", i), _ERR)
        if not name.strip():
            raise fail(_ERR, join("players", i), "a name or id")
        if name in players:
            raise ScoringError("pulka_duplicate_player", {"player": name}, join("players", i))
        players.append(name)
    return tuple(players)


def read_stake(value: Any) -> int | Decimal:
    """The stake per whist: an integer in the smallest unit, or a decimal string such as ``"0.10"``."""
    expected = 'an integer (the smallest unit) or a decimal string such as "0.10"'
    if isinstance(value, int) and not isinstance(value, bool):
        stake: int | Decimal = value
    elif isinstance(value, str):
        try:
            stake = Decimal(value)
        except InvalidOperation:
            raise fail(_ERR, "stake", expected) from None
        if not stake.is_finite():
            raise fail(_ERR, "stake", expected)
    else:
        raise fail(_ERR, "stake", expected)
    if stake < 0:
        raise fail(_ERR, "stake", "not negative")
    return stake


def read_sheet(request: Any) -> tuple[Sheet, int | Decimal | None]:
    """The sheet and the stake (``None`` when not agreed) of a pulka request."""
    read_object(request, "input", _ERR, allowed=_FIELDS)
    for key in ("players", "variant", "total", "deals"):
        if key not in request:
            raise ScoringError("missing_field", {"field": key}, key)
    players = read_players(request["players"])
    variant = load_variant(request["variant"])
    total = read_int(request["total"], "total", _ERR, minimum=1, maximum=10_000)
    stake = read_stake(request["stake"]) if "stake" in request else None
    closed = read_bool(request.get("closed", False), "closed", _ERR)
    entries = read_list(request["deals"], "deals", _ERR)
    sheet = keep_sheet(players=players, variant=variant, total=total, entries=entries, closed=closed)
    return sheet, stake


def _totals(totals: Totals) -> dict[str, Any]:
    return {
        "pulka": dict(totals.pulka),
        "gora": dict(totals.gora),
        "whists": {a: dict(b) for a, b in totals.whists.items()},
    }


def _row(row: Row) -> dict[str, Any]:
    entry = row.entry
    if isinstance(entry, Penalty):
        described: dict[str, Any] = {
            "entry": "penalty",
            "penalty": entry.column,
            "player": entry.player,
            "size": entry.size,
            "reason": entry.reason,
        }
        if entry.wronged is not None:
            described["wronged"] = entry.wronged
    else:
        assert isinstance(entry, Deal)
        described = {
            "entry": "deal",
            "dealer": entry.dealer,
            "contract": entry.contract,
            "declarer": entry.declarer,
            "made": entry.made,
            "help": dict(row.help),
        }
    return {**described, **_totals(row.totals), "final": row.final}


def _money_json(amount: int | Decimal) -> int | str:
    return amount if isinstance(amount, int) else str(amount)


def pulka_report(request: Any) -> dict[str, Any]:
    """The output object of ``python -m scoring pulka``."""
    sheet, stake = read_sheet(request)
    report: dict[str, Any] = {
        "rows": [_row(row) for row in sheet.rows],
        "totals": _totals(sheet.totals),
        "finished": sheet.finished,
        "closed": sheet.closed,
        "settlement": None,
    }
    if sheet.over:
        settlement = settle(sheet)
        report["settlement"] = {
            "mountains_at_end": dict(settlement.mountains_at_end),
            "amnesty": settlement.amnesty,
            "mountains": dict(settlement.mountains),
            "adjustments": [
                {"player": a.player, "points": a.points, "whists_each": a.whists_each} for a in settlement.adjustments
            ],
            "whists": {a: dict(b) for a, b in settlement.whists.items()},
            "net": {a: dict(b) for a, b in settlement.net.items()},
            "balance": dict(settlement.balance),
        }
        if stake is not None:
            amounts = money(settlement.balance, stake)
            report["settlement"]["money"] = {player: _money_json(amount) for player, amount in amounts.items()}
    return report
