"""The scoring engine's error codes in the user's language (league/results/labels.py)."""

from django.utils import translation

from league.results.labels import scoring_error_message
from scoring import ScoringError, load_ruleset, score_deal


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
