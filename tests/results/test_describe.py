"""A stored deal in words: what the protocol pages and the history show beside the shorthand."""

import pytest
from django.utils import translation

from league.results.describe import describe_deal
from league.results.shorthand import parse


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("ac60", "ordinary game A+C · 60 eyes"),
        ("ac1", "ordinary game A+C · 1 eye"),
        ("bd-bw", "ordinary game B+D · lost, without wyjście"),
        ("bd+", "ordinary game B+D · won, with wyjście"),
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
