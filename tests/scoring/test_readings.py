"""The readings the sources leave open, each a ruleset setting, in both readings (docs/rules.md §4.3, §4.6, §5, §6)."""

from dataclasses import replace

import pytest

from scoring import (
    Penalty,
    ScoringError,
    SeriesResult,
    Standing,
    TableResult,
    accumulate,
    deals_per_series_check,
    load_ruleset,
    parse_ruleset,
    possible_values,
    rank,
    ruleset_to_dict,
    score_deal,
    score_protocol,
    team_standings,
)


def variant(preset, **settings):
    """A preset with some settings changed; ``bok_rounds`` and ``team_big_points`` are merged into the preset's."""
    data = ruleset_to_dict(load_ruleset(preset))
    for key, value in settings.items():
        data[key] = {**data[key], **value} if isinstance(value, dict) else value
    return parse_ruleset(data)


def refusal(call):
    with pytest.raises(ScoringError) as error:
        call()
    return error.value.code, error.value.path


# --- bok rounds: derived from ties, or rows marked by the scorer (pomorska §12n) -------------------------

WIN = {"contract": "zwykla", "old": ["A", "B"], "old_eyes": 60}
TIE = {"contract": "zwykla", "old": ["A", "B"], "old_eyes": 52}
BOK = {**WIN, "bok_round": True}
MARKED = variant("pomorska", bok_rounds={"trigger": "marked"})
TIE_TRIGGER = load_ruleset("pomorska")


@pytest.mark.parametrize(
    ("ruleset", "deals", "flags"),
    [
        (TIE_TRIGGER, [TIE, BOK, WIN, WIN, WIN, WIN], [False, True, True, True, True, False]),
        (MARKED, [WIN, BOK, WIN], [False, True, False]),
        (MARKED, [TIE, WIN, WIN], [False, False, False]),  # under "marked" a tie starts nothing
        (MARKED, [{**TIE, "bok_round": True}, TIE, BOK], [True, False, True]),
        (MARKED, [BOK, WIN, BOK, WIN, BOK], [True, False, True, False, True]),  # marks need not be consecutive
        (MARKED, [BOK] * 16 + [WIN], [True] * 16 + [False]),  # 4 rounds of 4: the maximum
        (variant("pomorska", bok_rounds={"trigger": "marked", "max_per_series": None}), [BOK] * 30, [True] * 30),
    ],
)
def test_bok_rows_by_trigger(ruleset, deals, flags):
    rows = score_protocol(deals, ruleset).rows
    assert [row.bok_round for row in rows] == flags
    won = [row.values["A"] for row, deal in zip(rows, deals, strict=True) if deal["old_eyes"] == 60]
    assert won == [2 if row.bok_round else 1 for row, deal in zip(rows, deals, strict=True) if deal["old_eyes"] == 60]


@pytest.mark.parametrize(
    ("ruleset", "deals", "refused"),
    [
        (TIE_TRIGGER, [BOK], ("bok_round_mismatch", "deals[0].bok_round")),
        (TIE_TRIGGER, [TIE, {**WIN, "bok_round": False}], ("bok_round_mismatch", "deals[1].bok_round")),
        (MARKED, [BOK] * 17, ("too_many_bok_rows", "deals[16].bok_round")),
        (MARKED, [BOK] * 10 + [WIN] * 5 + [BOK] * 7, ("too_many_bok_rows", "deals[21].bok_round")),
        (
            variant("pomorska", bok_rounds={"trigger": "marked", "max_per_series": 1}),
            [BOK] * 5,
            ("too_many_bok_rows", "deals[4].bok_round"),
        ),
        (variant("puck", bok_rounds={"trigger": "marked"}), [BOK], ("bok_rounds_disabled", "deals[0].bok_round")),
    ],
)
def test_bok_marks_the_rules_do_not_allow_are_refused(ruleset, deals, refused):
    assert refusal(lambda: score_protocol(deals, ruleset)) == refused


def test_too_many_bok_rows_says_how_many_are_allowed():
    with pytest.raises(ScoringError) as error:
        score_protocol([BOK] * 17, MARKED)
    assert error.value.message == (
        "17 rows are marked as bok rows; the ruleset pomorska allows at most 16 (4 bok rounds of 4 deals)."
    )


