"""52:52 deals ("boki", docs/rules.md §4.3) under each tie rule."""

import pytest

from scoring import ScoringError, load_ruleset, score_deal, score_protocol


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


# "tie": true records a 52:52 deal whose eyes were not counted (docs/interfaces.md §1)
TIE_CASES = [
    (preset, contract, old, kontras)
    for preset in ("psb", "gorzow", "puck", "pomorska")
    for contract, old, kontras in [
        ("zwykla", ["A", "B"], []),
        ("zwykla", ["A", "B"], ["young"]),
        ("wesele", ["B", "D"], ["old", "young"]),
        ("cicha", ["C"], ["young"]),
        ("zolo", ["A"], []),
        ("gran", ["D"], ["young", "old"]),
        ("zolo_du", ["B"], ["young"]),
    ]
]


@pytest.mark.parametrize(("preset", "contract", "old", "kontras"), TIE_CASES)
def test_a_tie_without_eyes_is_valued_as_52_eyes(preset, contract, old, kontras):
    ruleset = load_ruleset(preset)
    deal = {"contract": contract, "old": old, "kontras": kontras}
    assert score_deal({**deal, "tie": True}, ruleset) == score_deal({**deal, "old_eyes": 52}, ruleset)


def test_a_tie_without_eyes_starts_a_bok_round_where_52_eyes_would():
    pomorska = load_ruleset("pomorska")
    win = {"contract": "zwykla", "old": ["A", "B"], "old_eyes": 60}
    tie = {"contract": "zwykla", "old": ["A", "B"], "tie": True}
    rows = score_protocol([tie, {**win, "bok_round": True}, win, win, win, win], pomorska).rows
    assert [row.bok_round for row in rows] == [False, True, True, True, True, False]
    assert rows[1].values["A"] == 2


def test_a_deal_marked_not_a_tie_still_needs_its_result():
    deal = {"contract": "zwykla", "old": ["A", "B"], "tie": False}
    assert score_deal({**deal, "old_eyes": 60}, load_ruleset("puck")).winner == "old"
    with pytest.raises(ScoringError) as error:
        score_deal(deal, load_ruleset("puck"))
    assert error.value.code == "missing_result"


@pytest.mark.parametrize(
    ("deal", "code", "path"),
    [
        ({"contract": "zwykla", "old": ["A", "B"], "tie": True, "old_eyes": 52}, "conflicting_result", "deal"),
        (
            {"contract": "zwykla", "old": ["A", "B"], "tie": True, "winner": "young", "level": "z_wyjsciem"},
            "conflicting_result",
            "deal",
        ),
        ({"contract": "zwykla", "old": ["A", "B"], "tie": True, "misplay": "C"}, "misplay_with_result", "deal"),
        ({"contract": "baska", "old": ["A"], "tie": True}, "tie_without_play", "deal.tie"),
        ({"contract": "zolo", "old": ["A"], "laid_down": True, "tie": True}, "tie_without_play", "deal.tie"),
        ({"contract": "zwykla", "old": ["A", "B"], "tie": "yes"}, "invalid_input", "deal.tie"),
    ],
)
def test_a_tie_without_eyes_is_refused_beside_another_result(deal, code, path):
    with pytest.raises(ScoringError) as error:
        score_deal(deal, load_ruleset("puck"))
    assert (error.value.code, error.value.path) == (code, path)
