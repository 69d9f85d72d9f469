"""The value table the phone looks provisional values up in is the engine's own valuing.

Sizes (compact JSON, as ``tabela-wartosci.json`` sends it): puck 1,204 entries, 55,930 bytes;
psb 2,848 entries, 124,129 bytes (bok rounds double the keys); gorzow 1,176; pomorska 2,848.
"""

from __future__ import annotations

import json

import pytest

import scoring
from scoring import SEATS, score_deal, value_table

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
