"""Translated names of the scoring engine's vocabulary and errors.

``scoring/`` is pure Python and speaks English codes; this module is the one
place that turns contracts, sides, levels and error codes into the user's
language. The protocol entry, the calculator and the importer all use it.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring import CONTRACTS, LEVELS, OFFENCES, SEATS, ScoringError
from scoring.preferans import LEVELS as PULKA_LEVELS
from scoring.preferans import MISERE

CONTRACT_LABELS = {
    "zwykla": _("ordinary game"),
    "wesele": _("wedding"),
    "cicha": _("silent wedding (cicha)"),
    "zolo": _("zolo"),
    "gran": _("gran"),
    "zolo_du": _("zolo-du"),
    "gran_du": _("gran-du"),
    "zolo_bieda": _("zolo-bieda"),
    "mester": _("méster"),
    "baska": _("baśka"),
}
assert set(CONTRACT_LABELS) == set(CONTRACTS)

SIDE_LABELS = {"old": _("the old (starzy)"), "young": _("the young (młodzi)")}

LEVEL_LABELS = {
    "z_wyjsciem": _("losers over the threshold"),
    "bez_wyjscia": _("losers under the threshold"),
    "bez_bitki": _("losers without a trick"),
}
assert set(LEVEL_LABELS) == set(LEVELS)

OFFENCE_LABELS = {
    "renege": _("renege (fela not followed)"),
    "card_shown": _("cards shown"),
    "out_of_turn": _("card played out of turn"),
    "deal_decided": _("deal already decided"),
}
"""The kinds of offence ("rodzaj przewinienia") a protocol row may note (scoring.OFFENCES)."""
assert set(OFFENCE_LABELS) == set(OFFENCES)

SEAT_CHOICES = [(seat, seat) for seat in SEATS]

# The parts of a deal object (docs/interfaces.md §1) as the deal form labels them; the scoring
# engine names a part by its path ("deal.old", "deals[3].values.B"), which nobody should read.
FIELD_LABELS = {
    "contract": _("Contract"),
    "old": _("Old seat(s)"),
    "kontras": _("Kontras"),
    "old_eyes": _("Eyes of the old"),
    "tie": _("Tie 52:52"),
    "winner": _("Winner"),
    "level": _("Level of the loss"),
    "misplay": _("Misplay by seat"),
    "laid_down": _("Hand laid down"),
    "bok_round": _("In a bok round"),
    "cicha_na_dobiciu": _("cicha “na dobiciu”"),
    "values": _("Values written on paper"),
    "offence": _("Kind of offence"),
}

# English msgids mirror scoring.errors.MESSAGES; placeholders are named after the
# error's params so a translator sees what each one holds.
ERROR_MESSAGES = {
    "invalid_input": _("Invalid input: %(field)s must be %(expected)s."),
    "invalid_json": _("The input is not valid JSON: %(detail)s."),
    "missing_field": _("The field “%(field)s” is required."),
    "unknown_contract": _("Unknown contract %(contract)s."),
    "contract_not_in_ruleset": _("The contract %(contract)s is not played under the ruleset %(ruleset)s."),
    "duplicate_seat": _("Seat %(seat)s is given twice."),
    "unknown_seat": _("Unknown seat %(seat)s; the seats are A, B, C and D."),
    "unknown_table_seat": _("Unknown seat %(seat)s; a table of this tournament has the seats %(seats)s."),
    "eyes_out_of_range": _("The old side's eyes must be between 0 and 104, got %(eyes)s."),
    "impossible_eyes": _(
        "The old side cannot take %(eyes)s eyes: every trick holds at least 8, so a side has 0, 8 to 96 or 104."
    ),
    "unknown_winner": _("Unknown winner %(winner)s; choose the old or the young."),
    "level_for_solo": _(
        "A level is given for %(contract)s, a solo game; only the ordinary game and the wedding have levels."
    ),
    "missing_level": _("Give the level of the loss for %(contract)s."),
    "unknown_level": _("Unknown level %(level)s."),
    "missing_result": _(
        "The result of %(contract)s is missing: give the old side's eyes, or the winner (and level), or a misplay."
    ),
    "conflicting_result": _("Give either the old side's eyes or the winner and level, not both."),
    "invalid_kontra": _("Kontra number %(index)s is %(kontra)s; every kontra is given by the old or the young."),
    "declarer_first_kontra": _("In %(contract)s the declarer may not give the first kontra, only answer one."),
    "first_kontra_not_allowed": _("Under this ruleset %(side)s may not give the first kontra in %(contract)s."),
    "thrown_game_lost": _("%(contract)s is won without play and cannot be lost."),
    "tie_without_play": _("%(contract)s is won without play and cannot end 52:52."),
    "misplay_with_result": _("A misplayed deal has no eyes, winner, level or laid-down hand."),
    "laid_down_not_solo": _("Only a solo game can be laid down; %(contract)s is played two against two."),
    "na_dobiciu_not_cicha": _("Only a cicha is marked “na dobiciu”; this deal is %(contract)s."),
    "kontra_on_cicha_na_dobiciu": _("Under the rules %(ruleset)s a cicha “na dobiciu” accepts no kontra."),
    "bok_rounds_disabled": _("The ruleset %(ruleset)s has no bok rounds."),
    "bok_round_mismatch": _(
        "The deal is marked as in a bok round = %(given)s, but the protocol puts it at %(derived)s."
    ),
    "too_many_bok_rows": _(
        "%(count)s rows are marked as bok rows; the ruleset %(ruleset)s allows at most %(max)s"
        " (%(rounds)s bok rounds of %(length)s deals)."
    ),
    "unknown_offence": _("Unknown kind of offence %(offence)s."),
    "invalid_values": _("Give a whole number for each of the seats A, B, C and D."),
    "value_out_of_range": _("A deal value must be between −%(max)s and %(max)s, got %(value)s."),
    "values_not_zero_sum": _("The values must sum to zero; they sum to %(total)s."),
    "values_mismatch": _("The values written %(given)s differ from the computed values %(computed)s."),
    "value_impossible_for_contract": _(
        "The values %(values)s are not a possible outcome of %(contract)s under this ruleset."
    ),
    "unknown_ruleset": _("Unknown ruleset %(ref)s."),
    "invalid_ruleset": _("Invalid ruleset: %(field)s must be %(expected)s."),
    "invalid_bye_count": _("A series can have 1 to %(max)s bye players, got %(count)s."),
    "duplicate_player": _("Player %(player)s is seated twice in series %(series)s."),
    "unknown_tiebreak": _("Unknown tie-break %(tiebreak)s."),
    "deals_not_multiple": _(
        "Under the ruleset %(ruleset)s the number of deals per series is a multiple of %(multiple)s; %(deals)s is not."
    ),
    "penalty_not_in_series": _(
        "Player %(player)s is penalised in series %(series)s but neither played nor had a bye in it."
    ),
    "penalty_big_points_not_allowed": _("The ruleset %(ruleset)s does not allow penalties in big points."),
    # the Preferans pulka sheet (scoring.preferans); in the league its players are the seats
    "unknown_variant": _("Unknown Preferans variant %(variant)s; expected one of %(expected)s."),
    "pulka_unknown_player": _("Unknown player %(player)s; the players are %(players)s."),
    "pulka_duplicate_player": _("%(player)s is named twice."),
    "pulka_unknown_contract": _(
        "Unknown contract %(contract)s; expected 6 to 10 tricks in spades, clubs, diamonds, hearts"
        " or no trumps, or misère."
    ),
    "pulka_dealer_plays": _("%(player)s deals this deal and, with four players, sits it out."),
    "pulka_declarer_whists": _("%(player)s declares this deal and cannot whist against it."),
    "pulka_misere_whist": _("Nobody whists a misère; give the declarer's tricks only."),
    "pulka_tricks_total": _("The declarer's and the whisters' tricks add up to %(total)s; expected %(expected)s."),
    "pulka_over": _("The pulka is over: the pulkas have reached %(total)s together; no deal can follow."),
}

SUIT_LABELS = {"S": _("spades ♠"), "C": _("clubs ♣"), "D": _("diamonds ♦"), "H": _("hearts ♥"), "NT": _("no trumps")}
"""The Preferans trumps, in the engine's order of its contract codes (``7H``, ``6NT``)."""


