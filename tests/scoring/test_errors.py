"""Invalid deals raise ScoringError with a stable code and path."""

import pytest

from scoring import MESSAGES, ScoringError, load_ruleset, parse_ruleset, ruleset_to_dict, score_deal

PUCK = load_ruleset("puck")
ZWYKLA = {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}
ZOLO = {"contract": "zolo", "old": ["B"], "old_eyes": 60}

CASES = [
    ("invalid_input", {**ZWYKLA, "old_eyes": "60"}, "deal.old_eyes"),
    ("invalid_input", {**ZWYKLA, "trumps": "hearts"}, "deal.trumps"),
    ("invalid_input", ["zwykla"], "deal"),
    ("invalid_input", {**ZWYKLA, "old": "AC"}, "deal.old"),
    ("missing_field", {"old": ["A", "C"], "old_eyes": 60}, "deal.contract"),
    ("missing_field", {"contract": "zwykla", "old_eyes": 60}, "deal.old"),
    ("unknown_contract", {**ZWYKLA, "contract": "skat"}, "deal.contract"),
    ("contract_not_in_ruleset", {"contract": "mester", "old": ["A"]}, "deal.contract"),  # under psb, below
    ("wrong_old_count", {**ZWYKLA, "old": ["A"]}, "deal.old"),
    ("wrong_old_count", {**ZOLO, "old": ["A", "B"]}, "deal.old"),
    ("duplicate_seat", {**ZWYKLA, "old": ["A", "A"]}, "deal.old[1]"),
    ("unknown_seat", {**ZWYKLA, "old": ["A", "E"]}, "deal.old[1]"),
    ("unknown_seat", {**ZWYKLA, "misplay": "N", "old_eyes": None}, "deal.misplay"),
    ("eyes_out_of_range", {**ZWYKLA, "old_eyes": 105}, "deal.old_eyes"),
    ("impossible_eyes", {**ZWYKLA, "old_eyes": 4}, "deal.old_eyes"),
    ("unknown_winner", {"contract": "zolo", "old": ["B"], "winner": "both"}, "deal.winner"),
    ("level_for_solo", {"contract": "zolo", "old": ["B"], "winner": "old", "level": "bez_bitki"}, "deal.level"),
    ("missing_level", {"contract": "zwykla", "old": ["A", "B"], "winner": "old"}, "deal.level"),
    ("unknown_level", {"contract": "zwykla", "old": ["A", "B"], "winner": "old", "level": "bez_honoru"}, "deal.level"),
    ("missing_result", {"contract": "zwykla", "old": ["A", "B"]}, "deal"),
    ("missing_result", {"contract": "zwykla", "old": ["A", "B"], "level": "bez_bitki"}, "deal.winner"),
    ("conflicting_result", {**ZWYKLA, "winner": "old", "level": "z_wyjsciem"}, "deal"),
    ("invalid_kontra", {**ZWYKLA, "kontras": ["young", "rej"]}, "deal.kontras[1]"),
    ("invalid_kontra", {**ZWYKLA, "kontras": [{"side": "old"}]}, "deal.kontras[0]"),
    ("too_many_doublings", {**ZOLO, "kontras": ["young", "old", "young"]}, "deal.kontras"),
    ("declarer_first_kontra", {**ZOLO, "kontras": ["old"]}, "deal.kontras[0]"),
    ("thrown_game_lost", {"contract": "baska", "old": ["A"], "winner": "young"}, "deal"),
    ("thrown_game_lost", {"contract": "mester", "old": ["A"], "misplay": "A"}, "deal.misplay"),
    ("thrown_game_lost", {"contract": "zolo", "old": ["A"], "laid_down": True, "old_eyes": 40}, "deal"),
    ("tie_without_play", {"contract": "mester", "old": ["A"], "tie": True}, "deal.tie"),
    ("misplay_with_result", {**ZWYKLA, "misplay": "B"}, "deal"),
    ("laid_down_not_solo", {**ZWYKLA, "laid_down": True}, "deal.laid_down"),
    ("unknown_offence", {**ZWYKLA, "offence": "cheating"}, "deal.offence"),
    ("invalid_input", {**ZWYKLA, "offence": ["renege"]}, "deal.offence"),
    ("bok_rounds_disabled", {**ZWYKLA, "bok_round": True}, "deal.bok_round"),
    ("invalid_values", {"values": {"A": 1, "B": -1, "C": 0}}, "deal.values.D"),
    ("invalid_values", {"values": {"A": 1.5, "B": -1.5, "C": 0, "D": 0}}, "deal.values.A"),
    ("invalid_values", {"values": [1, -1, 1, -1]}, "deal.values"),
    ("value_out_of_range", {"values": {"A": 2_147_483_650, "B": -2_147_483_650, "C": 0, "D": 0}}, "deal.values.A"),
    ("unknown_seat", {"values": {"A": 1, "B": -1, "C": 0, "D": 0, "E": 0}}, "deal.values.E"),
    ("values_not_zero_sum", {"values": {"A": 1, "B": 1, "C": -1, "D": 0}}, "deal.values"),
    ("values_mismatch", {**ZWYKLA, "values": {"A": 2, "B": -2, "C": 2, "D": -2}}, "deal.values"),
    (
        "value_impossible_for_contract",
        {"contract": "zolo", "values": {"A": 3, "B": -1, "C": -1, "D": -1}},
        "deal.values",
    ),
    (
        "value_impossible_for_contract",
        {"contract": "zwykla", "values": {"A": 5, "B": -5, "C": 5, "D": -5}},
        "deal.values",
    ),
]


