"""The one exception of the scoring engine and the catalogue of its error codes.

Every failure is a :class:`ScoringError` with a stable snake_case ``code``, an
English ``message`` built from :data:`MESSAGES` and ``params``, and optionally the
``path`` of the offending place in the input (``"deals[3].kontras[1]"``).  The web
layer translates from ``code`` and ``params``, so both are part of the interface:
add codes, never rename them.
"""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, str] = {
    # input shape
    "invalid_input": "Invalid input: {field} must be {expected}.",
    "invalid_json": "The input is not valid JSON: {detail}.",
    "missing_field": "The field {field} is required.",
    "unknown_command": "Unknown command {command}; expected one of {expected}.",
    # the deal
    "unknown_contract": "Unknown contract {contract}.",
    "contract_not_in_ruleset": "The contract {contract} is not played under the ruleset {ruleset}.",
    "wrong_old_count": "The contract {contract} has {expected} old seat(s), got {got}.",
    "duplicate_seat": "Seat {seat} is given twice.",
    "unknown_seat": "Unknown seat {seat}; the seats are A, B, C and D.",
    "unknown_table_seat": "Unknown seat {seat}; a table of this tournament has the seats {seats}.",
    "eyes_out_of_range": "The old side's eyes must be between 0 and 104, got {eyes}.",
    "impossible_eyes": (
        "The old side cannot take {eyes} eyes: every trick holds at least 8, so a side has 0, 8 to 96 or 104."
    ),
    "unknown_winner": "Unknown winner {winner}; expected old or young.",
    "level_for_solo": "A level is given for {contract}, a solo game; only ordinary games and weddings have levels.",
    "missing_level": "The level of the loss is required for {contract}.",
    "unknown_level": "Unknown level {level}; expected z_wyjsciem, bez_wyjscia or bez_bitki.",
    "missing_result": "The result of {contract} is missing: give old_eyes, or winner (and level), or misplay.",
    "conflicting_result": "Give either old_eyes or winner and level, not both.",
    "invalid_kontra": "Kontra number {index} is {kontra}; every kontra is old or young.",
    "too_many_doublings": "{contract} admits at most {max} doubling(s), got {got}.",
    "declarer_first_kontra": "In {contract} the declarer may not give the first kontra, only answer one.",
    "first_kontra_not_allowed": "Under this ruleset the {side} side may not give the first kontra in {contract}.",
    "thrown_game_lost": "{contract} is won without play and cannot be lost.",
    "tie_without_play": "{contract} is won without play and cannot end 52:52.",
    "misplay_with_result": "A misplayed deal has no eyes, winner, level or laid-down hand.",
    "laid_down_not_solo": "Only a solo game can be laid down; {contract} is played two against two.",
    "na_dobiciu_not_cicha": "Only a cicha is marked 'na dobiciu'; this deal is {contract}.",
    "kontra_on_cicha_na_dobiciu": "Under {ruleset_name} a cicha 'na dobiciu' accepts no kontra.",
    "bok_rounds_disabled": "The ruleset {ruleset} has no bok rounds.",
    "bok_round_mismatch": "The deal says bok_round is {given}, but the protocol puts it at {derived}.",
    "too_many_bok_rows": (
        "{count} rows are marked as bok rows; the ruleset {ruleset} allows at most {max}"
        " ({rounds} bok rounds of {length} deals)."
    ),
    "unknown_offence": "Unknown offence {offence}; expected one of {expected}.",
    # written values
    "invalid_values": "Values must give an integer for each of the seats A, B, C and D.",
    "value_out_of_range": "A deal value must be between -{max} and {max}, got {value}.",
    "values_not_zero_sum": "The values must sum to zero; they sum to {total}.",
    "values_mismatch": "The values written {given} differ from the computed values {computed}.",
    "value_impossible_for_contract": "The values {values} are not a possible outcome of {contract} under this ruleset.",
    # rulesets
    "unknown_ruleset": "Unknown ruleset {ref}; give a preset ({presets}) or the path of a ruleset file.",
    "invalid_ruleset": "Invalid ruleset: {field} must be {expected}.",
    # tournaments
    "invalid_bye_count": "A series can have 1 to {max} bye players, got {count}.",
    "too_many_byes": "Player {player} has {count} byes; the ruleset allows {max} per tournament.",
    "duplicate_player": "Player {player} is seated twice in series {series}.",
    "unknown_tiebreak": "Unknown tie-break {tiebreak}.",
    "deals_not_multiple": "The ruleset {ruleset} plays a multiple of {multiple} deals per series, got {deals}.",
    "penalty_not_in_series": "Player {player} is penalised in series {series} but neither played nor had a bye in it.",
    "penalty_big_points_not_allowed": "The ruleset {ruleset} does not allow penalties in big points.",
    # Preferans pulka sheets (scoring/preferans)
    "unknown_variant": "Unknown Preferans variant {variant}; expected one of {expected}.",
    "pulka_unknown_player": "Unknown player {player}; the players are {players}.",
    "pulka_duplicate_player": "{player} is named twice.",
    "pulka_unknown_contract": (
        "Unknown contract {contract}; expected 6 to 10 tricks with S, C, D, H or NT (such as 7H or 6NT), or misere."
    ),
    "pulka_dealer_plays": "{player} deals this deal and, with four players, sits it out.",
    "pulka_declarer_whists": "{player} declares this deal and cannot whist against it.",
    "pulka_misere_whist": "Nobody whists a misère; give the declarer's tricks only.",
    "pulka_tricks_total": "The declarer's and the whisters' tricks add up to {total}; expected {expected}.",
    "pulka_over": "The pulka is over: the pulkas have reached {total} together; no deal can follow.",
}


class ScoringError(Exception):
    """Invalid input to the scoring engine, described by a stable code."""

    def __init__(self, code: str, params: dict[str, Any] | None = None, path: str | None = None) -> None:
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        self.path = path
        self.message = MESSAGES[code].format(**self.params)
        super().__init__(f"{path}: {self.message}" if path else self.message)

    def as_dict(self) -> dict[str, Any]:
        """The error object of the command line and HTTP API."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.path:
            error["path"] = self.path
        return error
