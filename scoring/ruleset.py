"""Rulesets: everything an organiser can change about scoring, as data.

A ruleset ("regulamin") is one JSON object.  The presets in ``rulesets/`` follow
the source documents (docs/rules.md); an organiser's own ruleset has the same shape.
:func:`parse_ruleset` validates such an object into the typed :class:`Ruleset`
and :func:`ruleset_to_dict` turns it back, so the two round-trip.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from .constants import CONTRACTS, LEVELS, PAIR_CONTRACTS, SIDES, TIE_EYES, TOTAL_EYES
from .errors import ScoringError
from .fields import fail, join, read_bool, read_int, read_list, read_number, read_object, read_str

PRESETS: Final = ("psb", "gorzow", "puck", "pomorska")

TIE_RULES: Final = ("young_wins", "last_doubler_loses")
"""What a 52:52 deal ("bok") means: a young win, or (gorzow) a loss for the old
without kontras and for the side that gave the last counted doubling with them."""

MISPLAY_RULES: Final = ("player", "side")
"""Who pays for a misplay: the offending player alone, or the offender's side."""

BOK_TRIGGERS: Final = ("tie", "marked")
"""What starts a bok round: a deal that ends 52:52 (``tie``), or the scorer's mark
on the rows pre-marked on the sheet (``marked``, pomorska §12n read literally)."""

SHARED_PLACES: Final = ("fractional", "better", "points")
"""How a shared place counts in the place tie-breaks (gorzow): as a fraction of
each place covered, as the better place, or by the points it earned."""

TEAM_BIG_POINTS: Final = ("members", "place")
"""A team's big points: its members' big points added, or points for the team's
place in the tournament (psb example II)."""

CICHA_NA_DOBICIU_KONTRA: Final = ("counts", "ignored", "refused")
"""A kontra on a cicha "na dobiciu" (the deal's mark ``cicha_na_dobiciu``: the declarer with the
queen of diamonds last to play, or the hands of gorzow VI.5, cannot lose): it counts as any
kontra; it is not counted (gorzow VI.5: "Nie liczy się kontra na cichą…"); or it may not be
given at all (puck 25: "NIE PRZYJMUJE się KONTRY")."""

STAKE_CAP_READINGS: Final = ("before_loss", "after_loss")
"""Where the cap of the raises ("podwyższenie stawki … może wynosić 6400% stawki podstawowej",
psb §7.13, pomorska §5n) stands against the loser's doubling (psb §14.5: the young's win and a
lost solo pay double): the raises alone (du, kontras, bok) reach at most the cap, the loser's
doubling applies after it; or the cap covers the loser's doubling too."""

TIEBREAK_PATTERN: Final = re.compile(r"^(?:big_points|small_points|(?:more|fewer)_places_[1-4])$")
"""Ranking criteria: ``big_points``, ``small_points``, ``more_places_N`` (more
N-th places is better), ``fewer_places_N`` (fewer N-th places is better)."""

_ERR = "invalid_ruleset"

# Bounds of every number a ruleset holds: far beyond any rulebook (the largest stake is gorzow's ×3,
# the largest bye compensation puck's +40), and small enough that no deal's value, nor a series'
# sum of 96 of them, leaves a database integer, a printed cell or a chart.
MAX_FACTOR = 10  # each of the level, young-win, solo-loss and stake factors; a base is at most 100 × this
MAX_DOUBLINGS = 4  # kontra, rekontra, bok, hirsz (docs/rules.md §2)
MAX_BOK_FACTOR = 4
MAX_STAKE_CAP = MAX_FACTOR * 2**MAX_DOUBLINGS * MAX_BOK_FACTOR * MAX_FACTOR  # no cap above what a deal can reach
MAX_DEALS = 96  # as a tournament's deals per series
MAX_POINTS = 1000  # any big points, bonus or bye compensation
TABLE_PLACES = 4
MAX_BYE_COUNTS = 16  # compensations for 1, 2 … bye players in one series
MAX_PLACES = 500  # a places-to-points table (teams)
MAX_TIEBREAKS = 12
MAX_NOTES = 50
MAX_NOTE_LENGTH = 2000
MAX_NAME_LENGTH = 120


