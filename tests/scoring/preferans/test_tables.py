"""A pulka as one table of a tournament: each entry's share of the settled whists, and the ranking rules."""

import pytest
from hypothesis import given, settings

import scoring
from scoring.preferans import keep_sheet, load_variant, settle, table_score, tournament_rules

from .sheets import ABC, ABCD, full_pulka
from .test_properties import sheet_entries


@settings(max_examples=150, deadline=None)
@given(sheet_entries())
def test_each_entry_moves_the_small_points_zero_sum_and_they_add_up_to_the_pulka_closed_there(request_):
    players, variant, total, entries = request_
    score = table_score(players=players, variant=variant, total=total, entries=entries)
    assert len(score.rows) == len(entries)
    assert all(sum(row.values.values()) == 0 for row in score.rows)
    closed = keep_sheet(players=players, variant=variant, total=total, entries=entries, closed=True)
    assert score.totals == settle(closed).balance
    running = dict.fromkeys(players, 0)
    for row in score.rows:
        running = {p: running[p] + row.values[p] for p in players}
        assert row.totals == running


def test_a_played_out_pulka_gives_the_table_its_settlement_as_small_points():
    variant = load_variant("sochi")
    remiz = {"contract": "7H", "declarer": "A", "tricks": 5, "whisters": [{"player": "B", "tricks": 5}]}
    entries = [remiz, *full_pulka(ABC, total=10)]
    score = table_score(players=ABC, variant=variant, total=10, entries=entries)
    sheet = keep_sheet(players=ABC, variant=variant, total=10, entries=entries)
    assert sheet.finished
    assert score.totals == settle(sheet).balance
    assert score.totals["A"] < 0 < score.totals["B"]


def test_an_empty_pulka_has_no_small_points():
    score = table_score(players=ABCD, variant=load_variant("leningrad"), total=20, entries=[])
    assert score.rows == () and score.totals == dict.fromkeys(ABCD, 0)


@pytest.mark.parametrize(
    ("size", "small", "big"),
    [
        (4, {"A": 30, "B": 10, "C": -10, "D": -30}, {"A": 3, "B": 2, "C": 1, "D": 0}),
        (4, {"A": 30, "B": 30, "C": -30, "D": -30}, {"A": 2.5, "B": 2.5, "C": 0.5, "D": 0.5}),
        (3, {"A": 40, "B": -10, "C": -30}, {"A": 2, "B": 1, "C": 0}),
        (3, {"A": 20, "B": -10, "C": -10}, {"A": 2, "B": 0.5, "C": 0.5}),
    ],
)
def test_big_points_go_by_the_place_at_a_table_of_three_or_four(size, small, big):
    rules = tournament_rules(load_variant("sochi"), size)
    assert scoring.placement_points(small, rules) == big


@pytest.mark.parametrize(("size", "byes", "points"), [(4, 1, 1.5), (4, 3, 1.5), (3, 2, 1)])
def test_a_bye_gets_the_mean_of_a_tables_big_points_and_no_small_points(size, byes, points):
    compensation = scoring.bye_compensation(tournament_rules(load_variant("leningrad"), size), byes)
    assert (compensation.big_points, compensation.small_points) == (points, 0)


def test_a_table_of_three_cannot_have_three_byes_beside_it():
    with pytest.raises(scoring.ScoringError) as error:
        scoring.bye_compensation(tournament_rules(load_variant("sochi"), 3), 3)
    assert error.value.code == "invalid_bye_count"
