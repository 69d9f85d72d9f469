"""Which eye counts the old side can take (docs/rules.md §3): 0, 8–96 or 104."""

import pytest

from scoring import ScoringError, load_ruleset, score_deal

PUCK = load_ruleset("puck")
# every trick holds at least four jacks, 8 eyes, so a side has no trick or one of at least 8
POSSIBLE = {0, *range(8, 97), 104}


def eyes_of(old_eyes, contract="zwykla", old=("A", "C")):
    return {"contract": contract, "old": list(old), "old_eyes": old_eyes}


@pytest.mark.parametrize("old_eyes", range(105))
def test_each_eye_count_is_valued_or_refused_as_a_slip(old_eyes):
    if old_eyes in POSSIBLE:
        assert score_deal(eyes_of(old_eyes), PUCK).winner in ("old", "young")
    else:
        with pytest.raises(ScoringError) as error:
            score_deal(eyes_of(old_eyes), PUCK)
        assert (error.value.code, error.value.path) == ("impossible_eyes", "deal.old_eyes")
        assert error.value.params == {"eyes": old_eyes}


@pytest.mark.parametrize("old_eyes", [4, 100])
def test_a_solo_game_refuses_impossible_eyes_too(old_eyes):
    with pytest.raises(ScoringError) as error:
        score_deal(eyes_of(old_eyes, "zolo_du", ["B"]), PUCK)
    assert error.value.code == "impossible_eyes"


def test_four_eyes_is_no_longer_a_loss_without_wyjscie():
    with pytest.raises(ScoringError) as error:
        score_deal(eyes_of(4), PUCK)
    assert "4" in error.value.message and "8" in error.value.message


@pytest.mark.parametrize("old_eyes", [-1, 105])
def test_counts_outside_the_deck_stay_out_of_range(old_eyes):
    with pytest.raises(ScoringError) as error:
        score_deal(eyes_of(old_eyes), PUCK)
    assert error.value.code == "eyes_out_of_range"
