"""The shorthand parser alone: no database."""

import pytest

import scoring
from league.games.baska.shorthand import ShorthandError, format_deal, parse

PUCK = scoring.load_ruleset("puck")


@pytest.mark.parametrize(
    ("line", "deal"),
    [
        ("ac60", {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}),
        ("bd+", {"contract": "zwykla", "old": ["B", "D"], "winner": "old", "level": "z_wyjsciem"}),
        ("bd=bw", {"contract": "zwykla", "old": ["B", "D"], "winner": "old", "level": "bez_wyjscia"}),
        ("ab-bb", {"contract": "zwykla", "old": ["A", "B"], "winner": "young", "level": "bez_bitki"}),
        ("AC K 70", {"contract": "zwykla", "old": ["A", "C"], "kontras": ["young"], "old_eyes": 70}),
        ("ackk40", {"contract": "zwykla", "old": ["A", "C"], "kontras": ["young", "old"], "old_eyes": 40}),
        ("acss60", {"contract": "zwykla", "old": ["A", "C"], "kontras": ["old", "old"], "old_eyes": 60}),
        ("acxb", {"contract": "zwykla", "old": ["A", "C"], "misplay": "B"}),
        ("wab+", {"contract": "wesele", "old": ["A", "B"], "winner": "old", "level": "z_wyjsciem"}),
        ("za+", {"contract": "zolo", "old": ["A"], "winner": "old"}),
        ("zak-", {"contract": "zolo", "old": ["A"], "kontras": ["young"], "winner": "young"}),
        ("zd+", {"contract": "zolo", "old": ["D"], "winner": "old"}),
        ("zdb+", {"contract": "zolo_du", "old": ["B"], "winner": "old"}),
        ("gdc-", {"contract": "gran_du", "old": ["C"], "winner": "young"}),
        ("zbc", {"contract": "zolo_bieda", "old": ["C"]}),
        ("bac", {"contract": "baska", "old": ["C"]}),
        ("ba+", {"contract": "zwykla", "old": ["B", "A"], "winner": "old", "level": "z_wyjsciem"}),
        ("cia70", {"contract": "cicha", "old": ["A"], "old_eyes": 70}),
        ("md", {"contract": "mester", "old": ["D"]}),
        ("gbl", {"contract": "gran", "old": ["B"], "laid_down": True}),
        ("nac60", {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}),
        ("=2,-2,2,-2", {"values": {"A": 2, "B": -2, "C": 2, "D": -2}}),
        ("2 -2 2 -2", {"values": {"A": 2, "B": -2, "C": 2, "D": -2}}),
        ("z=-15, 5, 5, 5", {"contract": "zolo", "values": {"A": -15, "B": 5, "C": 5, "D": 5}}),
        (
            "ciaok60",
            {"contract": "cicha", "old": ["A"], "cicha_na_dobiciu": True, "kontras": ["young"], "old_eyes": 60},
        ),
        ("bok ac60", {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60, "bok_round": True}),
        (
            "bokbd+",
            {"contract": "zwykla", "old": ["B", "D"], "winner": "old", "level": "z_wyjsciem", "bok_round": True},
        ),
        ("BOK zak-", {"contract": "zolo", "old": ["A"], "kontras": ["young"], "winner": "young", "bok_round": True}),
        ("bok =4,-4,4,-4", {"values": {"A": 4, "B": -4, "C": 4, "D": -4}, "bok_round": True}),
    ],
)
def test_lines_become_deal_objects(line, deal):
    assert parse(line) == deal


@pytest.mark.parametrize(
    ("line", "code", "position"),
    [
        ("", "empty", 0),
        ("  ", "empty", 0),
        ("q60", "unknown_start", 0),
        ("a60", "unknown_start", 0),
        ("abc+", "unknown_start", 0),
        ("ac60x", "unexpected", 4),
        ("ac+q", "unexpected", 3),
        ("yy=1,2,3,4", "unknown_start", 0),
    ],
)
def test_unreadable_lines_say_where(line, code, position):
    with pytest.raises(ShorthandError) as caught:
        parse(line)
    assert (caught.value.code, caught.value.position) == (code, position)


def test_format_is_the_inverse_of_parse():
    lines = [
        "ac60",
        "bd+bw",
        "acms-bb",
        "zam+",
        "zbc",
        "bac",
        "acxb",
        "gbl",
        "=2,-2,2,-2",
        "z=-15,5,5,5",
        "bok ac60",
        "ciaol",
    ]
    for line in lines:
        assert parse(format_deal(parse(line))) == parse(line)


# A typical 40-deal protocol as a referee copies it: mostly ordinary games by eyes
# or by result, a few kontras, some solos and a thrown game.
TYPICAL_PROTOCOL = [
    "ac60",
    "bd+",
    "ab70",
    "cd-",
    "ad58",
    "bc40",
    "ac+",
    "bd30",
    "zak+",
    "ab-",
    "cd61",
    "ad+",
    "bc-bw",
    "ack70",
    "bd+",
    "ab45",
    "za+",
    "cd+",
    "ad80",
    "bc-",
    "ac+bw",
    "bd62",
    "gc-",
    "ab+",
    "cd35",
    "ad-",
    "bck+",
    "ac55",
    "bd-",
    "zbc",
    "ab+",
    "cd70",
    "ad50",
    "bc+",
    "cib+",
    "ac-",
    "bd66",
    "zdk-",
    "ab+",
    "cd59",
]


def test_typical_protocol_needs_at_most_six_keystrokes_per_deal():
    for line in TYPICAL_PROTOCOL:
        scoring.score_deal(parse(line), PUCK)  # every line is a valid deal
    keystrokes = sum(len(line) + 1 for line in TYPICAL_PROTOCOL)  # + Enter
    average = keystrokes / len(TYPICAL_PROTOCOL)
    assert average == pytest.approx(4.625)  # 185 keystrokes for 40 deals
    assert average <= 6


@pytest.mark.parametrize(("line", "count"), [("=2,-2,2", 3), ("2 -2", 2), ("z=-15,5,5", 3), ("=1,2,3,4,-10", 5)])
def test_a_line_of_values_with_other_than_four_numbers_says_four_are_needed(line, count):
    with pytest.raises(ShorthandError) as caught:
        parse(line)
    assert (caught.value.code, caught.value.params["count"]) == ("value_count", count)


@pytest.mark.parametrize(
    ("line", "deal"),
    [
        ("acr", {"contract": "zwykla", "old": ["A", "C"], "tie": True}),
        ("bd kk r", {"contract": "zwykla", "old": ["B", "D"], "kontras": ["young", "old"], "tie": True}),
        ("zbr", {"contract": "zolo", "old": ["B"], "tie": True}),
    ],
)
def test_r_after_the_seats_records_a_tie_and_is_written_back(line, deal):
    assert parse(line) == deal
    assert parse(format_deal(deal)) == deal


def test_the_offence_note_has_no_shorthand_and_the_line_keeps_the_deal():
    noted = {"contract": "zwykla", "old": ["A", "C"], "misplay": "B", "offence": "renege"}
    assert format_deal(noted) == "acxb"
    assert parse(format_deal(noted)) == {k: v for k, v in noted.items() if k != "offence"}


@pytest.mark.parametrize(("line", "echoed"), [("ax60", "ax60"), ("q60", "q60"), ("x" * 30, "x" * 20)])
def test_an_unknown_start_repeats_the_line_as_typed(line, echoed):
    with pytest.raises(ShorthandError) as caught:
        parse(line)
    assert caught.value.params["text"] == echoed
