"""Every cell of the puck scoring table (docs/rules.md §4.1)."""

import pytest

from scoring import load_ruleset, score_deal

PUCK = load_ruleset("puck")
KONTRAS = [[], ["young"], ["young", "old"], ["young", "old", "young"], ["young", "old", "young", "old"]]

SOLO_TABLE = {
    "zolo_du": [10, 20, 40],
    "gran_du": [10, 20, 40],
    "zolo": [5, 10, 20],
    "gran": [5, 10, 20],
    "cicha": [4, 8, 16, 32],
}
PAIR_TABLE = {
    ("old", "z_wyjsciem"): [1, 2, 4, 8, 16],
    ("young", "z_wyjsciem"): [2, 4, 8, 16, 32],
    ("old", "bez_wyjscia"): [2, 4, 8, 16, 32],
    ("young", "bez_wyjscia"): [4, 8, 16, 32, 64],
    ("old", "bez_bitki"): [3, 6, 12, 24, 48],
    ("young", "bez_bitki"): [6, 12, 24, 48, 96],
}


@pytest.mark.parametrize(
    ("contract", "doublings", "winner", "value"),
    [
        (contract, d, winner, v)
        for contract, row in SOLO_TABLE.items()
        for d, v in enumerate(row)
        for winner in ("old", "young")
    ],
)
def test_solo_game_pays_the_table_value_per_opponent(contract, doublings, winner, value):
    result = score_deal({"contract": contract, "old": ["B"], "kontras": KONTRAS[doublings], "winner": winner}, PUCK)
    sign = 1 if winner == "old" else -1
    assert result.values == {"A": -sign * value, "B": 3 * sign * value, "C": -sign * value, "D": -sign * value}
    assert result.doublings == doublings and result.multiplier == 2**doublings


@pytest.mark.parametrize(("contract", "value"), [("baska", 10), ("mester", 10), ("zolo_bieda", 5)])
def test_thrown_game_is_won_without_a_result(contract, value):
    result = score_deal({"contract": contract, "old": ["D"]}, PUCK)
    assert result.values == {"A": -value, "B": -value, "C": -value, "D": 3 * value}
    assert result.winner == "old"


@pytest.mark.parametrize(
    ("contract", "winner", "level", "doublings", "value"),
    [
        (contract, winner, level, d, v)
        for (winner, level), row in PAIR_TABLE.items()
        for d, v in enumerate(row)
        for contract in ("zwykla", "wesele")
    ],
)
def test_pair_game_pays_the_table_value_per_player(contract, winner, level, doublings, value):
    deal = {"contract": contract, "old": ["A", "C"], "kontras": KONTRAS[doublings], "winner": winner, "level": level}
    result = score_deal(deal, PUCK)
    sign = 1 if winner == "old" else -1
    assert result.values == {"A": sign * value, "B": -sign * value, "C": sign * value, "D": -sign * value}
    assert result.level == level


def test_young_win_bez_bitki_with_four_kontras_is_96():
    deal = {"contract": "zwykla", "old": ["A", "B"], "kontras": KONTRAS[4], "old_eyes": 0}
    assert score_deal(deal, PUCK).values == {"A": -96, "B": -96, "C": 96, "D": 96}


@pytest.mark.parametrize(
    ("old_eyes", "winner", "level"),
    [
        (104, "old", "bez_bitki"),
        (79, "old", "bez_wyjscia"),  # young keep 25 < 26
        (78, "old", "z_wyjsciem"),  # young 26: reached wyjście
        (80, "old", "bez_wyjscia"),  # young 24
        (53, "old", "z_wyjsciem"),
        (51, "young", "z_wyjsciem"),
        (27, "young", "z_wyjsciem"),
        (26, "young", "bez_wyjscia"),  # the old need 27 in puck
        (0, "young", "bez_bitki"),
    ],
)
def test_level_comes_from_the_losers_eyes_and_threshold(old_eyes, winner, level):
    result = score_deal({"contract": "zwykla", "old": ["A", "C"], "old_eyes": old_eyes}, PUCK)
    assert (result.winner, result.level) == (winner, level)