def test_a_marked_values_only_row_is_checked_at_the_bok_factor():
    # with baska admitting no kontra, 60 for the declarer is a bok row's value only
    rules = variant(
        "pomorska",
        bok_rounds={"trigger": "marked"},
        contracts={"baska": {"base": 10, "max_doublings": 0, "thrown": True}},
    )
    doubled = {"contract": "baska", "values": {"A": 60, "B": -20, "C": -20, "D": -20}, "bok_round": True}
    assert score_protocol([doubled], rules).rows[0].values["A"] == 60
    assert refusal(lambda: score_protocol([{**doubled, "bok_round": False}], rules))[0] == (
        "value_impossible_for_contract"
    )


# --- the misplay minimum (pomorska §12e read literally: "traktowane jako kontra z wyjściem") ----------


@pytest.mark.parametrize(
    ("preset", "minimum", "deal", "values"),
    [
        ("pomorska", 0, {"contract": "zwykla", "old": ["A", "C"], "misplay": "B"}, {"A": 1, "B": -3, "C": 1, "D": 1}),
        ("pomorska", 1, {"contract": "zwykla", "old": ["A", "C"], "misplay": "B"}, {"A": 2, "B": -6, "C": 2, "D": 2}),
        (
            "pomorska",
            1,
            {"contract": "zwykla", "old": ["A", "C"], "kontras": ["old"], "misplay": "B"},
            {"A": 2, "B": -6, "C": 2, "D": 2},
        ),
        (
            "pomorska",
            1,
            {"contract": "zwykla", "old": ["A", "C"], "kontras": ["young", "old"], "misplay": "B"},
            {"A": 4, "B": -12, "C": 4, "D": 4},
        ),
        ("pomorska", 2, {"contract": "zolo", "old": ["D"], "misplay": "D"}, {"A": 40, "B": 40, "C": 40, "D": -120}),
        ("pomorska", 1, {"contract": "baska", "old": ["A"], "misplay": "B"}, {"A": 20, "B": -60, "C": 20, "D": 20}),
        ("pomorska", 1, {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}, {"A": 1, "B": -1, "C": 1, "D": -1}),
        ("gorzow", 0, {"contract": "zwykla", "old": ["A", "C"], "misplay": "B"}, {"A": 1, "B": -1, "C": 1, "D": -1}),
        ("gorzow", 1, {"contract": "zwykla", "old": ["A", "C"], "misplay": "B"}, {"A": 2, "B": -2, "C": 2, "D": -2}),
    ],
)
def test_a_misplay_costs_at_least_the_minimum_doublings(preset, minimum, deal, values):
    ruleset = variant(preset, misplay_min_doublings=minimum)
    result = score_deal(deal, ruleset)
    assert result.values == values
    if "misplay" in deal:
        assert result.doublings == max(minimum, len(deal.get("kontras", [])))


@pytest.mark.parametrize(
    ("minimum", "row", "possible"),
    [
        (0, (1, -3, 1, 1), True),
        (1, (1, -3, 1, 1), False),  # under the literal reading a misplay without kontra costs 2 each
        (1, (2, -6, 2, 2), True),
        (1, (1, 1, -1, -1), True),  # a played deal is valued as before
    ],
)
def test_possible_values_follow_the_misplay_minimum(minimum, row, possible):
    ruleset = variant("pomorska", misplay_min_doublings=minimum)
    assert (row in possible_values(ruleset, "zwykla", False)) is possible
    deal = {"contract": "zwykla", "values": dict(zip("ABCD", row, strict=True))}
    if possible:
        assert score_deal(deal, ruleset).values == deal["values"]
    else:
        assert refusal(lambda: score_deal(deal, ruleset)) == ("value_impossible_for_contract", "deal.values")


# --- shared places in the place tie-breaks (gorzow "np. 4,0, 2,5") --------------------------------------


def tables_for(results):
    """Tables of one series each at which the player "me" ends with the given small points among the given four."""
    return [
        TableResult(
            dict(zip("ABCD", ["me", f"o{i}1", f"o{i}2", f"o{i}3"], strict=True)), dict(zip("ABCD", points, strict=True))
        )
        for i, points in enumerate(results)
    ]


def standing(player, results, ruleset):
    """The tournament standing, named ``player``, of one who ends each series as ``results`` say."""
    series = [SeriesResult([table]) for table in tables_for(results)]
    return replace(accumulate(series, ruleset)["me"], id=player)