def pulka_contract_label(code: str) -> str:
    """A Preferans contract as people say it: "7 hearts ♥" ("7 kier ♥"), "misère" ("mizer")."""
    if code == MISERE:
        return str(_("misère"))
    level, suit = code[:-2], code[-2:]
    if suit != "NT":
        level, suit = code[:-1], code[-1]
    return f"{level} {SUIT_LABELS[suit]}"


PULKA_CONTRACT_CHOICES = [
    (f"{level}{suit}", format_lazy("{} {}", level, label))
    for level in PULKA_LEVELS
    for suit, label in SUIT_LABELS.items()
] + [(MISERE, _("misère"))]
"""Every Preferans contract code with its label, as :func:`pulka_contract_label` gives it."""


def field_label(path: str) -> str:
    """The label of the deal's part at the engine's ``path``: its last named member ("deals[3].old[1]" → old)."""
    for member in reversed(re.sub(r"\[\d+\]", "", path).split(".")):
        if member in FIELD_LABELS:
            return str(FIELD_LABELS[member])
    return str(_("the deal"))


def _display(key: str, value: Any) -> Any:
    if key == "field" and isinstance(value, str):
        return field_label(value)
    if key == "contract" and value in CONTRACT_LABELS:
        return CONTRACT_LABELS[value]
    if key == "side" and value in SIDE_LABELS:
        return SIDE_LABELS[value]
    if key == "level" and value in LEVEL_LABELS:
        return LEVEL_LABELS[value]
    if isinstance(value, dict):
        return ", ".join(f"{k} {v:+d}" if isinstance(v, int) else f"{k} {v}" for k, v in value.items())
    return value


def scoring_error_message(error: ScoringError) -> str:
    """The error in the user's language; codes with no translation fall back to English."""
    params = {key: _display(key, value) for key, value in error.params.items()}
    if "ruleset_name" in params:  # a person reads the ruleset's name, never its id ("psb")
        params["ruleset"] = params.pop("ruleset_name")
    if error.code == "wrong_old_count":
        return (
            ngettext(
                "%(contract)s has %(expected)s old seat, got %(got)s.",
                "%(contract)s has %(expected)s old seats, got %(got)s.",
                int(error.params.get("expected", 0)),
            )
            % params
        )
    if error.code == "too_many_doublings":
        return (
            ngettext(
                "%(contract)s admits at most %(max)s doubling under this ruleset, got %(got)s.",
                "%(contract)s admits at most %(max)s doublings under this ruleset, got %(got)s.",
                int(error.params.get("max", 0)),
            )
            % params
        )
    template = ERROR_MESSAGES.get(error.code)
    if template is None:
        return error.message
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return error.message
