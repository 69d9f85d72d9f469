"""A stored deal in words: what the protocol pages and the history show beside the shorthand."""

import pytest
from django.utils import translation

from league.games.baska.describe import describe_deal
from league.games.baska.shorthand import parse


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("ac60", "ordinary game A+C · 60 eyes"),
        ("ac1", "ordinary game A+C · 1 eye"),
        ("bd-bw", "ordinary game B+D · lost, losers under the threshold"),
        ("bd+", "ordinary game B+D · won, losers over the threshold"),
        ("za+", "zolo A · won"),
        ("ciamsm73", "silent wedding (cicha) A ×8 · 73 eyes"),
        ("zbck", "zolo-bieda C ×2"),
        ("ackk70", "ordinary game A+C ×4 · 70 eyes"),
        ("acmm70", "ordinary game A+C ×2 · 70 eyes"),  # a repeat by the same side does not double again
        ("acxb", "ordinary game A+C · misplay by B"),
        ("gbl+", "gran B · laid down · won"),
        ("=2,-2,2,-2", "values from paper: A 2, B -2, C 2, D -2"),
        ("z=-15,5,5,5", "zolo · values from paper: A -15, B 5, C 5, D 5"),
    ],
)
def test_descriptions(line, text):
    description = describe_deal(parse(line))
    assert str(description) == text


def test_the_shorthand_is_kept_and_kontra_sides_are_named():
    description = describe_deal(parse("ackk70"))
    assert description.shorthand == "acms70"
    assert description.kontra_sides == "the young (młodzi), the old (starzy)"


def test_no_deal_has_no_description():
    assert describe_deal(None) is None
    assert describe_deal({}) is None


def test_a_tie_recorded_without_eyes_is_described_as_a_tie():
    tie = {"contract": "zwykla", "old": ["A", "C"], "tie": True}
    assert str(describe_deal(tie)) == "ordinary game A+C · tie at 52:52"
    with translation.override("pl"):
        assert describe_deal({"contract": "zolo", "old": ["B"], "tie": True}).result == "remis 52:52"


@pytest.mark.parametrize(
    ("deal", "text", "polish"),
    [
        (
            {"contract": "zwykla", "old": ["A", "C"], "misplay": "B", "offence": "renege"},
            "ordinary game A+C · misplay by B · renege (fela not followed)",
            "nieprzestrzeganie koloru (fela)",
        ),
        (
            {"contract": "zolo", "old": ["D"], "misplay": "D", "offence": "out_of_turn"},
            "zolo D · misplay by D · card played out of turn",
            "zagranie poza kolejnością",
        ),
        (
            {
                "contract": "zwykla",
                "old": ["A", "C"],
                "winner": "young",
                "level": "z_wyjsciem",
                "offence": "card_shown",
            },
            "ordinary game A+C · lost, losers over the threshold · cards shown",
            "pokazanie kart",
        ),
        (
            {"contract": "gran", "old": ["B"], "old_eyes": 70, "offence": "deal_decided"},
            "gran B · 70 eyes · deal already decided",
            "gra już rozstrzygnięta",
        ),
        (
            {"contract": "zwykla", "values": {"A": 2, "B": -6, "C": 2, "D": 2}, "offence": "renege"},
            "ordinary game · values from paper: A 2, B -6, C 2, D 2 · renege (fela not followed)",
            "nieprzestrzeganie koloru (fela)",
        ),
    ],
)
def test_the_kind_of_offence_is_described_as_a_note_after_the_result(deal, text, polish):
    description = describe_deal(deal)
    assert str(description) == text
    assert description.shorthand == describe_deal({k: v for k, v in deal.items() if k != "offence"}).shorthand
    with translation.override("pl"):
        assert describe_deal(deal).offence == polish


def test_a_row_without_an_offence_has_no_note():
    assert describe_deal(parse("acxb")).offence == ""
