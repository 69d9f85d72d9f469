"""One deal ("rozdanie", "gra"): its parsed form and its value in points.

A deal is either described (contract, the old seats, kontras and a result) and
valued by the ruleset, or recorded by its numbers alone (``values``), as a
protocol written on paper may have it.  Values are per seat and every deal sums
to zero: in a pair game each winner gets +v and each loser -v, in a solo game
the declarer gets ±3v and each opponent ∓v.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

from .constants import CONTRACTS, LEVELS, OFFENCES, POOREST_TRICK_EYES, SEATS, SIDES, TIE_EYES, TOTAL_EYES
from .errors import ScoringError
from .fields import fail, join, read_bool, read_int, read_list, read_str, show
from .ruleset import ContractRule, Ruleset

_ERR = "invalid_input"
# Far above any deal of any preset (psb zolo-du with four kontras in a bok round is
# 1,920 per opponent); a larger number on paper is a slip of the pen.
MAX_WRITTEN_VALUE = 100_000
_FIELDS = frozenset(
    {
        "contract",
        "old",
        "kontras",
        "old_eyes",
        "tie",
        "winner",
        "level",
        "misplay",
        "bok_round",
        "laid_down",
        "values",
        "offence",
        "cicha_na_dobiciu",
    }
)
_DESCRIPTION = frozenset(
    {"old", "kontras", "old_eyes", "tie", "winner", "level", "misplay", "laid_down", "cicha_na_dobiciu"}
)
_RESULT = frozenset({"old_eyes", "tie", "winner", "level"})
_SEAT_SET = frozenset(SEATS)
_SIDE_SET = frozenset(SIDES)
_OTHER_SIDE = {"old": "young", "young": "old"}


@dataclass(frozen=True, slots=True)
class Deal:
    """A validated deal.

    ``doublings`` counts the kontras that alternate sides (a repeat by the same
    side is ignored) and ``last_doubler`` is the side of the last counted one.
    A deal without ``old`` is a values-only deal.  ``bok_round`` is None when
    the input did not say.  A deal given as ``"tie": true`` (52:52, eyes not
    counted) has ``old_eyes`` 52: it is valued exactly as 52 eyes.  ``offence``
    is the protocol's note of the kind of offence (one of
    :data:`~scoring.constants.OFFENCES`); it changes no value.  ``na_dobiciu`` marks
    a cicha "na dobiciu" (``cicha_na_dobiciu``), whose kontras the ruleset may not count
    (``doublings`` 0) or refuse.
    """

    contract: str | None
    old: tuple[str, ...] = ()
    kontras: tuple[str, ...] = ()
    doublings: int = 0
    last_doubler: str | None = None
    old_eyes: int | None = None
    winner: str | None = None
    level: str | None = None
    misplay: str | None = None
    laid_down: bool = False
    bok_round: bool | None = None
    values: dict[str, int] | None = None
    offence: str | None = None
    na_dobiciu: bool = False
    path: str = field(default="deal", compare=False)

    @property
    def values_only(self) -> bool:
        return not self.old


@dataclass(frozen=True, slots=True)
class DealResult:
    """The value of a deal.

    ``winner`` and ``level`` are None for a values-only deal, whose
    ``doublings`` and ``multiplier`` are then unknown and given as 0 and 1;
    ``doublings`` are those the deal is valued with (a misplay's are raised to
    the ruleset's ``misplay_min_doublings``); ``multiplier`` is 2**doublings
    times the bok-round factor; ``tie`` marks a 52:52 deal.
    """

    values: dict[str, int]
    winner: str | None
    level: str | None
    doublings: int
    multiplier: int
    bok_round: bool
    tie: bool


def _parse_contract(value: Any, ruleset: Ruleset, deal_path: str) -> ContractRule:
    rule = ruleset.contract(value) if type(value) is str else None
    if rule is None:
        path = join(deal_path, "contract")
        code = read_str(value, path, _ERR)
        if code not in CONTRACTS:
            raise ScoringError("unknown_contract", {"contract": code}, path)
        raise ScoringError(
            "contract_not_in_ruleset", {"contract": code, "ruleset": ruleset.id, "ruleset_name": ruleset.name}, path
        )
    return rule


def _parse_seat(value: Any, path: str) -> str:
    seat = read_str(value, path, _ERR)
    if seat not in SEATS:
        raise ScoringError("unknown_seat", {"seat": seat}, path)
    return seat


def _parse_old(value: Any, rule: ContractRule, deal_path: str) -> tuple[str, ...]:
    seats = value if type(value) is list else read_list(value, join(deal_path, "old"), _ERR)
    for i, seat in enumerate(seats):
        if type(seat) is not str or seat not in _SEAT_SET:
            _parse_seat(seat, join(join(deal_path, "old"), i))
        if seat in seats[:i]:
            raise ScoringError("duplicate_seat", {"seat": seat}, join(join(deal_path, "old"), i))
    expected = 2 if rule.pair else 1
    if len(seats) != expected:
        params = {"contract": rule.code, "expected": expected, "got": len(seats)}
        raise ScoringError("wrong_old_count", params, join(deal_path, "old"))
    return tuple(seats)


def counted_doublings(kontras: Sequence[str]) -> tuple[int, str | None]:
    """How many kontras count, and the side of the last that counts: only kontras
    that alternate sides count, a repeat by the same side adds nothing (docs/rules.md §2)."""
    doublings, last = 0, None
    for side in kontras:
        if side != last:
            doublings, last = doublings + 1, side
    return doublings, last


def _parse_kontras(
    value: Any, rule: ContractRule, ruleset: Ruleset, laid_down: bool, deal_path: str
) -> tuple[tuple[str, ...], int, str | None]:
    kontras = value if type(value) is list else read_list(value, join(deal_path, "kontras"), _ERR)
    for i, kontra in enumerate(kontras):
        if type(kontra) is not str or kontra not in _SIDE_SET:
            params = {"index": i + 1, "kontra": show(kontra)}
            raise ScoringError("invalid_kontra", params, join(join(deal_path, "kontras"), i))
    doublings, last = counted_doublings(kontras)
    if kontras:
        allowed = ruleset.first_kontra_pair if rule.pair else ruleset.first_kontra_solo
        first = kontras[0]
        if first not in allowed:
            path = join(join(deal_path, "kontras"), 0)
            if not rule.pair and first == "old":
                raise ScoringError("declarer_first_kontra", {"contract": rule.code}, path)
            raise ScoringError("first_kontra_not_allowed", {"side": first, "contract": rule.code}, path)
    cap = rule.max_doublings
    if laid_down and rule.max_doublings_laid_down is not None:
        cap = rule.max_doublings_laid_down
    if doublings > cap:
        params = {"contract": rule.code, "max": cap, "got": doublings}
        raise ScoringError("too_many_doublings", params, join(deal_path, "kontras"))
    return tuple(kontras), doublings, last


def _parse_values(value: Any, path: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ScoringError("invalid_values", {}, path)
    for key in value:
        if key not in SEATS:
            raise ScoringError("unknown_seat", {"seat": show(key)}, join(path, str(key)))
    values: dict[str, int] = {}
    for seat in SEATS:
        number = value.get(seat)
        if not isinstance(number, int) or isinstance(number, bool):
            raise ScoringError("invalid_values", {}, join(path, seat))
        if abs(number) > MAX_WRITTEN_VALUE:
            raise ScoringError("value_out_of_range", {"value": number, "max": MAX_WRITTEN_VALUE}, join(path, seat))
        values[seat] = number
    total = sum(values.values())
    if total:
        raise ScoringError("values_not_zero_sum", {"total": total}, path)
    return values


def _parse_offence(value: Any, path: str) -> str:
    offence = read_str(value, path, _ERR)
    if offence not in OFFENCES:
        raise ScoringError("unknown_offence", {"offence": offence, "expected": ", ".join(OFFENCES)}, path)
    return offence


def eyes_possible(eyes: int) -> bool:
    """Whether a side can take ``eyes``: each side took no trick or tricks of at least four jacks."""
    poorer_side = min(eyes, TOTAL_EYES - eyes)
    return poorer_side == 0 or poorer_side >= POOREST_TRICK_EYES


def _old_wins_with(eyes: int, rule: ContractRule, ruleset: Ruleset) -> bool:
    return eyes == TOTAL_EYES if rule.needs_all_tricks else eyes >= ruleset.eyes_to_win


def _missing(path: str, key: str) -> ScoringError:
    return ScoringError("missing_field", {"field": join(path, key)}, join(path, key))


def parse_deal(data: dict[str, Any], ruleset: Ruleset, *, path: str = "deal") -> Deal:
    """Validate a deal object (docs/interfaces.md §1) against a ruleset.

    Paths for error messages are built only when an error is raised: a
    tournament values thousands of deals.
    """
    if not isinstance(data, dict):
        raise fail(_ERR, path, "an object")
    if not _FIELDS.issuperset(data):
        unknown = next(key for key in data if key not in _FIELDS)
        raise fail(_ERR, join(path, str(unknown)), "absent (not a known field)")
    rule = _parse_contract(data["contract"], ruleset, path) if "contract" in data else None
    offence = _parse_offence(data["offence"], join(path, "offence")) if "offence" in data else None
    bok_round = data.get("bok_round")
    if bok_round is not None or "bok_round" in data:
        read_bool(bok_round, join(path, "bok_round"), _ERR)
        if bok_round and not ruleset.bok_rounds.enabled:
            raise ScoringError(
                "bok_rounds_disabled", {"ruleset": ruleset.id, "ruleset_name": ruleset.name}, join(path, "bok_round")
            )
    values = _parse_values(data["values"], join(path, "values")) if "values" in data else None
    if values is not None and _DESCRIPTION.isdisjoint(data):
        return Deal(rule.code if rule else None, bok_round=bok_round, values=values, offence=offence, path=path)
    if rule is None:
        raise _missing(path, "contract")
    if "old" not in data:
        raise _missing(path, "old")
    old = _parse_old(data["old"], rule, path)

    laid_down = data.get("laid_down", False)
    if laid_down is not False:
        read_bool(laid_down, join(path, "laid_down"), _ERR)
        if laid_down and rule.pair:
            raise ScoringError("laid_down_not_solo", {"contract": rule.code}, join(path, "laid_down"))
    kontras: tuple[str, ...] = ()
    doublings, last = 0, None
    if "kontras" in data:
        kontras, doublings, last = _parse_kontras(data["kontras"], rule, ruleset, laid_down, path)
    na_dobiciu = data.get("cicha_na_dobiciu", False)
    if na_dobiciu is not False and read_bool(na_dobiciu, join(path, "cicha_na_dobiciu"), _ERR):
        if rule.code != "cicha":
            raise ScoringError("na_dobiciu_not_cicha", {"contract": rule.code}, join(path, "cicha_na_dobiciu"))
        if kontras and ruleset.cicha_na_dobiciu_kontra == "refused":
            params = {"ruleset": ruleset.id, "ruleset_name": ruleset.name}
            raise ScoringError("kontra_on_cicha_na_dobiciu", params, join(path, "kontras"))
        if ruleset.cicha_na_dobiciu_kontra == "ignored":
            doublings, last = 0, None  # given, written down, and not counted

    misplay = winner = level = None
    old_eyes = data.get("old_eyes")
    if "misplay" in data:
        misplay = _parse_seat(data["misplay"], join(path, "misplay"))
        if laid_down or not _RESULT.isdisjoint(data):
            raise ScoringError("misplay_with_result", {}, path)
        if rule.thrown and misplay in old:
            raise ScoringError("thrown_game_lost", {"contract": rule.code}, join(path, "misplay"))
    if old_eyes is not None or "old_eyes" in data:
        if "winner" in data or "level" in data:
            raise ScoringError("conflicting_result", {}, path)
        if type(old_eyes) is not int:
            read_int(old_eyes, join(path, "old_eyes"), _ERR)
        if not 0 <= old_eyes <= TOTAL_EYES:
            raise ScoringError("eyes_out_of_range", {"eyes": old_eyes}, join(path, "old_eyes"))
        if not eyes_possible(old_eyes):
            raise ScoringError("impossible_eyes", {"eyes": old_eyes}, join(path, "old_eyes"))
    if data.get("tie", False) is not False and read_bool(data["tie"], join(path, "tie"), _ERR):
        if not _RESULT.isdisjoint(data.keys() - {"tie"}):
            raise ScoringError("conflicting_result", {}, path)
        if rule.thrown or laid_down:
            raise ScoringError("tie_without_play", {"contract": rule.code}, join(path, "tie"))
        old_eyes = TIE_EYES
    if "level" in data:
        if not rule.pair:
            raise ScoringError("level_for_solo", {"contract": rule.code}, join(path, "level"))
        level = read_str(data["level"], join(path, "level"), _ERR)
        if level not in LEVELS:
            raise ScoringError("unknown_level", {"level": level}, join(path, "level"))
    if "winner" in data:
        winner = read_str(data["winner"], join(path, "winner"), _ERR)
        if winner not in SIDES:
            raise ScoringError("unknown_winner", {"winner": winner}, join(path, "winner"))
        if rule.pair and level is None:
            raise ScoringError("missing_level", {"contract": rule.code}, join(path, "level"))
    elif level is not None:
        raise ScoringError("missing_result", {"contract": rule.code}, join(path, "winner"))

    won_without_play = rule.thrown or laid_down
    if won_without_play and (
        winner == "young" or (old_eyes is not None and not _old_wins_with(old_eyes, rule, ruleset))
    ):
        raise ScoringError("thrown_game_lost", {"contract": rule.code}, path)
    if misplay is None and old_eyes is None and winner is None and not won_without_play:
        raise ScoringError("missing_result", {"contract": rule.code}, path)
    return Deal(
        rule.code,
        old,
        kontras,
        doublings,
        last,
        old_eyes,
        winner,
        level,
        misplay,
        laid_down,
        bok_round,
        values,
        offence=offence,
        na_dobiciu=bool(na_dobiciu),
        path=path,
    )


def _level_of_loss(old_eyes: int, winner: str, ruleset: Ruleset) -> str:
    """The loser's level: its eyes against its own wyjście threshold."""
    if winner == "young":
        eyes, threshold = old_eyes, ruleset.wyjscie.old
    else:
        eyes, threshold = TOTAL_EYES - old_eyes, ruleset.wyjscie.young
    if eyes == 0:
        return "bez_bitki"
    return "z_wyjsciem" if eyes >= threshold else "bez_wyjscia"


def _tie_winner(deal: Deal, ruleset: Ruleset) -> str:
    if ruleset.tie == "young_wins" or deal.last_doubler is None:
        return "young"
    return _OTHER_SIDE[deal.last_doubler]


def _outcome(deal: Deal, rule: ContractRule, ruleset: Ruleset) -> tuple[str, str | None, bool]:
    """(winner, level, tie) of a described deal."""
    if deal.misplay is not None:
        winner = "young" if deal.misplay in deal.old else "old"
        return winner, ("z_wyjsciem" if rule.pair else None), False
    if rule.thrown or deal.laid_down:
        return "old", None, False
    eyes = deal.old_eyes
    if eyes is None:
        if deal.winner is None:
            raise ScoringError("missing_result", {"contract": rule.code}, deal.path)
        return deal.winner, deal.level, False
    tie = eyes == TIE_EYES
    if _old_wins_with(eyes, rule, ruleset):
        winner = "old"
    # a "du" contract is about tricks, so 52:52 is a plain loss there
    elif tie and not rule.needs_all_tricks:
        winner = _tie_winner(deal, ruleset)
    else:
        winner = "young"
    return winner, (_level_of_loss(eyes, winner, ruleset) if rule.pair else None), tie


def _settle(
    rule: ContractRule,
    ruleset: Ruleset,
    old: tuple[str, ...],
    winner: str,
    level: str | None,
    misplay: str | None,
    multiplier: int,
) -> dict[str, int]:
    """Per-seat values of an outcome; a misplay is settled as a loss of the
    offender's side at the z_wyjsciem level, paid by the offender alone under
    the ``player`` rule."""
    raised = rule.stake_multiplier * multiplier  # du, the counted kontras, the bok round
    loser_doubling = 1
    if rule.pair and winner == "young":
        loser_doubling = ruleset.young_win_factor
    elif not rule.pair and winner == "young":
        loser_doubling = ruleset.solo_loss_factor
    cap = ruleset.stake_cap
    if cap is None:
        factor = raised * loser_doubling
    elif cap.applies == "before_loss":
        factor = min(raised, cap.factor) * loser_doubling
    else:
        factor = min(raised * loser_doubling, cap.factor)
    v = rule.base * factor
    if rule.pair:
        assert level is not None, "a pair outcome always has a level"
        v *= ruleset.level_factor(level)
    if misplay is not None and ruleset.misplay == "player":
        return {seat: -3 * v if seat == misplay else v for seat in SEATS}
    sign = 1 if winner == "old" else -1
    per_old = sign * v if rule.pair else 3 * sign * v
    return {seat: per_old if seat in old else -sign * v for seat in SEATS}


def _bok_factor(ruleset: Ruleset, bok_round: bool) -> int:
    return ruleset.bok_rounds.factor if bok_round else 1


def _valued_doublings(doublings: int, misplay: str | None, ruleset: Ruleset) -> int:
    """The doublings a deal is valued with: a misplay costs at least ``misplay_min_doublings``
    (pomorska §12e read literally: "treated as a kontra z wyjściem"), even above the contract's cap."""
    return max(doublings, ruleset.misplay_min_doublings) if misplay is not None else doublings


@lru_cache(maxsize=64)
def possible_values(ruleset: Ruleset, contract: str, bok_round: bool) -> frozenset[tuple[int, int, int, int]]:
    """Every value row (A, B, C, D) that a contract can produce under a ruleset."""
    rule = ruleset.contract(contract)
    if rule is None:
        return frozenset()
    caps = [rule.max_doublings, rule.max_doublings_laid_down or 0]
    winners = ("old",) if rule.thrown else SIDES
    levels: tuple[str | None, ...] = LEVELS if rule.pair else (None,)
    rows: set[tuple[int, int, int, int]] = set()
    for old in combinations(SEATS, 2 if rule.pair else 1):
        outcomes = [(w, lv, None) for w in winners for lv in levels]
        outcomes += [
            ("young" if seat in old else "old", "z_wyjsciem" if rule.pair else None, seat)
            for seat in SEATS
            if not (rule.thrown and seat in old)
        ]
        for doublings in range(max(caps) + 1):
            for winner, level, misplay in outcomes:
                valued = _valued_doublings(doublings, misplay, ruleset)
                multiplier = (1 << valued) * _bok_factor(ruleset, bok_round)
                values = _settle(rule, ruleset, old, winner, level, misplay, multiplier)
                rows.add((values["A"], values["B"], values["C"], values["D"]))
    return frozenset(rows)


def _show_values(values: dict[str, int]) -> str:
    return ", ".join(f"{seat} {values[seat]:+d}" for seat in SEATS)


def value_deal(deal: Deal, ruleset: Ruleset, *, bok_round: bool | None = None) -> DealResult:
    """Value a parsed deal; ``bok_round`` overrides the deal's own flag (a
    protocol derives it)."""
    in_bok = bool(deal.bok_round) if bok_round is None else bok_round
    if in_bok and not ruleset.bok_rounds.enabled:
        raise ScoringError("bok_rounds_disabled", {"ruleset": ruleset.id, "ruleset_name": ruleset.name}, deal.path)
    if deal.values_only:
        assert deal.values is not None
        if deal.contract is not None:
            row = (deal.values["A"], deal.values["B"], deal.values["C"], deal.values["D"])
            if row not in possible_values(ruleset, deal.contract, in_bok):
                params = {"values": _show_values(deal.values), "contract": deal.contract}
                raise ScoringError("value_impossible_for_contract", params, join(deal.path, "values"))
        return DealResult(dict(deal.values), None, None, 0, 1, in_bok, False)
    rule = ruleset.contract(deal.contract or "")
    if rule is None:
        raise ScoringError(
            "contract_not_in_ruleset",
            {"contract": deal.contract, "ruleset": ruleset.id, "ruleset_name": ruleset.name},
            deal.path,
        )
    winner, level, tie = _outcome(deal, rule, ruleset)
    doublings = _valued_doublings(deal.doublings, deal.misplay, ruleset)
    multiplier = (1 << doublings) * _bok_factor(ruleset, in_bok)
    values = _settle(rule, ruleset, deal.old, winner, level, deal.misplay, multiplier)
    if deal.values is not None and deal.values != values:
        params = {"given": _show_values(deal.values), "computed": _show_values(values)}
        raise ScoringError("values_mismatch", params, join(deal.path, "values"))
    return DealResult(values, winner, level, doublings, multiplier, in_bok, tie)


def score_deal(data: dict[str, Any], ruleset: Ruleset) -> DealResult:
    """Parse and value one deal object."""
    return value_deal(parse_deal(data, ruleset), ruleset)
