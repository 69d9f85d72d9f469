"""The scoring engine's error codes in the user's language (league/games/labels.py)."""

import pytest
from django.utils import translation

from league.games.labels import OFFENCE_LABELS, scoring_error_message
from scoring import OFFENCES, ScoringError, load_ruleset, score_deal


def refusal(deal, preset="puck"):
    try:
        score_deal(deal, load_ruleset(preset))
    except ScoringError as error:
        return error
    raise AssertionError("the deal was accepted")


def test_impossible_eyes_are_explained_in_polish():
    error = refusal({"contract": "zwykla", "old": ["A", "C"], "old_eyes": 4})
    with translation.override("pl"):
        message = scoring_error_message(error)
    assert "4" in message and "8" in message and "oczek" in message
    assert message != error.message


def test_a_tie_in_a_thrown_game_is_explained_in_polish():
    error = refusal({"contract": "baska", "old": ["A"], "tie": True})
    with translation.override("pl"):
        message = scoring_error_message(error)
    assert "52:52" in message and message != error.message


@pytest.mark.parametrize(
    ("code", "params", "words"),
    [
        (
            "too_many_bok_rows",
            {"count": 17, "ruleset": "pomorska", "max": 16, "rounds": 4, "length": 4},
            ["17", "16", "boki"],
        ),
        ("unknown_offence", {"offence": "cheating", "expected": "renege"}, ["cheating", "przewinienia"]),
        ("deals_not_multiple", {"ruleset": "psb", "multiple": 4, "deals": 30}, ["psb", "4", "30", "wielokrotnością"]),
        ("penalty_not_in_series", {"player": "p9", "series": 2}, ["p9", "2", "karę"]),
        ("penalty_big_points_not_allowed", {"ruleset": "gorzow"}, ["gorzow", "dużych punktach"]),
    ],
)
def test_the_new_rules_errors_are_explained_in_polish(code, params, words):
    error = ScoringError(code, params)
    with translation.override("pl"):
        message = scoring_error_message(error)
    assert message != error.message and all(word in message for word in words)


def test_every_kind_of_offence_has_a_label():
    assert list(OFFENCE_LABELS) == list(OFFENCES)
    with translation.override("pl"):
        assert [str(label) for label in OFFENCE_LABELS.values()] == [
            "nieprzestrzeganie koloru (fela)",
            "pokazanie kart",
            "zagranie poza kolejnością",
            "gra już rozstrzygnięta",
        ]


def test_a_contract_the_ruleset_does_not_play_is_refused_naming_the_rules_not_their_code():
    error = refusal({"contract": "mester", "old": ["A"], "winner": "old"}, preset="psb")
    with translation.override("pl"):
        message = scoring_error_message(error)
    assert message == "Kontraktu méster nie gra się według przepisów „Baśka z asem (przepisy ogólne)”."
