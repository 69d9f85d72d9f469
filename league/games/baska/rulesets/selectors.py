"""Reads of own rulesets ("własne zasady"): an organiser's list, one of them, whether it is locked,
and the value grid ("tabela wartości") of a ruleset as the engine values it."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

import scoring
from league.games.baska.rulesets.models import OwnRuleset, OwnRulesetVersion
from league.results.models import DealRow
from scoring import LEVELS, Ruleset, ScoringError


def own_ruleset_list(*, user: AbstractBaseUser) -> QuerySet[OwnRuleset]:
    """The own rulesets of ``user``, never anyone else's."""
    return OwnRuleset.objects.filter(owner=user)


def own_ruleset_get(*, user: AbstractBaseUser, pk: int) -> OwnRuleset:
    """One own ruleset of ``user``; another organiser's is as good as missing (404)."""
    return get_object_or_404(own_ruleset_list(user=user), pk=pk)


def own_ruleset_locked(*, ruleset: OwnRuleset) -> bool:
    """Locked (zablokowane): a tournament using it has results, which its values decided."""
    return DealRow.objects.filter(protocol__series__tournament__own_rules__ruleset=ruleset).exists()


def own_ruleset_in_use(*, ruleset: OwnRuleset) -> bool:
    return ruleset.played_by.exists()


def own_ruleset_history(*, ruleset: OwnRuleset) -> QuerySet[OwnRulesetVersion]:
    """The saves of the ruleset, newest first, with who made them."""
    return ruleset.history.select_related("user").order_by("-created", "-pk")


@dataclass(frozen=True)
class GridRow:
    """One row of the value grid: a contract and its outcome, and the value per player (pair game)
    or per opponent (solo game) at 0, 1, 2 … counted doublings; None where the ruleset forbids that many.
    ``na_dobiciu``: a cicha laid down "na dobiciu" (with the queen of diamonds to finish), whose
    kontra the rules may not count or refuse."""

    contract: str
    winner: str
    level: str | None
    values: tuple[int | None, ...]
    na_dobiciu: bool = False


@dataclass(frozen=True)
class ValueGrid:
    """The grid of a ruleset: its rows, the same rows in a bok round (none without bok rounds) and
    the most doublings any contract admits (the columns 0 … that)."""

    widest: int
    rows: list[GridRow]
    bok_rows: list[GridRow]


def _doublings(ruleset: Ruleset, pair: bool, count: int) -> list[str]:
    """``count`` alternating kontras, the first by a side allowed to give it (the young in a solo game)."""
    allowed = ruleset.first_kontra_pair if pair else ruleset.first_kontra_solo
    first = "young" if "young" in allowed else allowed[0]
    other = "old" if first == "young" else "young"
    return [first if i % 2 == 0 else other for i in range(count)]


def _value(ruleset: Ruleset, row: GridRow, doublings: int, *, bok: bool) -> int | None:
    pair = row.contract in scoring.PAIR_CONTRACTS
    deal = {"contract": row.contract, "old": ["A", "C"] if pair else ["A"]}
    if row.na_dobiciu:
        deal |= {"laid_down": True, "cicha_na_dobiciu": True}
    else:
        deal["winner"] = row.winner
    if row.level:
        deal["level"] = row.level
    if doublings:
        deal["kontras"] = _doublings(ruleset, pair, doublings)
    if bok:
        deal["bok_round"] = True
    try:
        result = scoring.score_deal(deal, ruleset)
    except ScoringError:
        return None
    # seat B is always of the young: the value per player of a pair game, per opponent of a solo one
    return abs(result.values["B"])


def _rows(ruleset: Ruleset, widest: int, *, bok: bool) -> list[GridRow]:
    rows = []
    for rule in ruleset.contracts:
        outcomes: list[GridRow]
        if rule.pair:
            outcomes = [GridRow(rule.code, winner, level, ()) for level in LEVELS for winner in ("old", "young")]
        else:
            outcomes = [
                GridRow(rule.code, winner, None, ()) for winner in (("old",) if rule.thrown else ("old", "young"))
            ]
        if rule.code == "cicha" and ruleset.cicha_na_dobiciu_kontra != "counts":
            outcomes.append(GridRow(rule.code, "old", None, (), na_dobiciu=True))
        for row in outcomes:
            values = tuple(
                _value(ruleset, row, n, bok=bok) if n <= rule.max_doublings else None for n in range(widest + 1)
            )
            rows.append(replace(row, values=values))
    return rows


def value_grid(*, ruleset: Ruleset) -> ValueGrid:
    """The contract × outcome × number of kontras table of ``ruleset``, valued by ``scoring`` itself,
    and again in a bok round where the rules have them (the cap of the raises shows there)."""
    widest = max(rule.max_doublings for rule in ruleset.contracts)
    bok_rows = _rows(ruleset, widest, bok=True) if ruleset.bok_rounds.enabled else []
    return ValueGrid(widest, _rows(ruleset, widest, bok=False), bok_rows)
