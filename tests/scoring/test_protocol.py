"""Table protocols: running totals and derived bok rounds (docs/rules.md §4.3, §7)."""

import pytest

from scoring import ScoringError, load_ruleset, parse_ruleset, ruleset_to_dict, score_protocol

POMORSKA = load_ruleset("pomorska")
TIE = {"contract": "zwykla", "old": ["A", "B"], "old_eyes": 52}
WIN = {"contract": "zwykla", "old": ["A", "B"], "old_eyes": 60}


def bok_flags(deals, ruleset=POMORSKA):
    return [row.bok_round for row in score_protocol(deals, ruleset).rows]


def test_rows_carry_running_totals_that_balance():
    result = score_protocol([WIN, WIN, TIE], POMORSKA)
    assert [row.totals["A"] for row in result.rows] == [1, 2, 0]
    assert result.totals == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_tie_starts_a_bok_round_of_the_next_four_deals():
    assert bok_flags([TIE] + [WIN] * 5) == [False, True, True, True, True, False]


def test_deals_in_a_bok_round_count_double():
    rows = score_protocol([TIE, WIN], POMORSKA).rows
    assert rows[1].values["A"] == 2 and rows[1].result.multiplier == 2


def test_tie_inside_a_bok_round_queues_the_next_round():
    flags = bok_flags([TIE, WIN, TIE] + [WIN] * 8)
    assert flags == [False] + [True] * 8 + [False, False]


def test_bok_rounds_stop_at_the_maximum_per_series():
    flags = bok_flags([TIE] * 5 + [WIN] * 20)
    assert flags.count(True) == 16  # 4 rounds of 4, the fifth tie does not start one


def test_unlimited_bok_rounds_when_no_maximum():
    data = ruleset_to_dict(POMORSKA)
    data["bok_rounds"]["max_per_series"] = None
    assert bok_flags([TIE] * 5 + [WIN] * 20, parse_ruleset(data)).count(True) == 20


def test_no_bok_rounds_where_the_ruleset_has_none():
    assert bok_flags([TIE, WIN], load_ruleset("puck")) == [False, False]


def test_given_bok_round_must_agree_with_the_derived_one():
    assert bok_flags([TIE, {**WIN, "bok_round": True}]) == [False, True]
    with pytest.raises(ScoringError) as error:
        score_protocol([{**WIN, "bok_round": True}], POMORSKA)
    assert (error.value.code, error.value.path) == ("bok_round_mismatch", "deals[0].bok_round")


def test_values_only_row_keeps_its_written_values():
    row = score_protocol([{"values": {"A": 3, "B": -1, "C": -1, "D": -1}}], POMORSKA).rows[0]
    assert row.values == {"A": 3, "B": -1, "C": -1, "D": -1} and row.result.winner is None


def test_errors_name_the_deal():
    with pytest.raises(ScoringError) as error:
        score_protocol([WIN, {**WIN, "kontras": ["young", "maybe"]}], POMORSKA)
    assert (error.value.code, error.value.path) == ("invalid_kontra", "deals[1].kontras[1]")


def test_protocol_must_be_a_list():
    with pytest.raises(ScoringError) as error:
        score_protocol({"deals": []}, POMORSKA)
    assert error.value.code == "invalid_input"
