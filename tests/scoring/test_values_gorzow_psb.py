"""The gorzow table (docs/rules.md §4.2), the psb loss doubling (§4.4) and the
pomorska laid-down cap (§4.5)."""

import pytest

from scoring import ScoringError, load_ruleset, score_deal

GORZOW = load_ruleset("gorzow")
PSB = load_ruleset("psb")
POMORSKA = load_ruleset("pomorska")
KONTRAS = [["young", "old", "young", "old", "young"][:n] for n in range(6)]

GORZOW_PAIR = {
    "z_wyjsciem": [1, 2, 4, 8, 16],
    "bez_wyjscia": [2, 4, 8, 16, 32],
    "bez_bitki": [4, 8, 16, 32, 64],
}
GORZOW_SOLO = {
    "zolo": [15, 30, 60],
    "gran": [5, 10, 20],
    "zolo_du": [30, 60],
    "gran_du": [10, 20],
    "cicha": [4, 8, 16, 32, 64],
}


@pytest.mark.parametrize(
    ("level", "doublings", "winner", "value"),
    [(lv, d, w, v) for lv, row in GORZOW_PAIR.items() for d, v in enumerate(row) for w in ("old", "young")],
)
def test_gorzow_pair_game_is_valued_by_the_losers_level_only(level, doublings, winner, value):
    deal = {"contract": "zwykla", "old": ["A", "B"], "kontras": KONTRAS[doublings], "winner": winner, "level": level}
    sign = 1 if winner == "old" else -1
    assert score_deal(deal, GORZOW).values == {
        "A": sign * value,
        "B": sign * value,
        "C": -sign * value,
        "D": -sign * value,
    }


@pytest.mark.parametrize(
    ("contract", "doublings", "winner", "value"),
    [(c, d, w, v) for c, row in GORZOW_SOLO.items() for d, v in enumerate(row) for w in ("old", "young")],
)
def test_gorzow_solo_game_pays_the_table_value_with_the_zolo_stake_tripled(contract, doublings, winner, value):
    deal = {"contract": contract, "old": ["C"], "kontras": KONTRAS[doublings], "winner": winner}
    sign = 1 if winner == "old" else -1
    assert score_deal(deal, GORZOW).values["C"] == 3 * sign * value
    assert score_deal(deal, GORZOW).values["A"] == -sign * value


@pytest.mark.parametrize(("contract", "value"), [("zolo_bieda", 5), ("mester", 10), ("baska", 10)])
def test_gorzow_thrown_games(contract, value):
    assert score_deal({"contract": contract, "old": ["A"]}, GORZOW).values["B"] == -value


@pytest.mark.parametrize(("contract", "cap"), [("zolo", 2), ("gran", 2), ("zolo_du", 1), ("gran_du", 1), ("cicha", 4)])
def test_gorzow_caps_the_doublings_per_contract(contract, cap):
    score_deal({"contract": contract, "old": ["A"], "kontras": KONTRAS[cap], "winner": "old"}, GORZOW)
    with pytest.raises(ScoringError) as error:
        score_deal({"contract": contract, "old": ["A"], "kontras": KONTRAS[cap + 1], "winner": "old"}, GORZOW)
    assert error.value.code == "too_many_doublings"
    assert error.value.params == {"contract": contract, "max": cap, "got": cap + 1}


def test_psb_gran_lost_without_kontra_costs_the_declarer_thirty():
    result = score_deal({"contract": "gran", "old": ["A"], "old_eyes": 40}, PSB)
    assert result.values == {"A": -30, "B": 10, "C": 10, "D": 10}


def test_psb_gran_won_pays_the_base():
    assert score_deal({"contract": "gran", "old": ["A"], "old_eyes": 60}, PSB).values["A"] == 15


def test_young_win_costs_double_in_psb_pair_games():
    result = score_deal({"contract": "wesele", "old": ["A", "B"], "kontras": ["old"], "old_eyes": 40}, PSB)
    assert result.values == {"A": -4, "B": -4, "C": 4, "D": 4}


def test_du_contract_is_lost_without_all_tricks():
    assert score_deal({"contract": "zolo_du", "old": ["A"], "old_eyes": 96}, PSB).winner == "young"
    assert score_deal({"contract": "zolo_du", "old": ["A"], "old_eyes": 104}, PSB).winner == "old"


def test_pomorska_laid_down_hand_accepts_only_a_kontra():
    laid = {"contract": "zolo", "old": ["A"], "laid_down": True, "kontras": ["young"]}
    assert score_deal(laid, POMORSKA).values == {"A": 30, "B": -10, "C": -10, "D": -10}
    with pytest.raises(ScoringError) as error:
        score_deal({**laid, "kontras": ["young", "old"]}, POMORSKA)
    assert error.value.code == "too_many_doublings"
    played = {"contract": "zolo", "old": ["A"], "kontras": ["young", "old"], "old_eyes": 60}
    assert score_deal(played, POMORSKA).multiplier == 4


def test_pomorska_wyjscie_is_26_for_the_old():
    result = score_deal({"contract": "zwykla", "old": ["A", "B"], "old_eyes": 26}, POMORSKA)
    assert result.level == "z_wyjsciem"