# x shares 1st-2nd twice (4,0 and 4,0); y is 1st once and 2nd once (5 and 3): 8 big and +20 small each
TWICE_SHARED_FIRST = [[10, 10, -5, -15], [10, 10, -5, -15]]
FIRST_AND_SECOND = [[20, 5, -10, -15], [0, 5, -2, -3]]
# the source's example: x 4,0 (shared 1st-2nd) and 2,5 (shared 2nd-3rd); y 5 and 1,5 (shared 3rd-4th): 6,5 each
FOUR_AND_TWO_AND_A_HALF = [[10, 10, -5, -15], [0, 5, 0, -5]]
FIVE_AND_ONE_AND_A_HALF = [[15, 0, -5, -10], [-5, 10, 0, -5]]


@pytest.mark.parametrize(
    ("reading", "x_results", "y_results", "order"),
    [
        ("fractional", TWICE_SHARED_FIRST, FIRST_AND_SECOND, [("x", "1–2."), ("y", "1–2.")]),
        ("better", TWICE_SHARED_FIRST, FIRST_AND_SECOND, [("x", "1."), ("y", "2.")]),
        ("points", TWICE_SHARED_FIRST, FIRST_AND_SECOND, [("y", "1."), ("x", "2.")]),
        ("fractional", FOUR_AND_TWO_AND_A_HALF, FIVE_AND_ONE_AND_A_HALF, [("y", "1."), ("x", "2.")]),
        ("better", FOUR_AND_TWO_AND_A_HALF, FIVE_AND_ONE_AND_A_HALF, [("x", "1."), ("y", "2.")]),
        ("points", FOUR_AND_TWO_AND_A_HALF, FIVE_AND_ONE_AND_A_HALF, [("y", "1."), ("x", "2.")]),
    ],
)
def test_shared_places_count_by_the_reading(reading, x_results, y_results, order):
    ruleset = variant("gorzow", shared_places=reading)
    x, y = standing("x", x_results, ruleset), standing("y", y_results, ruleset)
    assert (x.big_points, x.small_points) == (y.big_points, y.small_points)
    assert [(r.standing.id, r.label) for r in rank([x, y], ruleset.tiebreaks)] == order


@pytest.mark.parametrize(
    ("reading", "places", "table_points"),
    [
        ("fractional", (1.0, 1.0, 0.0, 0.0), None),
        ("better", (2.0, 0.0, 0.0, 0.0), None),
        ("points", (1.0, 1.0, 0.0, 0.0), (4.0, 4.0)),
    ],
)
def test_a_standing_carries_what_its_reading_compares(reading, places, table_points):
    x = standing("x", TWICE_SHARED_FIRST, variant("gorzow", shared_places=reading))
    assert (x.places, x.table_points) == (places, table_points)


def test_table_points_add_up_best_first():
    total = Standing("p", table_points=(3.0, 1.0)) + Standing("p", table_points=(4.0,)) + Standing("p")
    assert total.table_points == (4.0, 3.0, 1.0)
    assert (Standing("p") + Standing("p")).table_points is None


def test_under_points_a_bye_is_no_table_result():
    ruleset = variant("gorzow", shared_places="points")
    series = [
        SeriesResult(tables_for([[10, 10, -5, -15]]), byes=["bye"]),
        SeriesResult(
            [
                TableResult(
                    dict(zip("ABCD", ["bye", "o1", "o2", "o3"], strict=True)),
                    dict(zip("ABCD", [1, 0, 0, -1], strict=True)),
                )
            ]
        ),
    ]
    totals = accumulate(series, ruleset)
    assert totals["bye"].table_points == (5.0,) and totals["bye"].big_points == 8
    assert totals["o01"].table_points == (4.0,)


# --- team big points: the members' added, or by the team's place (psb example II) ------------------------

PLACE_POINTS = [100, 90, 80, 70, 60]
PSB_BY_PLACE = variant("psb", team_big_points={"by": "place", "points": PLACE_POINTS})


def members(*small_points):
    return [Standing(f"m{i}", big_points=1, small_points=points) for i, points in enumerate(small_points)]


TEAMS = {
    "kaszebe": members(100, 100, 80, 30),  # +310
    "puck": members(200, 50, 20, 10),  # +280
    "rumia": members(150, 150, -10, -10),  # +280, shares 2nd-3rd with puck
    "gdansk": members(10, 10, -20, -20),  # -20: not classified
}


