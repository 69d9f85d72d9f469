"""The value table the phone looks provisional values up in is the engine's own valuing.

Sizes (compact JSON, as ``tabela-wartosci.json`` sends it): puck 1,204 entries, 55,930 bytes;
psb 2,848 entries, 124,129 bytes (bok rounds double the keys); gorzow 1,176; pomorska 2,848.
The description of the key that travels with the table (``lookup``) adds about 2.5 kB.

A deal is looked up by following that description (``table_key``, as the phone's script does):
every deal the engine values, of every preset, must find exactly the engine's values.
"""

from __future__ import annotations

import json
from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring import SEATS, counted_doublings, score_deal, value_table
from scoring.value_table import table_key
from tests.scoring.test_properties import FIELD_VALUES

OTHER = {"old": "young", "young": "old"}


def described_deal(key: str) -> dict:
    """The deal a key describes, read here independently of the table's generator."""
    contract, old, doublings, outcome, bok = key.split("|")
    count = int(doublings)
    deal: dict = {"contract": contract, "old": list(old)}
    name, _, detail = outcome.partition(":")
    last = detail if name == "tie" and detail else None
    if count:
        # alternate sides ending with the last doubler (ties), or starting with the young
        first = (last if count % 2 else OTHER[last]) if last else "young"
        kontras = [first if i % 2 == 0 else OTHER[first] for i in range(count)]
        deal["kontras"] = kontras
    if name == "misplay":
        deal["misplay"] = detail
    elif name == "tie":
        deal["tie"] = True
    elif detail:
        deal |= {"winner": name, "level": detail}
    elif contract not in ("zolo_bieda", "mester", "baska"):
        deal["winner"] = name
    if bok == "1":
        deal["bok_round"] = True
    return deal


def engine_values(deal: dict, ruleset) -> list[int] | None:
    """score_deal's values; for a declarer's win beyond the usual cap, the laid-down hand's."""
    for attempt in (deal, {**{k: v for k, v in deal.items() if k != "winner"}, "laid_down": True}):
        try:
            values = score_deal(attempt, ruleset).values
        except scoring.ScoringError:
            continue
        return [values[seat] for seat in SEATS]
    return None


@pytest.mark.parametrize("preset", scoring.PRESETS)
def test_every_entry_is_what_the_engine_gives_for_the_deal_it_describes(preset):
    ruleset = scoring.load_ruleset(preset)
    table = value_table(ruleset)
    for key, values in table["values"].items():
        assert engine_values(described_deal(key), ruleset) == values, key


@pytest.mark.parametrize(
    ("preset", "key", "values"),
    [
        ("puck", "zwykla|AC|0|old:z_wyjsciem|0", [1, -1, 1, -1]),
        ("puck", "zwykla|BD|0|young:bez_bitki|0", [6, -6, 6, -6]),  # young win ×2, bez bitki ×3
        ("puck", "zolo|A|1|old|0", [30, -10, -10, -10]),
        ("puck", "mester|C|0|old|0", [-10, -10, 30, -10]),
        ("puck", "zwykla|AB|0|misplay:C|0", [1, 1, -3, 1]),  # the offender alone pays
        ("psb", "zwykla|AC|0|tie|1", [-4, 4, -4, 4]),  # a tie is a young win, doubled in a bok round
        ("gorzow", "zwykla|AB|1|tie:old|0", [-2, -2, 2, 2]),  # the last doubler loses the tie
        ("gorzow", "zwykla|AB|1|tie:young|0", [2, 2, -2, -2]),
    ],
)
def test_entries_read_as_the_rules_say(preset, key, values):
    assert value_table(scoring.load_ruleset(preset))["values"][key] == values


@pytest.mark.parametrize(
    "key",
    [
        "zolo|A|3|old|0",  # puck caps zolo at two doublings
        "zolo|A|1|tie:old|0",  # the declarer never gives the first kontra
        "mester|A|0|misplay:A|0",  # a thrown game cannot be lost by its declarer
        "zwykla|AC|0|old:z_wyjsciem|1",  # puck plays no bok rounds
    ],
)
def test_deals_the_engine_refuses_have_no_entry(key):
    assert key not in value_table(scoring.load_ruleset("puck"))["values"]


