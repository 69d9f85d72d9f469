"""52:52 deals ("boki", docs/rules.md §4.3) under each tie rule."""

import pytest

from scoring import load_ruleset, score_deal


@pytest.mark.parametrize("preset", ["psb", "puck", "pomorska"])
def test_tie_is_a_young_win(preset):
    result = score_deal(
        {"contract": "zwykla", "old": ["A", "B"], "kontras": ["old"], "old_eyes": 52}, load_ruleset(preset)
    )
    assert result.tie and result.winner == "young" and result.level == "z_wyjsciem"


def test_psb_old_who_kontra_and_tie_pay_double():
    result = score_deal(
        {"contract": "zwykla", "old": ["A", "B"], "kontras": ["old"], "old_eyes": 52}, load_ruleset("psb")
    )
    assert result.values == {"A": -4, "B": -4, "C": 4, "D": 4}


@pytest.mark.parametrize(
    ("contract", "old", "kontras", "winner"),
    [
        ("zwykla", ["A", "B"], [], "young"),
        ("zwykla", ["A", "B"], ["young"], "old"),
        ("zwykla", ["A", "B"], ["old"], "young"),
        ("zwykla", ["A", "B"], ["young", "old"], "young"),
        ("zwykla", ["A", "B"], ["young", "old", "old"], "young"),
        ("zolo", ["A"], ["young"], "old"),
        ("zolo", ["A"], ["young", "old"], "young"),
        ("cicha", ["A"], [], "young"),
    ],
)
def test_gorzow_tie_is_lost_by_the_last_doubler_or_the_old(contract, old, kontras, winner):
    result = score_deal({"contract": contract, "old": old, "kontras": kontras, "old_eyes": 52}, load_ruleset("gorzow"))
    assert result.tie and result.winner == winner


def test_tie_in_a_du_contract_is_a_plain_loss():
    result = score_deal(
        {"contract": "gran_du", "old": ["A"], "kontras": ["young"], "old_eyes": 52}, load_ruleset("gorzow")
    )
    assert result.winner == "young"