@pytest.mark.parametrize(
    ("ruleset", "big_points"),
    [
        (load_ruleset("psb"), {"kaszebe": 4, "puck": 4, "rumia": 4, "gdansk": 4}),
        (PSB_BY_PLACE, {"kaszebe": 100, "puck": 85, "rumia": 85, "gdansk": 0}),
    ],
)
def test_team_big_points_by_the_reading(ruleset, big_points):
    teams = team_standings(TEAMS, ruleset, best=None, tiebreaks=ruleset.tiebreaks)
    assert {team.id: team.big_points for team in teams} == big_points
    assert {team.id: team.small_points for team in teams} == {"kaszebe": 310, "puck": 280, "rumia": 280, "gdansk": -20}


def test_a_team_in_third_place_gets_80_as_in_psb_example_two():
    teams = {"first": members(310), "second": members(300), "third": members(280), "last": members(-20)}
    standings = team_standings(teams, PSB_BY_PLACE, best=None, tiebreaks=PSB_BY_PLACE.tiebreaks)
    assert {team.id: team.big_points for team in standings} == {"first": 100, "second": 90, "third": 80, "last": 0}


def test_team_places_count_the_best_members_only_where_the_tournament_says():
    teams = {"a": members(100, 100, 100, -350), "b": members(10, 10, 10, 10)}
    by_sum = team_standings(teams, PSB_BY_PLACE, best=None, tiebreaks=PSB_BY_PLACE.tiebreaks)
    best_three = team_standings(teams, PSB_BY_PLACE, best=3, tiebreaks=PSB_BY_PLACE.tiebreaks)
    assert {t.id: t.big_points for t in by_sum} == {"a": 0, "b": 100}
    assert {t.id: t.big_points for t in best_three} == {"a": 100, "b": 90}


# --- deals per series a multiple (psb §14.4 "zawsze wielokrotność czterech") -----------------------------


@pytest.mark.parametrize(
    ("preset", "deals", "accepted"),
    [
        ("psb", 20, True),
        ("psb", 40, True),
        ("psb", 80, True),
        ("psb", 30, False),
        ("psb", 42, False),
        ("puck", 30, True),
        ("gorzow", 21, True),
        ("pomorska", 17, True),
    ],
)
def test_deals_per_series_must_be_the_rulesets_multiple(preset, deals, accepted):
    ruleset = load_ruleset(preset)
    if accepted:
        assert deals_per_series_check(ruleset=ruleset, deals=deals) is None
    else:
        assert refusal(lambda: deals_per_series_check(ruleset=ruleset, deals=deals)) == (
            "deals_not_multiple",
            "deals_per_series",
        )


def test_deals_per_series_refused_says_the_multiple():
    with pytest.raises(ScoringError) as error:
        deals_per_series_check(ruleset=load_ruleset("psb"), deals=30)
    assert error.value.message == "The ruleset psb plays a multiple of 4 deals per series, got 30."
    assert refusal(lambda: deals_per_series_check(ruleset=load_ruleset("psb"), deals=0))[0] == "invalid_input"


# --- referee penalties (psb "pod groźbą kary sędziowskiej"): not deal rows, counted in the totals ---------

GORZOW = load_ruleset("gorzow")
GORZOW_BIG_PENALTIES = variant("gorzow", penalty_big_points=True)


def a_series(penalties=(), byes=()):
    table = TableResult(
        dict(zip("ABCD", ["p1", "p2", "p3", "p4"], strict=True)), dict(zip("ABCD", [20, 10, -10, -20], strict=True))
    )
    return SeriesResult([table], byes=byes, penalties=penalties)


@pytest.mark.parametrize(
    ("ruleset", "penalties", "p2"),
    [
        (GORZOW, [], (3, 10)),
        (GORZOW, [Penalty("p2", -15, reason="wpis niezgodny z przebiegiem gry")], (3, -5)),
        (GORZOW, [Penalty("p2", -15), Penalty("p2", -5)], (3, -10)),
        (GORZOW_BIG_PENALTIES, [Penalty("p2", -10, -2.5)], (0.5, 0)),
        (GORZOW_BIG_PENALTIES, [Penalty("p2", 0, -1)], (2, 10)),
    ],
)
def test_a_penalty_changes_the_penalised_players_points_only(ruleset, penalties, p2):
    totals = accumulate([a_series(penalties)], ruleset)
    assert (totals["p2"].big_points, totals["p2"].small_points) == p2
    assert [(totals[p].big_points, totals[p].small_points) for p in ("p1", "p3", "p4")] == [(5, 20), (2, -10), (1, -20)]
    assert totals["p2"].places == (0, 1, 0, 0) and totals["p2"].series_played == 1


