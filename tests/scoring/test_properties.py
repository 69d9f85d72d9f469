"""Properties of valuation that hold for every ruleset and deal (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    CONTRACTS,
    LEVELS,
    PRESETS,
    SEATS,
    ScoringError,
    load_ruleset,
    parse_ruleset,
    ruleset_to_dict,
    score_deal,
    score_protocol,
)

RULESETS = [load_ruleset(preset) for preset in PRESETS]


@st.composite
def valid_deals(draw):
    """A ruleset and a deal it accepts, with a given result."""
    ruleset = draw(st.sampled_from(RULESETS))
    rule = draw(st.sampled_from(ruleset.contracts))
    old = draw(st.permutations(SEATS))[: 2 if rule.pair else 1]
    laid_down = not rule.pair and not rule.thrown and draw(st.booleans())
    cap = rule.max_doublings_laid_down if laid_down and rule.max_doublings_laid_down is not None else rule.max_doublings
    first = draw(st.sampled_from(ruleset.first_kontra_pair if rule.pair else ruleset.first_kontra_solo))
    other = "young" if first == "old" else "old"
    kontras = [first, other, first, other][: draw(st.integers(0, cap))]
    deal = {"contract": rule.code, "old": list(old), "kontras": kontras}
    if laid_down:
        deal["laid_down"] = True
    elif not rule.thrown:
        result = draw(st.sampled_from(["eyes", "winner", "misplay"]))
        if result == "eyes":
            deal["old_eyes"] = draw(st.sampled_from([0, *range(8, 97), 104]))
        elif result == "misplay":
            deal["misplay"] = draw(st.sampled_from(SEATS))
        else:
            deal["winner"] = draw(st.sampled_from(["old", "young"]))
            if rule.pair:
                deal["level"] = draw(st.sampled_from(LEVELS))
    return ruleset, deal


@given(valid_deals())
def test_every_valued_deal_sums_to_zero(case):
    ruleset, deal = case
    assert sum(score_deal(deal, ruleset).values.values()) == 0


@given(valid_deals())
def test_one_more_counted_doubling_doubles_every_value(case):
    ruleset, deal = case
    rule = ruleset.contract(deal["contract"])
    cap = (
        rule.max_doublings_laid_down
        if deal.get("laid_down") and rule.max_doublings_laid_down is not None
        else rule.max_doublings
    )
    if len(deal["kontras"]) >= cap:
        return
    before = score_deal(deal, ruleset)
    after_kontras = deal["kontras"] + [
        ("old" if deal["kontras"][-1] == "young" else "young") if deal["kontras"] else "young"
    ]
    if before.tie and ruleset.tie == "last_doubler_loses":
        return  # the new last doubler changes who loses the tie
    after = score_deal({**deal, "kontras": after_kontras}, ruleset)
    assert after.values == {seat: 2 * value for seat, value in before.values.items()}


@given(valid_deals())
def test_young_win_never_costs_less_than_the_matching_old_win(case):
    ruleset, deal = case
    rule = ruleset.contract(deal["contract"])
    if rule.thrown or deal.get("laid_down"):
        return
    level = {"level": "z_wyjsciem"} if rule.pair else {}
    base = {"contract": deal["contract"], "old": deal["old"], "kontras": deal["kontras"], **level}
    old_win = score_deal({**base, "winner": "old"}, ruleset).values
    young_win = score_deal({**base, "winner": "young"}, ruleset).values
    assert all(abs(young_win[s]) >= abs(old_win[s]) for s in SEATS)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-200, 200) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
FIELD_VALUES = {
    "contract": st.sampled_from(CONTRACTS) | JSON,
    "old": st.lists(st.sampled_from(SEATS), max_size=3) | JSON,
    "kontras": st.lists(st.sampled_from(["old", "young"]), max_size=6) | JSON,
    "old_eyes": st.integers(-5, 110) | JSON,
    "tie": st.booleans() | JSON,
    "winner": st.sampled_from(["old", "young"]) | JSON,
    "level": st.sampled_from(LEVELS) | JSON,
    "misplay": st.sampled_from(SEATS) | JSON,
    "bok_round": st.booleans() | JSON,
    "laid_down": st.booleans() | JSON,
    "values": st.dictionaries(st.sampled_from(SEATS), st.integers(-20, 20)) | JSON,
    "extra": JSON,
}
messy_deals = st.fixed_dictionaries({}, optional=FIELD_VALUES) | JSON


@settings(max_examples=400)
@given(st.sampled_from(RULESETS), messy_deals)
def test_any_input_either_scores_or_raises_scoring_error(ruleset, deal):
    try:
        result = score_deal(deal, ruleset)
    except ScoringError as error:
        assert error.code and error.message
    else:
        assert sum(result.values.values()) == 0


@given(st.sampled_from(RULESETS), st.lists(messy_deals, max_size=5) | JSON)
def test_any_protocol_either_scores_or_raises_scoring_error(ruleset, deals):
    try:
        score_protocol(deals, ruleset)
    except ScoringError:
        pass


def _mutations():
    paths = st.sampled_from(
        [
            "tie",
            "misplay",
            "eyes_to_win",
            "wyjscie",
            "contracts",
            "placement",
            "byes",
            "tiebreaks",
            "bok_rounds",
            "notes",
        ]
    )
    return st.tuples(paths, JSON)


@given(st.sampled_from(RULESETS), _mutations())
def test_any_broken_ruleset_raises_scoring_error(ruleset, mutation):
    key, value = mutation
    data = ruleset_to_dict(ruleset) | {key: value}
    try:
        parse_ruleset(data)
    except ScoringError as error:
        assert error.code == "invalid_ruleset"


@given(
    st.sampled_from(RULESETS),
    st.integers(1, 5),
    st.integers(26, 27),
    st.lists(st.integers(0, 50), min_size=3, max_size=3),
    st.sampled_from(["young_wins", "last_doubler_loses"]),
)
def test_ruleset_round_trips_through_a_dict(ruleset, factor, wyjscie, byes, tie):
    data = ruleset_to_dict(ruleset) | {"young_win_factor": factor, "tie": tie}
    data["wyjscie"]["old"] = wyjscie
    data["byes"]["big_points"] = byes
    parsed = parse_ruleset(data)
    assert parse_ruleset(ruleset_to_dict(parsed)) == parsed
    assert ruleset_to_dict(parsed) == data
