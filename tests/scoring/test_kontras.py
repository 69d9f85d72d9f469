"""Kontras: only alternating sides count (docs/rules.md §2)."""

import pytest

from scoring import ScoringError, counted_doublings, load_ruleset, score_deal

PUCK = load_ruleset("puck")


@pytest.mark.parametrize(
    ("kontras", "doublings"),
    [
        ([], 0),
        (["young"], 1),
        (["old"], 1),
        (["young", "old", "young"], 3),
        (["young", "young", "old"], 2),
        (["young", "young", "young"], 1),
        (["old", "old", "young", "young"], 2),
    ],
)
def test_repeats_by_one_side_count_once(kontras, doublings):
    result = score_deal({"contract": "zwykla", "old": ["A", "B"], "kontras": kontras, "old_eyes": 60}, PUCK)
    assert result.doublings == doublings
    assert result.values["A"] == 2**doublings


def test_either_side_may_open_kontras_in_a_pair_game():
    assert (
        score_deal({"contract": "wesele", "old": ["A", "B"], "kontras": ["old"], "old_eyes": 60}, PUCK).doublings == 1
    )


def test_declarer_may_answer_but_not_open_kontras():
    assert (
        score_deal({"contract": "cicha", "old": ["A"], "kontras": ["young", "old"], "old_eyes": 60}, PUCK).doublings
        == 2
    )
    with pytest.raises(ScoringError) as error:
        score_deal({"contract": "cicha", "old": ["A"], "kontras": ["old"], "old_eyes": 60}, PUCK)
    assert (error.value.code, error.value.path) == ("declarer_first_kontra", "deal.kontras[0]")


@pytest.mark.parametrize(
    ("kontras", "counted"),
    [([], (0, None)), (["young", "old", "young"], (3, "young")), (["young", "young", "old"], (2, "old"))],
)
def test_only_kontras_that_alternate_sides_count(kontras, counted):
    assert counted_doublings(kontras) == counted