def test_the_eyes_give_the_outcome_to_look_up_and_none_for_a_count_no_deal_can_have():
    eyes = value_table(scoring.load_ruleset("puck"))["eyes"]
    assert len(eyes["zwykla"]) == 105
    assert eyes["zwykla"][0] == "young:bez_bitki"
    assert eyes["zwykla"][1:8] == [None] * 7 and eyes["zwykla"][97:104] == [None] * 7
    assert eyes["zwykla"][26] == "young:bez_wyjscia"  # the old need 27 to lose with wyjście
    assert (eyes["zwykla"][52], eyes["zwykla"][53], eyes["zwykla"][104]) == ("tie", "old:z_wyjsciem", "old:bez_bitki")
    assert (eyes["zolo"][52], eyes["zolo_du"][52], eyes["zolo_du"][104]) == ("tie", "young", "old")
    assert "mester" not in eyes  # thrown: no eyes counted


@pytest.mark.parametrize("preset", scoring.PRESETS)
def test_every_eye_count_leads_to_the_engines_values(preset):
    ruleset = scoring.load_ruleset(preset)
    table = value_table(ruleset)
    for contract, outcomes in table["eyes"].items():
        old = ["A", "C"] if contract in scoring.PAIR_CONTRACTS else ["A"]
        for count, outcome in enumerate(outcomes):
            if outcome is None:
                with pytest.raises(scoring.ScoringError):
                    score_deal({"contract": contract, "old": old, "old_eyes": count}, ruleset)
                continue
            values = score_deal({"contract": contract, "old": old, "old_eyes": count}, ruleset).values
            key = f"{contract}|{''.join(old)}|0|{outcome}|0"
            assert table["values"][key] == [values[seat] for seat in SEATS], (contract, count)


def test_the_table_is_plain_json_and_the_same_every_time():
    ruleset = scoring.load_ruleset("psb")
    text = json.dumps(value_table(ruleset), sort_keys=True)
    value_table.cache_clear()
    assert json.dumps(value_table(ruleset), sort_keys=True) == text
    assert json.loads(text)["bok_rounds"] == {
        "enabled": True,
        "trigger": "tie",
        "length": 4,
        "factor": 2,
        "max_per_series": 4,
    }
    sizes = {preset: len(value_table(scoring.load_ruleset(preset))["values"]) for preset in ("puck", "psb")}
    assert sizes == {"puck": 1204, "psb": 2848}


# --- the description that travels with the table ------------------------------------------

RULESETS = [scoring.load_ruleset(preset) for preset in scoring.PRESETS]


def looked_up(table: dict, deal: dict) -> list[int] | None:
    """The values the phone finds for ``deal``: its key by the table's own description, then the entry."""
    key = table_key(table, deal)
    return None if key is None else table["values"].get(key)


def engine(deal: dict, ruleset) -> list[int] | None:
    try:
        values = score_deal(deal, ruleset).values
    except scoring.ScoringError:
        return None
    return [values[seat] for seat in SEATS]


@st.composite
def phone_deals(draw):
    """A ruleset and a deal as the phone's form may send it: any kontras (repeats, a first kontra
    the rules forbid, more than the cap), the old seats in any order, one result of any kind."""
    ruleset = draw(st.sampled_from(RULESETS))
    rule = draw(st.sampled_from(ruleset.contracts))
    old = draw(st.permutations(SEATS))[: draw(st.sampled_from([1, 2, 2 if rule.pair else 1]))]
    deal: dict = {"contract": rule.code, "old": old}
    kontras = draw(st.lists(st.sampled_from(scoring.SIDES), max_size=7))
    if kontras:
        deal["kontras"] = kontras
    result = draw(st.sampled_from(["eyes", "tie", "winner", "misplay", "laid_down", "none"]))
    if result == "eyes":
        deal["old_eyes"] = draw(st.integers(0, 104))
    elif result == "winner":
        deal["winner"] = draw(st.sampled_from(scoring.SIDES))
        if draw(st.booleans()):
            deal["level"] = draw(st.sampled_from(scoring.LEVELS))
    elif result != "none":
        deal[result] = draw(st.sampled_from(SEATS)) if result == "misplay" else True
    if ruleset.bok_rounds.enabled and draw(st.booleans()):
        deal["bok_round"] = True
    return ruleset, deal


@settings(max_examples=500, deadline=None)
@given(phone_deals())
def test_a_deal_the_engine_values_is_found_by_the_description_with_the_engines_values(case):
    ruleset, deal = case
    values = engine(deal, ruleset)
    if values is not None:
        assert looked_up(value_table(ruleset), deal) == values


def _kontra_lists(most: int):
    for length in range(most + 1):
        yield from (list(kontras) for kontras in product(scoring.SIDES, repeat=length))