@dataclass(frozen=True, slots=True)
class ContractRule:
    """How one contract is valued.

    ``base`` is the value per player (pair game) or per opponent (solo game)
    without doublings; ``stake_multiplier`` multiplies it once more (gorzow plays
    zolo and zolo_du "×3"); a ``thrown`` game ("rzucana") is won without play;
    a contract that ``needs_all_tricks`` (the "du" games) is won only with all
    104 eyes.  ``max_doublings_laid_down`` caps the doublings of a hand laid
    down on the table ("wykładana"); ``None`` means the usual cap.
    """

    code: str
    base: int
    max_doublings: int
    max_doublings_laid_down: int | None = None
    stake_multiplier: int = 1
    thrown: bool = False
    needs_all_tricks: bool = False
    pair: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pair", self.code in PAIR_CONTRACTS)


@dataclass(frozen=True, slots=True)
class Wyjscie:
    """The eyes a losing side must reach to lose "z wyjściem" (old, young)."""

    old: int
    young: int


@dataclass(frozen=True, slots=True)
class BokRounds:
    """Bok rounds ("bok-runda"): rounds of ``length`` deals that count ``factor``
    times, at most ``max_per_series`` per series (None: no cap). ``trigger`` is
    one of :data:`BOK_TRIGGERS`: under ``tie`` a 52:52 deal starts the next round,
    under ``marked`` the scorer marks the rows and at most ``max_per_series ×
    length`` rows may be marked (scoring.protocol)."""

    enabled: bool
    trigger: str
    length: int
    factor: int
    max_per_series: int | None


@dataclass(frozen=True, slots=True)
class Placement:
    """Big points ("duże punkty") per place at a table in one series, and a
    bonus shared by the players who finished the series with a positive result."""

    points: tuple[float, ...]
    positive_bonus: float


@dataclass(frozen=True, slots=True)
class TeamBigPoints:
    """How a team earns big points: ``by`` one of :data:`TEAM_BIG_POINTS`;
    ``points`` per team place 1, 2, 3 … when ``by`` is ``place``."""

    by: str = "members"
    points: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class StakeCap:
    """The cap of a deal's raises (podwyższenie stawki, the stake's raise): "du", the counted
    kontras and the bok round together multiply a contract's base at most ``factor`` times
    (6400 % is 64); ``applies`` is one of :data:`STAKE_CAP_READINGS`."""

    factor: int
    applies: str = "before_loss"


