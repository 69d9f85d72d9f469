"""Misplays (docs/rules.md §4.6) under the ``player`` and ``side`` rules."""

import pytest

from scoring import OFFENCES, load_ruleset, parse_deal, score_deal

POMORSKA = load_ruleset("pomorska")
GORZOW = load_ruleset("gorzow")


def test_pomorska_misplaying_young_pays_two_to_each_in_a_kontrad_ordinary_game():
    result = score_deal({"contract": "zwykla", "old": ["A", "C"], "kontras": ["old"], "misplay": "B"}, POMORSKA)
    assert result.values == {"A": 2, "B": -6, "C": 2, "D": 2}
    assert (result.winner, result.level) == ("old", "z_wyjsciem")


def test_misplaying_old_player_pays_the_young_win_value_to_each():
    result = score_deal({"contract": "zwykla", "old": ["A", "C"], "misplay": "A"}, POMORSKA)
    assert result.values == {"A": -6, "B": 2, "C": 2, "D": 2}


def test_misplaying_declarer_pays_the_solo_loss():
    result = score_deal({"contract": "zolo", "old": ["D"], "kontras": ["young"], "misplay": "D"}, POMORSKA)
    assert result.values == {"A": 20, "B": 20, "C": 20, "D": -60}


def test_misplaying_opponent_of_a_solo_pays_each_of_the_three_others():
    result = score_deal({"contract": "gran", "old": ["D"], "misplay": "A"}, load_ruleset("puck"))
    assert result.values == {"A": -15, "B": 5, "C": 5, "D": 5}


@pytest.mark.parametrize(
    ("deal", "values"),
    [
        (
            {"contract": "zwykla", "old": ["A", "C"], "kontras": ["old"], "misplay": "B"},
            {"A": 2, "B": -2, "C": 2, "D": -2},
        ),
        (
            {"contract": "zwykla", "old": ["A", "C"], "kontras": ["old"], "misplay": "C"},
            {"A": -2, "B": 2, "C": -2, "D": 2},
        ),
        ({"contract": "zolo", "old": ["B"], "misplay": "C"}, {"A": -15, "B": 45, "C": -15, "D": -15}),
        ({"contract": "zolo", "old": ["B"], "misplay": "B"}, {"A": 15, "B": -45, "C": 15, "D": 15}),
    ],
)
def test_gorzow_misplay_is_a_loss_of_the_offenders_side(deal, values):
    assert score_deal(deal, GORZOW).values == values


def test_young_may_misplay_a_thrown_game():
    assert score_deal({"contract": "baska", "old": ["A"], "misplay": "B"}, GORZOW).values["A"] == 30


# the kind of offence (docs/rules.md §4.6) is the protocol's note: kept, never valued
OFFENCE_CASES = [
    ("renege", {"contract": "zwykla", "old": ["A", "C"], "kontras": ["old"], "misplay": "B"}),
    ("out_of_turn", {"contract": "zolo", "old": ["D"], "misplay": "D"}),
    ("card_shown", {"contract": "zwykla", "old": ["A", "C"], "winner": "young", "level": "z_wyjsciem"}),
    ("deal_decided", {"contract": "gran", "old": ["B"], "old_eyes": 70}),
    ("renege", {"contract": "zwykla", "values": {"A": 2, "B": -6, "C": 2, "D": 2}}),
]


@pytest.mark.parametrize(("offence", "deal"), OFFENCE_CASES)
def test_the_kind_of_offence_is_a_note_that_changes_no_value(offence, deal):
    noted = parse_deal({**deal, "offence": offence}, POMORSKA)
    assert noted.offence == offence and parse_deal(deal, POMORSKA).offence is None
    assert score_deal({**deal, "offence": offence}, POMORSKA) == score_deal(deal, POMORSKA)


def test_every_offence_of_the_vocabulary_is_accepted():
    deal = {"contract": "zwykla", "old": ["A", "C"], "misplay": "B"}
    assert [parse_deal({**deal, "offence": o}, GORZOW).offence for o in OFFENCES] == list(OFFENCES)
    assert OFFENCES == ("renege", "card_shown", "out_of_turn", "deal_decided")
