"""Placement points at a table and bye compensation (docs/rules.md §5–6)."""

import pytest

from scoring import ByeCompensation, ScoringError, bye_compensation, load_ruleset, place_shares, placement_points

PUCK = load_ruleset("puck")
GORZOW = load_ruleset("gorzow")


def test_puck_example_with_the_plus_bonus():
    assert placement_points({"A": 30, "B": 10, "C": -5, "D": -35}, PUCK) == {"A": 6.5, "B": 4.5, "C": 1, "D": 0}


@pytest.mark.parametrize(
    ("small", "big"),
    [
        ({"A": 10, "B": -10, "C": -10, "D": 10}, {"A": 5.5, "B": 0.5, "C": 0.5, "D": 5.5}),
        ({"A": 30, "B": 20, "C": 10, "D": -60}, {"A": 6, "B": 4, "C": 2, "D": 0}),
        ({"A": 0, "B": 0, "C": 0, "D": 0}, {"A": 2.25, "B": 2.25, "C": 2.25, "D": 2.25}),
    ],
)
def test_puck_bonus_is_shared_by_the_positive_players(small, big):
    assert placement_points(small, PUCK) == big


def test_gorzow_first_and_second_tied_get_four_each():
    assert placement_points({"A": 20, "B": 20, "C": -10, "D": -30}, GORZOW) == {"A": 4, "B": 4, "C": 2, "D": 1}


def test_three_way_tie_shares_three_places():
    big = placement_points({"A": 5, "B": 5, "C": 5, "D": -15}, GORZOW)
    assert big["A"] == pytest.approx(10 / 3) and big["D"] == 1


def test_shared_places_count_by_their_share():
    shares = place_shares({"A": 20, "B": 20, "C": -10, "D": -10})
    assert shares["A"] == (0.5, 0.5, 0, 0) and shares["D"] == (0, 0, 0.5, 0.5)


@pytest.mark.parametrize("preset", ["psb", "pomorska"])
def test_rulesets_ranked_by_small_points_give_no_placement_points(preset):
    assert set(placement_points({"A": 3, "B": 1, "C": -2, "D": -2}, load_ruleset(preset)).values()) == {0}


def test_table_has_four_players():
    with pytest.raises(ScoringError) as error:
        placement_points({"A": 1, "B": -1}, PUCK)
    assert error.value.code == "invalid_input"


@pytest.mark.parametrize(("count", "big"), [(1, 3), (2, 2.5), (3, 2)])
def test_gorzow_bye_depends_on_the_number_of_bye_players(count, big):
    assert bye_compensation(GORZOW, count) == ByeCompensation(big, 0)


def test_puck_bye_gives_four_big_and_forty_small():
    compensation = bye_compensation(PUCK, 2)
    assert (compensation.big_points, compensation.small_points) == (4, 40)


@pytest.mark.parametrize("count", [0, 4])
def test_bye_count_outside_one_to_three_is_rejected(count):
    with pytest.raises(ScoringError) as error:
        bye_compensation(GORZOW, count)
    assert error.value.code == "invalid_bye_count"