# every kind of result the form can give, a few of them the engine refuses for some contracts
RESULTS = [
    {},
    {"laid_down": True},
    {"tie": True},
    *({"misplay": seat} for seat in SEATS),
    *({"winner": winner} for winner in scoring.SIDES),
    *({"winner": winner, "level": level} for winner in scoring.SIDES for level in scoring.LEVELS),
    *({"old_eyes": eyes} for eyes in (0, 8, 26, 27, 30, 52, 53, 60, 65, 96, 104)),
]


@pytest.mark.parametrize("ruleset", RULESETS, ids=scoring.PRESETS)
def test_every_deal_of_a_spread_the_engine_values_is_found_with_its_values(ruleset):
    """Every contract, every old seat (pairs in both orders), every kontra list of up to three,
    every kind of result, in and out of a bok round."""
    table = value_table(ruleset)
    boks = ({}, {"bok_round": True}) if ruleset.bok_rounds.enabled else ({},)
    valued = 0
    for rule in ruleset.contracts:
        olds = permutations(SEATS, 2 if rule.pair else 1)
        for old, kontras, result, bok in product(olds, _kontra_lists(3), RESULTS, boks):
            deal = {"contract": rule.code, "old": list(old), "kontras": kontras, **result, **bok}
            values = engine(deal, ruleset)
            if values is not None:
                valued += 1
                assert looked_up(table, deal) == values, deal
    assert valued > 5_000


@pytest.mark.parametrize("ruleset", RULESETS, ids=scoring.PRESETS)
def test_the_kontras_count_in_the_key_as_the_engine_counts_them(ruleset):
    table = value_table(ruleset)
    names = [part["name"] for part in table["lookup"]["parts"]]
    doublings = names.index("doublings")
    most = max(max(rule.max_doublings, rule.max_doublings_laid_down or 0) for rule in ruleset.contracts)
    for kontras in _kontra_lists(8):
        key = table_key(table, {"contract": "zwykla", "old": ["A", "C"], "kontras": kontras, "tie": True})
        count, last = counted_doublings(kontras)
        if count > most:
            assert key is None, kontras
        else:
            parts = key.split(table["lookup"]["separator"])
            assert parts[doublings] == str(count), kontras
            assert parts[names.index("outcome")] == (f"tie:{last}" if last else "tie"), kontras


def test_the_description_names_the_keys_parts_and_the_old_key_field_follows_it():
    table = value_table(scoring.load_ruleset("puck"))
    lookup = table["lookup"]
    assert [part["name"] for part in lookup["parts"]] == ["contract", "old", "doublings", "outcome", "bok"]
    assert table["key"] == "contract|old|doublings|outcome|bok" and lookup["separator"] == "|"
    assert json.loads(json.dumps(lookup)) == lookup


@pytest.mark.parametrize(
    ("deal", "key"),
    [
        ({"contract": "zwykla", "old": ["C", "A"], "old_eyes": 60}, "zwykla|AC|0|old:z_wyjsciem|0"),
        (
            {"contract": "zwykla", "old": ["B", "D"], "kontras": ["young", "young", "old"], "tie": True},
            "zwykla|BD|2|tie:old|0",
        ),
        ({"contract": "zwykla", "old": ["A", "B"], "kontras": ["young"], "old_eyes": 52}, "zwykla|AB|1|tie:young|0"),
        ({"contract": "mester", "old": ["D"], "winner": "old"}, "mester|D|0|old|0"),
        ({"contract": "zolo", "old": ["B"], "laid_down": True, "kontras": ["young"]}, "zolo|B|1|old|0"),
        ({"contract": "zolo", "old": ["B"], "misplay": "C"}, "zolo|B|0|misplay:C|0"),
        ({"contract": "zolo", "old": ["B"], "old_eyes": 30}, "zolo|B|0|young|0"),
        ({"contract": "zolo", "old": ["B"], "old_eyes": 3}, None),  # no deal has 3 eyes
        ({"contract": "zwykla", "old": ["A", "E"], "winner": "old", "level": "bez_bitki"}, None),
        # more counted doublings than any of puck's contracts allows
        ({"contract": "zwykla", "old": ["A", "C"], "kontras": ["young", "old"] * 2 + ["young"], "tie": True}, None),
        ({"contract": "zwykla", "old": ["A", "C"], "kontras": ["young", "maybe"], "winner": "old"}, None),
        ({"contract": "zwykla", "old": ["A", "C"]}, None),  # no result
    ],
)
def test_following_the_description_gives_the_key(deal, key):
    assert table_key(value_table(scoring.load_ruleset("puck")), deal) == key


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(RULESETS), st.fixed_dictionaries({}, optional=FIELD_VALUES))
def test_any_deal_object_gives_a_key_or_none(ruleset, deal):
    key = table_key(value_table(ruleset), deal)
    assert key is None or isinstance(key, str)
