"""The value table the phone looks provisional values up in is the engine's own valuing.

Sizes (compact JSON, as ``tabela-wartosci.json`` sends it): puck 1,204 entries, 58,511 bytes;
psb 2,976 entries, 136,598 bytes (bok rounds double the keys); gorzow 1,176; pomorska 2,976.
The description of the key that travels with the table (``lookup``) adds about 2.5 kB, psb's bok
rounds as a walk (``bok_walk``, 39 states) 4.8 kB.

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
from scoring.value_table import _follow, table_key
from tests.scoring.test_properties import FIELD_VALUES

OTHER = {"old": "young", "young": "old"}


def described_deal(key: str) -> dict:
    """The deal a key describes, read here independently of the table's generator."""
    contract, old, doublings, outcome, bok = key.split("|")
    count = int(doublings)
    deal: dict = {"contract": contract, "old": list(old)}
    if contract == "cicha:na_dobiciu":
        deal |= {"contract": "cicha", "cicha_na_dobiciu": True}
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
        "max_per_series": None,  # psb states no cap on the rounds (issue 38)
    }
    sizes = {preset: len(value_table(scoring.load_ruleset(preset))["values"]) for preset in ("puck", "psb")}
    # psb's baśka admits kontras (§7.6); puck's cicha "na dobiciu" has keys of its own (without a kontra)
    assert sizes == {"puck": 1232, "psb": 2976}


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
def phone_deals(draw, rulesets=tuple(RULESETS)):
    """A ruleset and a deal as the phone's form may send it: any kontras (repeats, a first kontra
    the rules forbid, more than the cap), the old seats in any order, one result of any kind."""
    ruleset = draw(st.sampled_from(rulesets))
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
    if rule.code == "cicha" and draw(st.booleans()):
        deal["cicha_na_dobiciu"] = True
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
    every kind of result, in and out of a bok round, a cicha with and without "na dobiciu"."""
    table = value_table(ruleset)
    boks = ({}, {"bok_round": True}) if ruleset.bok_rounds.enabled else ({},)
    valued = 0
    for rule in ruleset.contracts:
        olds = permutations(SEATS, 2 if rule.pair else 1)
        marks = ({}, {"cicha_na_dobiciu": True}) if rule.code == "cicha" else ({},)
        for old, kontras, result, bok, mark in product(olds, _kontra_lists(3), RESULTS, boks, marks):
            deal = {"contract": rule.code, "old": list(old), "kontras": kontras, **result, **bok, **mark}
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


# --- the bok rounds the phone walks over its queued deals (issue 28, item 5) ------------------


def _with_bok(preset: str, **bok) -> scoring.Ruleset:
    data = scoring.ruleset_to_dict(scoring.load_ruleset(preset))
    data["bok_rounds"] |= bok
    return scoring.parse_ruleset(data)


TIE_RULESETS = {
    "psb": scoring.load_ruleset("psb"),
    "pomorska": scoring.load_ruleset("pomorska"),
    "no cap, rounds of 2": _with_bok("pomorska", max_per_series=None, length=2),
    "gorzow with bok rounds": _with_bok("gorzow", enabled=True),
}


def walked(table: dict, state: str, deals: list[dict]) -> list[tuple[list[int] | None, bool]]:
    """What the phone shows for deals queued after ``state``: each deal's values, looked up with the
    marks of the rounds' state before it, and whether it was in a bok round; then a step."""
    walk = table["bok_walk"]
    shown = []
    for deal in deals:
        marks = walk["marks"].get(state, {})
        looked = {**deal, **marks}
        shown.append((looked_up(table, looked), bool(marks)))
        state = walk["steps"][state][_follow(walk["step"], looked, table)]
    return shown


@st.composite
def queued_series(draw):
    """A ruleset whose 52:52 deals start bok rounds and a series of deals the engine values, ties often."""
    name = draw(st.sampled_from(sorted(TIE_RULESETS)))
    ruleset = TIE_RULESETS[name]
    deals = []
    for _ in range(draw(st.integers(1, 24))):
        _, deal = draw(phone_deals((ruleset,)))
        deal.pop("bok_round", None)
        if draw(st.integers(0, 3)) == 0:  # a tie, given as such or by the eyes
            deal = {k: v for k, v in deal.items() if k not in ("winner", "level", "misplay", "laid_down", "old_eyes")}
            deal |= {"tie": True} if draw(st.booleans()) else {"old_eyes": 52}
        if engine(deal, ruleset) is not None:
            deals.append(deal)
    return name, deals


@settings(max_examples=300, deadline=None)
@given(queued_series(), st.integers(0, 24))
def test_walking_the_queue_from_the_servers_state_gives_the_values_the_protocol_stores(case, stored):
    """The server stored the first ``stored`` deals and gave the state after them; the phone walks
    the rest: every deal gets the value and the bok round the engine gives it in the protocol."""
    name, deals = case
    ruleset = TIE_RULESETS[name]
    table = value_table(ruleset)
    protocol = scoring.score_protocol(deals, ruleset)
    stored = min(stored, len(deals))
    state = protocol.rows[stored].bok_state if stored < len(deals) else protocol.bok_state
    expected = [([row.values[seat] for seat in SEATS], row.bok_round) for row in protocol.rows[stored:]]
    assert walked(table, state, deals[stored:]) == expected
    assert table["bok_walk"]["from"] == scoring.score_protocol([], ruleset).bok_state


@pytest.mark.parametrize(
    ("results", "bok_rows"),
    [
        ("T.....", "-XXXX-"),  # a 52:52 deal: the next four count double
        ("T.T........", "-XXXXXXXX--"),  # a tie inside a round queues the next one
        ("TTTTT" + "." * 20, "-" + "X" * 20 + "-" * 4),  # five ties, five rounds: psb states no cap
        ("....T.", "-----X"),
    ],
)
def test_the_walk_reads_psb_s_bok_rounds_as_the_protocol_does(results, bok_rows):
    """``T`` a 52:52 deal, ``.`` any other; ``X`` a row the phone values as in a bok round."""
    table = value_table(scoring.load_ruleset("psb"))
    tie = {"contract": "zwykla", "old": ["A", "C"], "tie": True}
    other = {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}
    shown = walked(table, table["bok_walk"]["from"], [tie if mark == "T" else other for mark in results])
    assert "".join("X" if bok else "-" for _, bok in shown) == bok_rows
    doubled = {tuple(values) for (values, bok), mark in zip(shown, results, strict=True) if mark == "." and bok}
    assert doubled == {(2, -2, 2, -2)}  # 60 eyes: 1 each, doubled in the round


def test_rules_without_bok_rounds_or_with_marked_rows_give_no_walk():
    """Where there are none, or the scorer marks the rows (pomorska §12n read so), the deal's own
    mark says it and the phone needs no walk."""
    assert value_table(scoring.load_ruleset("puck"))["bok_walk"] is None
    assert value_table(_with_bok("pomorska", trigger="marked"))["bok_walk"] is None


def test_a_walk_without_a_cap_forgets_how_many_rounds_started_and_stays_small():
    walk = value_table(_with_bok("pomorska", max_per_series=None))["bok_walk"]
    assert all(state.count(".") == 1 for state in walk["steps"])
    assert len(walk["steps"]) < 400