@dataclass(frozen=True, slots=True)
class Byes:
    """Compensation for a bye ("wolny los", "pauza"): big points by the number of
    bye players in the series (1, 2, 3 …) and small points."""

    big_points: tuple[float, ...]
    small_points: int
    max_per_player: int
    individuals_first: bool


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A complete, validated set of scoring rules.

    The readings the sources leave open, each defaulting to the first reading:
    ``misplay_min_doublings`` (a misplay is valued with at least that many
    doublings), ``shared_places`` (one of :data:`SHARED_PLACES`, for the place
    tie-breaks), ``team_big_points``, ``deals_multiple`` (deals per series must be
    a multiple of it, :func:`deals_per_series_check`) and ``penalty_big_points``
    (whether a referee's penalty may take big points); ``stake_cap`` (None: the
    raises are not capped); ``cicha_na_dobiciu_kontra`` (one of
    :data:`CICHA_NA_DOBICIU_KONTRA`).
    """

    id: str
    name: str
    contracts: tuple[ContractRule, ...]
    eyes_to_win: int
    wyjscie: Wyjscie
    level_factors: tuple[int, int, int]
    young_win_factor: int
    solo_loss_factor: int
    tie: str
    first_kontra_pair: tuple[str, ...]
    first_kontra_solo: tuple[str, ...]
    bok_rounds: BokRounds
    misplay: str
    placement: Placement
    byes: Byes
    tiebreaks: tuple[str, ...]
    notes: tuple[str, ...] = ()
    # readings the sources leave open (docs/rules.md §4.6, §5, §6), each defaulting to the first reading
    misplay_min_doublings: int = 0
    shared_places: str = "fractional"
    team_big_points: TeamBigPoints = TeamBigPoints()
    deals_multiple: int = 1
    penalty_big_points: bool = False
    stake_cap: StakeCap | None = None
    cicha_na_dobiciu_kontra: str = "counts"
    _by_code: dict[str, ContractRule] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # frozen: the lookup table is filled once here, valuing deals reads it often
        object.__setattr__(self, "_by_code", {rule.code: rule for rule in self.contracts})

    def contract(self, code: str) -> ContractRule | None:
        """The rule of a contract, or None when the ruleset does not play it."""
        return self._by_code.get(code)

    def level_factor(self, level: str) -> int:
        return self.level_factors[LEVELS.index(level)]


_CONTRACT_KEYS = ("base", "max_doublings", "max_doublings_laid_down", "stake_multiplier", "thrown", "needs_all_tricks")
_TOP_KEYS = (
    "id",
    "name",
    "notes",
    "contracts",
    "eyes_to_win",
    "wyjscie",
    "level_factors",
    "young_win_factor",
    "solo_loss_factor",
    "tie",
    "first_kontra",
    "bok_rounds",
    "misplay",
    "placement",
    "byes",
    "tiebreaks",
    "misplay_min_doublings",
    "shared_places",
    "team_big_points",
    "deals_multiple",
    "penalty_big_points",
    "stake_cap",
    "cicha_na_dobiciu_kontra",
)
# keys a ruleset file may leave out; the defaults are the Ruleset's own
_OPTIONAL_KEYS = frozenset(
    {
        "notes",
        "misplay_min_doublings",
        "shared_places",
        "team_big_points",
        "deals_multiple",
        "penalty_big_points",
        "stake_cap",
        "cicha_na_dobiciu_kontra",
    }
)


def _parse_contract(code: str, data: Any, path: str) -> ContractRule:
    obj = read_object(data, path, _ERR, allowed=_CONTRACT_KEYS, required=("base", "max_doublings"))
    laid_down = obj.get("max_doublings_laid_down")
    rule = ContractRule(
        code=code,
        base=read_int(obj["base"], join(path, "base"), _ERR, minimum=1, maximum=MAX_FACTOR * 100),
        max_doublings=read_int(
            obj["max_doublings"], join(path, "max_doublings"), _ERR, minimum=0, maximum=MAX_DOUBLINGS
        ),
        max_doublings_laid_down=None
        if laid_down is None
        else read_int(laid_down, join(path, "max_doublings_laid_down"), _ERR, minimum=0, maximum=MAX_DOUBLINGS),
        stake_multiplier=read_int(
            obj.get("stake_multiplier", 1), join(path, "stake_multiplier"), _ERR, minimum=1, maximum=MAX_FACTOR
        ),
        thrown=read_bool(obj.get("thrown", False), join(path, "thrown"), _ERR),
        needs_all_tricks=read_bool(obj.get("needs_all_tricks", False), join(path, "needs_all_tricks"), _ERR),
    )
    if rule.pair and (rule.thrown or rule.needs_all_tricks or rule.max_doublings_laid_down is not None):
        raise fail(_ERR, path, "a pair contract: neither thrown, nor needing all tricks, nor laid down")
    return rule


def _parse_sides(data: Any, path: str) -> tuple[str, ...]:
    sides = read_list(data, path, _ERR)
    for i, side in enumerate(sides):
        read_str(side, join(path, i), _ERR, choices=SIDES)
    if not sides or len(set(sides)) != len(sides):
        raise fail(_ERR, path, "a non-empty list of distinct sides")
    return tuple(sides)


def _parse_numbers(data: Any, path: str, *, max_items: int, code: str = _ERR) -> tuple[float, ...]:
    numbers = read_list(data, path, code, max_items=max_items)
    return tuple(read_number(x, join(path, i), code, maximum=MAX_POINTS) for i, x in enumerate(numbers))


def parse_place_points(data: Any, path: str = "place_points") -> tuple[float, ...]:
    """A places-to-points table kept outside a ruleset (a season's: points for 1st, 2nd …),
    bounded as a ruleset's own are: at most ``MAX_PLACES`` places, each a finite number from
    0 to ``MAX_POINTS``, so that no sum of them overflows. Raises ``invalid_input``."""
    return _parse_numbers(data, path, max_items=MAX_PLACES, code="invalid_input")


def parse_ruleset(data: dict[str, Any]) -> Ruleset:
    """Validate a ruleset object; any problem raises ``invalid_ruleset`` with its path."""
    if not isinstance(data, dict):
        raise fail(_ERR, "ruleset", "an object")
    required = tuple(k for k in _TOP_KEYS if k not in _OPTIONAL_KEYS)
    obj = read_object(data, "", _ERR, allowed=_TOP_KEYS, required=required)
    contracts_obj = read_object(obj["contracts"], "contracts", _ERR, allowed=CONTRACTS)
    if not contracts_obj:
        raise fail(_ERR, "contracts", "a non-empty object")
    # keep the canonical order of docs/rules.md §1 whatever the order in the file
    contracts = tuple(
        _parse_contract(code, contracts_obj[code], join("contracts", code))
        for code in CONTRACTS
        if code in contracts_obj
    )
    wyj = read_object(obj["wyjscie"], "wyjscie", _ERR, allowed=SIDES, required=SIDES)
    levels = read_object(obj["level_factors"], "level_factors", _ERR, allowed=LEVELS, required=LEVELS)
    first = read_object(obj["first_kontra"], "first_kontra", _ERR, allowed=("pair", "solo"), required=("pair", "solo"))
    bok = read_object(
        obj["bok_rounds"],
        "bok_rounds",
        _ERR,
        allowed=("enabled", "trigger", "length", "factor", "max_per_series"),
        required=("enabled", "trigger", "length", "factor", "max_per_series"),
    )
    placement = read_object(
        obj["placement"], "placement", _ERR, allowed=("points", "positive_bonus"), required=("points", "positive_bonus")
    )
    byes = read_object(
        obj["byes"],
        "byes",
        _ERR,
        allowed=("big_points", "small_points", "max_per_player", "individuals_first"),
        required=("big_points", "small_points", "max_per_player", "individuals_first"),
    )
    tiebreaks = read_list(obj["tiebreaks"], "tiebreaks", _ERR, max_items=MAX_TIEBREAKS)
    for i, tiebreak in enumerate(tiebreaks):
        if not isinstance(tiebreak, str) or not TIEBREAK_PATTERN.match(tiebreak):
            raise fail(_ERR, join("tiebreaks", i), "big_points, small_points, more_places_N or fewer_places_N")
    notes = read_list(obj.get("notes", []), "notes", _ERR, max_items=MAX_NOTES)
    for i, note in enumerate(notes):
        read_str(note, join("notes", i), _ERR, max_length=MAX_NOTE_LENGTH)
    max_bok = bok["max_per_series"]
    bye_points = _parse_numbers(byes["big_points"], "byes.big_points", max_items=MAX_BYE_COUNTS)
    if not bye_points:
        raise fail(_ERR, "byes.big_points", "a non-empty list")
    team = read_object(obj.get("team_big_points", {}), "team_big_points", _ERR, allowed=("by", "points"))
    team_by = read_str(team.get("by", "members"), "team_big_points.by", _ERR, choices=TEAM_BIG_POINTS)
    team_points = _parse_numbers(team.get("points", []), "team_big_points.points", max_items=MAX_PLACES)
    if team_by == "place" and not team_points:
        raise fail(_ERR, "team_big_points.points", "a non-empty list of points for team places 1, 2, 3 …")
    stake_cap = None
    if obj.get("stake_cap") is not None:
        cap = read_object(obj["stake_cap"], "stake_cap", _ERR, allowed=("factor", "applies"), required=("factor",))
        stake_cap = StakeCap(
            factor=read_int(cap["factor"], "stake_cap.factor", _ERR, minimum=1, maximum=MAX_STAKE_CAP),
            applies=read_str(cap.get("applies", "before_loss"), "stake_cap.applies", _ERR, choices=STAKE_CAP_READINGS),
        )
    return Ruleset(
        id=read_str(obj["id"], "id", _ERR, max_length=MAX_NAME_LENGTH),
        name=read_str(obj["name"], "name", _ERR, max_length=MAX_NAME_LENGTH),
        contracts=contracts,
        # below 53 a 52:52 deal would be an old win, and there would be no tie
        eyes_to_win=read_int(obj["eyes_to_win"], "eyes_to_win", _ERR, minimum=TIE_EYES + 1, maximum=TOTAL_EYES),
        wyjscie=Wyjscie(
            old=read_int(wyj["old"], "wyjscie.old", _ERR, minimum=1, maximum=TIE_EYES),
            young=read_int(wyj["young"], "wyjscie.young", _ERR, minimum=1, maximum=TIE_EYES),
        ),
        level_factors=(
            read_int(levels["z_wyjsciem"], "level_factors.z_wyjsciem", _ERR, minimum=1, maximum=MAX_FACTOR),
            read_int(levels["bez_wyjscia"], "level_factors.bez_wyjscia", _ERR, minimum=1, maximum=MAX_FACTOR),
            read_int(levels["bez_bitki"], "level_factors.bez_bitki", _ERR, minimum=1, maximum=MAX_FACTOR),
        ),
        young_win_factor=read_int(obj["young_win_factor"], "young_win_factor", _ERR, minimum=1, maximum=MAX_FACTOR),
        solo_loss_factor=read_int(obj["solo_loss_factor"], "solo_loss_factor", _ERR, minimum=1, maximum=MAX_FACTOR),
        tie=read_str(obj["tie"], "tie", _ERR, choices=TIE_RULES),
        first_kontra_pair=_parse_sides(first["pair"], "first_kontra.pair"),
        first_kontra_solo=_parse_sides(first["solo"], "first_kontra.solo"),
        bok_rounds=BokRounds(
            enabled=read_bool(bok["enabled"], "bok_rounds.enabled", _ERR),
            trigger=read_str(bok["trigger"], "bok_rounds.trigger", _ERR, choices=BOK_TRIGGERS),
            length=read_int(bok["length"], "bok_rounds.length", _ERR, minimum=1, maximum=MAX_DEALS),
            factor=read_int(bok["factor"], "bok_rounds.factor", _ERR, minimum=1, maximum=MAX_BOK_FACTOR),
            max_per_series=None
            if max_bok is None
            else read_int(max_bok, "bok_rounds.max_per_series", _ERR, minimum=0, maximum=MAX_DEALS),
        ),
        misplay=read_str(obj["misplay"], "misplay", _ERR, choices=MISPLAY_RULES),
        placement=Placement(
            points=_parse_numbers(placement["points"], "placement.points", max_items=TABLE_PLACES),
            positive_bonus=read_number(
                placement["positive_bonus"], "placement.positive_bonus", _ERR, maximum=MAX_POINTS
            ),
        ),
        byes=Byes(
            big_points=bye_points,
            small_points=read_int(
                byes["small_points"], "byes.small_points", _ERR, minimum=-MAX_POINTS, maximum=MAX_POINTS
            ),
            max_per_player=read_int(byes["max_per_player"], "byes.max_per_player", _ERR, minimum=0, maximum=MAX_DEALS),
            individuals_first=read_bool(byes["individuals_first"], "byes.individuals_first", _ERR),
        ),
        tiebreaks=tuple(tiebreaks),
        notes=tuple(notes),
        misplay_min_doublings=read_int(
            obj.get("misplay_min_doublings", 0), "misplay_min_doublings", _ERR, minimum=0, maximum=4
        ),
        shared_places=read_str(obj.get("shared_places", "fractional"), "shared_places", _ERR, choices=SHARED_PLACES),
        team_big_points=TeamBigPoints(by=team_by, points=team_points),
        deals_multiple=read_int(obj.get("deals_multiple", 1), "deals_multiple", _ERR, minimum=1, maximum=16),
        penalty_big_points=read_bool(obj.get("penalty_big_points", False), "penalty_big_points", _ERR),
        stake_cap=stake_cap,
        cicha_na_dobiciu_kontra=read_str(
            obj.get("cicha_na_dobiciu_kontra", "counts"),
            "cicha_na_dobiciu_kontra",
            _ERR,
            choices=CICHA_NA_DOBICIU_KONTRA,
        ),
    )


def deals_per_series_check(*, ruleset: Ruleset, deals: int) -> None:
    """Refuse a number of deals per series that the ruleset does not allow: psb plays
    "always a multiple of four" (§14.4) so that every player deals equally often."""
    count = read_int(deals, "deals_per_series", "invalid_input", minimum=1)
    if count % ruleset.deals_multiple:
        params = {
            "ruleset": ruleset.id,
            "ruleset_name": ruleset.name,
            "multiple": ruleset.deals_multiple,
            "deals": count,
        }
        raise ScoringError("deals_not_multiple", params, "deals_per_series")


def ruleset_to_dict(ruleset: Ruleset) -> dict[str, Any]:
    """The JSON object of a ruleset, complete with defaults; parses back equal."""
    return {
        "id": ruleset.id,
        "name": ruleset.name,
        "notes": list(ruleset.notes),
        "contracts": {
            rule.code: {
                "base": rule.base,
                "max_doublings": rule.max_doublings,
                "max_doublings_laid_down": rule.max_doublings_laid_down,
                "stake_multiplier": rule.stake_multiplier,
                "thrown": rule.thrown,
                "needs_all_tricks": rule.needs_all_tricks,
            }
            for rule in ruleset.contracts
        },
        "eyes_to_win": ruleset.eyes_to_win,
        "wyjscie": {"old": ruleset.wyjscie.old, "young": ruleset.wyjscie.young},
        "level_factors": dict(zip(LEVELS, ruleset.level_factors, strict=True)),
        "young_win_factor": ruleset.young_win_factor,
        "solo_loss_factor": ruleset.solo_loss_factor,
        "tie": ruleset.tie,
        "first_kontra": {"pair": list(ruleset.first_kontra_pair), "solo": list(ruleset.first_kontra_solo)},
        "bok_rounds": {
            "enabled": ruleset.bok_rounds.enabled,
            "trigger": ruleset.bok_rounds.trigger,
            "length": ruleset.bok_rounds.length,
            "factor": ruleset.bok_rounds.factor,
            "max_per_series": ruleset.bok_rounds.max_per_series,
        },
        "misplay": ruleset.misplay,
        "placement": {"points": list(ruleset.placement.points), "positive_bonus": ruleset.placement.positive_bonus},
        "byes": {
            "big_points": list(ruleset.byes.big_points),
            "small_points": ruleset.byes.small_points,
            "max_per_player": ruleset.byes.max_per_player,
            "individuals_first": ruleset.byes.individuals_first,
        },
        "tiebreaks": list(ruleset.tiebreaks),
        "misplay_min_doublings": ruleset.misplay_min_doublings,
        "shared_places": ruleset.shared_places,
        "team_big_points": {"by": ruleset.team_big_points.by, "points": list(ruleset.team_big_points.points)},
        "deals_multiple": ruleset.deals_multiple,
        "penalty_big_points": ruleset.penalty_big_points,
        "stake_cap": None
        if ruleset.stake_cap is None
        else {"factor": ruleset.stake_cap.factor, "applies": ruleset.stake_cap.applies},
        "cicha_na_dobiciu_kontra": ruleset.cicha_na_dobiciu_kontra,
    }


@cache
def _load_preset(preset: str) -> Ruleset:
    text = resources.files(__package__).joinpath("rulesets").joinpath(f"{preset}.json").read_text(encoding="utf-8")
    return parse_ruleset(json.loads(text))


def load_ruleset(ref: str) -> Ruleset:
    """A preset by id, or a ruleset JSON file by path."""
    if not isinstance(ref, str):
        raise ScoringError("invalid_input", {"field": "ruleset", "expected": "a preset id or a file path"}, "ruleset")
    if ref in PRESETS:
        return _load_preset(ref)
    path = Path(ref)
    if not path.is_file():
        raise ScoringError("unknown_ruleset", {"ref": ref, "presets": ", ".join(PRESETS)}, "ruleset")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ScoringError("invalid_ruleset", {"field": ref, "expected": f"a readable JSON file ({exc})"}) from exc
    return parse_ruleset(data)


def preset_choices() -> list[tuple[str, str]]:
    """(id, human name) of every preset, for a form's select box."""
    return [(preset, _load_preset(preset).name) for preset in PRESETS]
