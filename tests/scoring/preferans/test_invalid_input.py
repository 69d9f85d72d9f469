"""Invalid pulka requests raise ScoringError with a stable code at a located path."""

import json
from importlib import resources

import pytest

from scoring import MESSAGES, ScoringError
from scoring.preferans import load_variant, parse_variant, read_sheet

from .sheets import pulka_of

REQUEST = {"players": ["A", "B", "C"], "variant": "sochi", "total": 50, "deals": []}
WHISTED = {"contract": "7H", "declarer": "A", "tricks": 7, "whisters": [{"player": "B", "tricks": 2}]}


def with_deal(deal, **request):
    return {**REQUEST, **request, "deals": [deal]}


CASES = [
    ("invalid_input", [1], "input"),
    ("invalid_input", {**REQUEST, "ruleset": "puck"}, "input.ruleset"),
    ("missing_field", {"players": ["A", "B", "C"], "variant": "sochi", "total": 50}, "deals"),
    ("invalid_input", {**REQUEST, "players": ["A", "B"]}, "players"),
    ("invalid_input", {**REQUEST, "players": ["A", "B", 3]}, "players[2]"),
    ("invalid_input", {**REQUEST, "players": ["A", "B", " "]}, "players[2]"),
    ("pulka_duplicate_player", {**REQUEST, "players": ["A", "B", "A"]}, "players[2]"),
    ("unknown_variant", {**REQUEST, "variant": "rostov"}, "variant"),
    ("unknown_variant", {**REQUEST, "variant": ["sochi"]}, "variant"),
    ("invalid_input", {**REQUEST, "total": 0}, "total"),
    ("invalid_input", {**REQUEST, "stake": 0.1}, "stake"),
    ("invalid_input", {**REQUEST, "stake": "ten"}, "stake"),
    ("invalid_input", {**REQUEST, "stake": "NaN"}, "stake"),
    ("invalid_input", {**REQUEST, "stake": -1}, "stake"),
    ("invalid_input", {**REQUEST, "closed": "yes"}, "closed"),
    ("invalid_input", {**REQUEST, "deals": {}}, "deals"),
    ("invalid_input", with_deal({"declarer": "A"}), "deals[0].contract"),
    ("invalid_input", with_deal({**WHISTED, "bid": 7}), "deals[0].bid"),
    ("pulka_unknown_contract", with_deal({**WHISTED, "contract": "11S"}), "deals[0].contract"),
    ("pulka_unknown_contract", with_deal({**WHISTED, "contract": 7}), "deals[0].contract"),
    ("pulka_unknown_player", with_deal({**WHISTED, "declarer": "Z"}), "deals[0].declarer"),
    ("pulka_unknown_player", with_deal({**WHISTED, "dealer": "Z"}), "deals[0].dealer"),
    (
        "pulka_unknown_player",
        with_deal({**WHISTED, "whisters": [{"player": "Z", "tricks": 3}]}),
        "deals[0].whisters[0].player",
    ),
    ("invalid_input", with_deal({**WHISTED, "whisters": {"B": 3}}), "deals[0].whisters"),
    ("invalid_input", with_deal({**WHISTED, "whisters": [{"player": "B"}]}), "deals[0].whisters[0].tricks"),
    (
        "invalid_input",
        with_deal({**WHISTED, "whisters": [{"player": "B", "tricks": 11}]}),
        "deals[0].whisters[0].tricks",
    ),
    (
        "pulka_declarer_whists",
        with_deal({**WHISTED, "whisters": [{"player": "A", "tricks": 3}]}),
        "deals[0].whisters[0].player",
    ),
    (
        "pulka_duplicate_player",
        with_deal({**WHISTED, "whisters": [{"player": "B", "tricks": 1}, {"player": "B", "tricks": 2}]}),
        "deals[0].whisters[1].player",
    ),
    ("pulka_dealer_plays", with_deal({**WHISTED, "dealer": "A"}, players=["A", "B", "C", "D"]), "deals[0].declarer"),
    (
        "pulka_dealer_plays",
        with_deal({**WHISTED, "dealer": "B"}, players=["A", "B", "C", "D"]),
        "deals[0].whisters[0].player",
    ),
    (
        "pulka_misere_whist",
        with_deal({"contract": "misere", "declarer": "A", "tricks": 0, "whisters": [{"player": "B", "tricks": 0}]}),
        "deals[0].whisters",
    ),
    ("invalid_input", with_deal({"contract": "misere", "declarer": "A"}), "deals[0].tricks"),
    ("invalid_input", with_deal({"contract": "6S", "declarer": "A", "tricks": 6}), "deals[0].tricks"),
    ("invalid_input", with_deal({**WHISTED, "tricks": -1}), "deals[0].tricks"),
    ("pulka_tricks_total", with_deal({**WHISTED, "tricks": 9}), "deals[0]"),
    (
        "pulka_tricks_total",
        with_deal({**WHISTED, "whisters": [{"player": "B", "tricks": 2}, {"player": "C", "tricks": 0}]}),
        "deals[0]",
    ),
    ("pulka_over", {**REQUEST, "deals": [*pulka_of(150, "A"), WHISTED]}, "deals[15]"),
    ("invalid_input", with_deal({"penalty": "gora", "player": "A", "size": 1, "reason": "r"}), "deals[0].penalty"),
    ("invalid_input", with_deal({"penalty": "pulka", "player": "A", "size": 1}), "deals[0].reason"),
    ("invalid_input", with_deal({"penalty": "pulka", "player": "A", "size": 1, "reason": " "}), "deals[0].reason"),
    (
        "invalid_input",
        with_deal({"penalty": "pulka", "player": "A", "size": 1, "reason": "r" * 2001}),
        "deals[0].reason",
    ),
    ("invalid_input", with_deal({"penalty": "pulka", "player": "A", "size": 0, "reason": "r"}), "deals[0].size"),
    (
        "pulka_unknown_player",
        with_deal({"penalty": "pulka", "player": "Z", "size": 1, "reason": "r"}),
        "deals[0].player",
    ),
    (
        "invalid_input",
        with_deal({"penalty": "pulka", "player": "A", "wronged": "B", "size": 1, "reason": "r"}),
        "deals[0].wronged",
    ),
    ("invalid_input", with_deal({"penalty": "whists", "player": "A", "size": 1, "reason": "r"}), "deals[0].wronged"),
    (
        "invalid_input",
        with_deal({"penalty": "whists", "player": "A", "wronged": "A", "size": 1, "reason": "r"}),
        "deals[0].wronged",
    ),
]