@pytest.mark.parametrize(
    ("ruleset", "penalty", "refused"),
    [
        (GORZOW, Penalty("p2", 0, -1), ("penalty_big_points_not_allowed", "series[0].penalties[0].big_points")),
        (GORZOW, Penalty("p9", -10), ("penalty_not_in_series", "series[0].penalties[0]")),
        (GORZOW_BIG_PENALTIES, Penalty("p9", -10, -1), ("penalty_not_in_series", "series[0].penalties[0]")),
    ],
)
def test_a_penalty_the_rules_do_not_allow_is_refused(ruleset, penalty, refused):
    assert refusal(lambda: accumulate([a_series([penalty])], ruleset)) == refused


def test_a_player_on_a_bye_may_be_penalised():
    totals = accumulate([a_series([Penalty("p5", -7)], byes=["p5"])], GORZOW)
    assert (totals["p5"].big_points, totals["p5"].small_points, totals["p5"].byes) == (3, -7, 1)


def test_a_penalty_in_a_later_series_names_that_series():
    series = [a_series(), a_series([Penalty("p5", -1)])]
    with pytest.raises(ScoringError) as error:
        accumulate(series, GORZOW)
    assert error.value.path == "series[1].penalties[0]" and error.value.params["series"] == 2


def test_presets_allow_big_point_penalties_only_in_psb():
    assert {preset: load_ruleset(preset).penalty_big_points for preset in ("psb", "gorzow", "puck", "pomorska")} == {
        "psb": True,
        "gorzow": False,
        "puck": False,
        "pomorska": False,
    }


# --- the cap of the raises: 6400 % of the base stake (psb §7.13, pomorska §5n) -----------------------------

ZOLO_DU_LOST_KONTRAS = {
    "contract": "zolo_du",
    "old": ["A"],
    "kontras": ["young", "old", "young", "old"],
    "winner": "young",
}
GRAN_WON_KONTRAS = {"contract": "gran", "old": ["B"], "kontras": ["young", "old", "young", "old"], "old_eyes": 104}


@pytest.mark.parametrize(
    ("preset", "cap", "deal", "bok_round", "per_young"),
    [
        # du ×2, four kontras ×16, bok ×2: the raises reach 64 exactly, the loser's doubling comes after
        ("psb", {"factor": 64, "applies": "before_loss"}, ZOLO_DU_LOST_KONTRAS, True, 640),
        ("psb", {"factor": 64, "applies": "after_loss"}, ZOLO_DU_LOST_KONTRAS, True, 320),
        ("psb", None, ZOLO_DU_LOST_KONTRAS, True, 640),
        ("pomorska", {"factor": 64, "applies": "after_loss"}, ZOLO_DU_LOST_KONTRAS, True, 320),
        # without the bok round the raises are 32 and the loser's doubling 2: within the cap in both readings
        ("psb", {"factor": 64, "applies": "after_loss"}, ZOLO_DU_LOST_KONTRAS, False, 320),
        ("psb", {"factor": 64, "applies": "before_loss"}, ZOLO_DU_LOST_KONTRAS, False, 320),
        # a won solo has no loser's doubling: both readings agree; a lower own cap bites in both
        ("psb", {"factor": 64, "applies": "after_loss"}, GRAN_WON_KONTRAS, True, -160),
        ("psb", {"factor": 16, "applies": "before_loss"}, GRAN_WON_KONTRAS, True, -80),
        ("psb", {"factor": 16, "applies": "before_loss"}, ZOLO_DU_LOST_KONTRAS, True, 160),
        ("psb", {"factor": 16, "applies": "after_loss"}, ZOLO_DU_LOST_KONTRAS, True, 80),
    ],
)
def test_the_raises_are_capped_by_the_reading(preset, cap, deal, bok_round, per_young):
    ruleset = variant(preset, stake_cap=cap)
    values = score_deal({**deal, "bok_round": bok_round}, ruleset).values
    declarer = deal["old"][0]
    assert [values[seat] for seat in "ABCD" if seat != declarer] == [per_young] * 3
    assert values[declarer] == -3 * per_young


