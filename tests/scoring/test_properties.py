"""Properties of valuation that hold for every ruleset and deal (hypothesis)."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    CONTRACTS,
    LEVELS,
    OFFENCES,
    PRESETS,
    SEATS,
    Penalty,
    ScoringError,
    SeriesResult,
    Standing,
    TableResult,
    accumulate,
    counted_doublings,
    load_ruleset,
    parse_ruleset,
    possible_values,
    ruleset_to_dict,
    score_deal,
    score_protocol,
    team_standings,
)

RULESETS = [load_ruleset(preset) for preset in PRESETS]


@st.composite
def valid_deals(draw, rulesets=RULESETS):
    """A ruleset (one of ``rulesets``) and a deal it accepts, with a given result."""
    ruleset = draw(st.sampled_from(rulesets))
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
    "offence": st.sampled_from(OFFENCES) | JSON,
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
            "misplay_min_doublings",
            "shared_places",
            "team_big_points",
            "deals_multiple",
            "penalty_big_points",
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


def _variant(ruleset, **settings):
    data = ruleset_to_dict(ruleset)
    for key, value in settings.items():
        data[key] = {**data[key], **value} if isinstance(value, dict) else value
    return parse_ruleset(data)


@given(valid_deals(), st.integers(0, 4))
def test_a_misplay_costs_twice_for_each_doubling_below_the_minimum(case, minimum):
    ruleset, deal = case
    if "misplay" not in deal:
        return
    plain = score_deal(deal, ruleset).values
    raised = score_deal(deal, _variant(ruleset, misplay_min_doublings=minimum))
    factor = 2 ** max(0, minimum - counted_doublings(deal["kontras"])[0])
    assert raised.values == {seat: factor * value for seat, value in plain.items()}
    assert tuple(raised.values[s] for s in SEATS) in possible_values(
        _variant(ruleset, misplay_min_doublings=minimum), deal["contract"], False
    )


MARKED = _variant(load_ruleset("pomorska"), bok_rounds={"trigger": "marked", "max_per_series": None})


@given(st.lists(st.tuples(valid_deals([MARKED]), st.booleans()), max_size=20))
def test_a_marked_row_counts_the_bok_factor_times_its_value(marked_deals):
    ruleset = MARKED
    deals = [{**deal, "bok_round": bok} for (_, deal), bok in marked_deals]
    rows = score_protocol(deals, ruleset).rows
    for row, deal in zip(rows, deals, strict=True):
        plain = score_deal({**deal, "bok_round": False}, ruleset).values
        factor = ruleset.bok_rounds.factor if deal["bok_round"] else 1
        assert row.bok_round is deal["bok_round"]
        assert row.values == {seat: factor * value for seat, value in plain.items()}


TABLE_POINTS = st.lists(st.integers(-60, 60), min_size=3, max_size=3).map(lambda p: [*p, -sum(p)])


@st.composite
def tournaments(draw):
    """Series of one table of p1-p4 and a bye for p5 in some, with penalties for some of the players."""
    series = []
    for _ in range(draw(st.integers(1, 4))):
        order = draw(st.permutations(["p1", "p2", "p3", "p4"]))
        table = TableResult(dict(zip(SEATS, order, strict=True)), dict(zip(SEATS, draw(TABLE_POINTS), strict=True)))
        penalties = draw(st.lists(st.builds(Penalty, st.sampled_from(["p1", "p2", "p3", "p4"]), st.integers(-30, 0))))
        series.append(SeriesResult([table], penalties=penalties))
    return series


@given(tournaments(), st.sampled_from(["fractional", "better", "points"]))
def test_penalties_change_only_the_penalised_players_points(series, reading):
    ruleset = _variant(load_ruleset("gorzow"), shared_places=reading)
    with_penalties = accumulate(series, ruleset)
    without = accumulate([replace(s, penalties=()) for s in series], ruleset)
    for player, standing in without.items():
        penalty = sum(p.small_points for s in series for p in s.penalties if p.player == player)
        assert with_penalties[player] == replace(standing, small_points=standing.small_points + penalty)
        assert sum(standing.places) == pytest.approx(standing.series_played)  # thirds and quarters in floats
        if reading == "points":
            assert len(standing.table_points) == standing.series_played


@given(st.lists(st.integers(-300, 300), min_size=1, max_size=8))
def test_teams_placed_by_points_keep_the_order_of_their_small_points(small_points):
    ruleset = _variant(
        load_ruleset("psb"), team_big_points={"by": "place", "points": [100, 90, 80, 70, 60, 50, 40, 30]}
    )
    members = {f"t{i}": [Standing(f"m{i}", small_points=points)] for i, points in enumerate(small_points)}
    teams = sorted(
        team_standings(members, ruleset, best=None, tiebreaks=ruleset.tiebreaks), key=lambda t: -t.small_points
    )
    for better, worse in zip(teams, teams[1:], strict=False):
        assert better.big_points >= worse.big_points
        assert (better.big_points == worse.big_points) >= (better.small_points == worse.small_points)
    assert all(team.big_points == 0 for team in teams if team.small_points <= 0)