@pytest.mark.parametrize(("code", "deal", "path"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_invalid_deal_raises_its_code_at_its_path(code, deal, path):
    ruleset = load_ruleset("psb") if code == "contract_not_in_ruleset" else PUCK
    with pytest.raises(ScoringError) as error:
        score_deal(deal, ruleset)
    assert (error.value.code, error.value.path) == (code, path)
    assert error.value.message == MESSAGES[code].format(**error.value.params)


def test_first_kontra_rule_is_a_setting():
    data = ruleset_to_dict(PUCK)
    data["first_kontra"]["pair"] = ["young"]
    with pytest.raises(ScoringError) as error:
        score_deal({**ZWYKLA, "kontras": ["old"]}, parse_ruleset(data))
    assert error.value.code == "first_kontra_not_allowed"


@pytest.mark.parametrize(
    ("deal", "values"),
    [
        ({"contract": "zolo", "values": {"A": 15, "B": -5, "C": -5, "D": -5}}, {"A": 15, "B": -5, "C": -5, "D": -5}),
        (
            {"contract": "zwykla", "values": {"A": 96, "B": -96, "C": -96, "D": 96}},
            {"A": 96, "B": -96, "C": -96, "D": 96},
        ),
        ({"contract": "zwykla", "values": {"A": 2, "B": -6, "C": 2, "D": 2}}, {"A": 2, "B": -6, "C": 2, "D": 2}),
        ({"values": {"A": 7, "B": -7, "C": 0, "D": 0}}, {"A": 7, "B": -7, "C": 0, "D": 0}),
    ],
)
def test_values_only_deal_records_possible_numbers(deal, values):
    result = score_deal(deal, PUCK)
    assert result.values == values and result.winner is None


def test_matching_values_beside_a_description_are_accepted():
    assert score_deal({**ZWYKLA, "values": {"A": 1, "B": -1, "C": 1, "D": -1}}, PUCK).winner == "old"


def test_error_object_carries_code_message_and_path():
    with pytest.raises(ScoringError) as error:
        score_deal({**ZWYKLA, "old_eyes": -1}, PUCK)
    assert error.value.as_dict() == {
        "code": "eyes_out_of_range",
        "message": "The old side's eyes must be between 0 and 104, got -1.",
        "path": "deal.old_eyes",
    }


# codes raised outside single deals, and the test files that trigger them
ELSEWHERE = {
    "invalid_json": "test_scoring_cli",
    "unknown_command": "test_scoring_cli",
    "unknown_ruleset": "test_scoring_ruleset",
    "invalid_ruleset": "test_scoring_ruleset",
    "bok_round_mismatch": "test_scoring_protocol",
    "invalid_bye_count": "test_scoring_placement",
    "too_many_byes": "test_scoring_ranking",
    "duplicate_player": "test_scoring_ranking",
    "unknown_tiebreak": "test_scoring_ranking",
    "first_kontra_not_allowed": "this file",
    "too_many_bok_rows": "test_scoring_readings",
    "deals_not_multiple": "test_scoring_readings",
    "penalty_not_in_series": "test_scoring_readings",
    "penalty_big_points_not_allowed": "test_scoring_readings",
    "na_dobiciu_not_cicha": "test_scoring_readings",
    "kontra_on_cicha_na_dobiciu": "test_scoring_readings",
    **{code: "preferans/test_invalid_input" for code in MESSAGES if code.startswith("pulka_")},
    "unknown_variant": "preferans/test_invalid_input",
    # the league's exchange import, for a Preferans table of three
    "unknown_table_seat": "tests/games/preferans/exchange/test_three_seats",
}


def test_every_error_code_is_triggered_by_a_test():
    assert {case[0] for case in CASES} | set(ELSEWHERE) == set(MESSAGES)