@pytest.mark.parametrize(("code", "request_", "path"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_invalid_request_raises_its_code_at_its_path(code, request_, path):
    with pytest.raises(ScoringError) as error:
        read_sheet(request_)
    assert (error.value.code, error.value.path) == (code, path)
    assert error.value.message == MESSAGES[code].format(**error.value.params)


def test_pulka_over_counts_every_pulka_in_leningrad():
    deals = [*pulka_of(100, "A"), *pulka_of(50, "B"), WHISTED]
    with pytest.raises(ScoringError) as error:
        read_sheet({**REQUEST, "variant": "leningrad", "deals": deals})
    assert error.value.code == "pulka_over" and error.value.params == {"total": 150}


def variant_data(**changes):
    text = resources.files("scoring.preferans").joinpath("variants", "sochi.json").read_text(encoding="utf-8")
    return {**json.loads(text), **changes}


def test_a_variant_file_parses_into_the_variant_it_loads():
    assert parse_variant(variant_data()) == load_variant("sochi")


def test_a_variant_without_issue_28s_settings_takes_the_seeds_readings():
    data = variant_data()
    for key in ("remainder", "closing_factor", "help_overflow", "help_leftover"):
        data.pop(key, None)
    variant = parse_variant(data)
    assert (variant.remainder, variant.closing_factor, variant.help_overflow, variant.help_leftover) == (
        "mountain",
        1,
        "next",
        "own_pulka",
    )


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"prices": {"6": 2}}, "variant.prices.7"),
        ({"prices": {"6": 2, "7": 4, "8": 5, "9": 8, "10": 10, "misere": 10}}, "variant.prices.8"),
        ({"whist_obligation": {"6": 5, "7": 2, "8": 1, "9": 1, "10": 0}}, "variant.whist_obligation.6"),
        ({"help_whists_per_point": 0}, "variant.help_whists_per_point"),
        ({"over_factor": -1}, "variant.over_factor"),
        ({"notes": [1]}, "variant.notes[0]"),
        ({"remainder": "each"}, "variant.remainder"),
        ({"closing_factor": 11}, "variant.closing_factor"),
        ({"help_overflow": "lost"}, "variant.help_overflow"),
        ({"help_leftover": None}, "variant.help_leftover"),
    ],
)
def test_a_variant_with_impossible_data_is_refused(changes, path):
    with pytest.raises(ScoringError) as error:
        parse_variant(variant_data(**changes))
    assert (error.value.code, error.value.path) == ("invalid_ruleset", path)


def test_every_preferans_error_code_is_triggered_here():
    preferans_codes = {code for code in MESSAGES if code.startswith("pulka_")} | {"unknown_variant"}
    assert preferans_codes <= {case[0] for case in CASES}