@pytest.mark.parametrize("preset", ["psb", "pomorska"])
def test_the_presets_cap_the_raises_at_6400_percent_before_the_losers_doubling_and_say_so(preset):
    ruleset = load_ruleset(preset)
    assert (ruleset.stake_cap.factor, ruleset.stake_cap.applies) == (64, "before_loss")
    assert any("6400" in note and "before_loss" in note and "after_loss" in note for note in ruleset.notes)
    assert parse_ruleset(ruleset_to_dict(ruleset)) == ruleset


@pytest.mark.parametrize("preset", ["gorzow", "puck"])
def test_rules_that_name_no_cap_leave_the_raises_uncapped(preset):
    assert load_ruleset(preset).stake_cap is None


@pytest.mark.parametrize(
    ("cap", "path"),
    [({"factor": 0}, "stake_cap.factor"), ({"factor": 64, "applies": "never"}, "stake_cap.applies"), (64, "stake_cap")],
)
def test_a_cap_the_engine_cannot_read_is_refused_at_its_path(cap, path):
    data = {**ruleset_to_dict(load_ruleset("psb")), "stake_cap": cap}
    assert refusal(lambda: parse_ruleset(data)) == ("invalid_ruleset", path)


# --- a kontra on baśka: "dla każdego kontraktu" (psb §7.6, pomorska §5h); gorzow and puck are silent ----------

BASKA_KONTRA = {"contract": "baska", "old": ["C"], "kontras": ["young"]}


@pytest.mark.parametrize(
    ("preset", "per_young"),
    [("psb", -20), ("pomorska", -20), ("gorzow", None), ("puck", None)],
)
def test_a_kontra_on_baska_counts_where_the_rules_allow_kontras_on_every_contract(preset, per_young):
    ruleset = load_ruleset(preset)
    if per_young is None:
        assert refusal(lambda: score_deal(BASKA_KONTRA, ruleset))[0] == "too_many_doublings"
    else:
        values = score_deal(BASKA_KONTRA, ruleset).values
        assert values == {"A": per_young, "B": per_young, "C": -3 * per_young, "D": per_young}


# --- a kontra on a cicha "na dobiciu": not counted (gorzow VI.5), refused (puck 25), or counted -----------------

CICHA_KONTRA = {"contract": "cicha", "old": ["A"], "kontras": ["young"], "laid_down": True}
DOBICIE = {**CICHA_KONTRA, "cicha_na_dobiciu": True}


@pytest.mark.parametrize(
    ("reading", "deal", "declarer"),
    [
        ("ignored", DOBICIE, 12),  # the kontra is written down and not counted
        ("ignored", CICHA_KONTRA, 24),  # without the mark a kontra counts as ever
        ("counts", DOBICIE, 24),
        ("refused", CICHA_KONTRA, 24),
        ("refused", {**DOBICIE, "kontras": []}, 12),
        ("refused", DOBICIE, "kontra_on_cicha_na_dobiciu"),
    ],
)
def test_a_kontra_on_a_cicha_na_dobiciu_by_the_reading(reading, deal, declarer):
    ruleset = variant("gorzow", cicha_na_dobiciu_kontra=reading)
    if isinstance(declarer, str):
        assert refusal(lambda: score_deal(deal, ruleset)) == (declarer, "deal.kontras")
    else:
        assert score_deal(deal, ruleset).values["A"] == declarer


@pytest.mark.parametrize(
    ("preset", "reading", "declarer"), [("gorzow", "ignored", 12), ("puck", "refused", None), ("psb", "counts", 24)]
)
def test_the_presets_read_the_cicha_na_dobiciu_as_their_rulebooks_do(preset, reading, declarer):
    ruleset = load_ruleset(preset)
    assert ruleset.cicha_na_dobiciu_kontra == reading
    assert any("cicha_na_dobiciu_kontra" in note and reading in note for note in ruleset.notes)
    if declarer is None:
        assert refusal(lambda: score_deal(DOBICIE, ruleset))[0] == "kontra_on_cicha_na_dobiciu"
    else:
        assert score_deal(DOBICIE, ruleset).values["A"] == declarer


def test_only_a_cicha_is_marked_na_dobiciu():
    deal = {"contract": "zolo", "old": ["A"], "old_eyes": 70, "cicha_na_dobiciu": True}
    assert refusal(lambda: score_deal(deal, load_ruleset("gorzow"))) == (
        "na_dobiciu_not_cicha",
        "deal.cicha_na_dobiciu",
    )
