"""The running sheet: help, the Leningrad pulka, four players, penalties, the pencil rule."""

import pytest

from scoring.preferans import mountains_at_end

from .sheets import ABCD, pulka_of, sheet_of, unwhisted


def test_columns_are_running_totals_after_every_deal():
    sheet = sheet_of(
        [
            unwhisted("A", "7S"),
            {
                "contract": "8H",
                "declarer": "B",
                "tricks": 7,
                "whisters": [{"player": "A", "tricks": 2}, {"player": "C", "tricks": 1}],
            },
        ]
    )
    first, second = sheet.rows
    assert first.totals.pulka == {"A": 4, "B": 0, "C": 0}
    assert second.totals.pulka == {"A": 4, "B": 0, "C": 0}
    assert second.totals.gora == {"A": 0, "B": 6, "C": 0}
    assert second.totals.whists == {"A": {"B": 12, "C": 0}, "B": {"A": 0, "C": 0}, "C": {"A": 0, "B": 6}}


def test_a_full_pulka_helps_the_opponent_with_the_larger_pulka_at_10_whists_a_point():
    sheet = sheet_of([*pulka_of(46, "A"), *pulka_of(20, "B"), *pulka_of(30, "C"), unwhisted("A", "8S")])
    last = sheet.rows[-1]
    assert last.totals.pulka == {"A": 50, "B": 20, "C": 32}
    assert last.help == {"C": 2}
    assert last.totals.whists["A"] == {"B": 0, "C": 20}


def test_help_between_equal_pulkas_goes_to_the_opponent_on_the_left():
    sheet = sheet_of([*pulka_of(50, "B"), *pulka_of(10, "A"), *pulka_of(10, "C"), unwhisted("B", "7S")])
    assert sheet.rows[-1].help == {"C": 4}
    assert sheet.rows[-1].totals.whists["B"] == {"A": 0, "C": 40}


def test_help_a_pulka_cannot_take_goes_on_to_the_next_opponent():
    sheet = sheet_of([*pulka_of(50, "A"), *pulka_of(48, "B"), *pulka_of(40, "C"), unwhisted("A", "9S")])
    assert sheet.rows[-1].help == {"B": 2, "C": 6}
    assert sheet.rows[-1].totals.pulka == {"A": 50, "B": 50, "C": 46}


def test_points_nobody_can_take_stay_above_the_total_and_finish_the_pulka():
    sheet = sheet_of([*pulka_of(50, "A"), *pulka_of(50, "B"), *pulka_of(48, "C"), unwhisted("C", "8S")])
    assert sheet.totals.pulka == {"A": 50, "B": 50, "C": 54}
    assert sheet.finished and mountains_at_end(sheet) == {"A": 0, "B": 0, "C": 0}


# the seed's Leningrad example: three at 48 in a pulka to 50, one plays an eight (54) or a nine (56)
@pytest.mark.parametrize(
    ("contract", "pulka", "mountains"), [("8S", 54, {"A": -8, "B": 4, "C": 4}), ("9S", 56, {"A": -12, "B": 4, "C": 4})]
)
def test_leningrad_has_no_help_and_doubles_the_points_over_and_short(contract, pulka, mountains):
    deals = [*pulka_of(48, "A"), *pulka_of(48, "B"), *pulka_of(48, "C"), unwhisted("A", contract)]
    sheet = sheet_of(deals, variant="leningrad")
    assert sheet.totals.pulka == {"A": pulka, "B": 48, "C": 48}
    assert sheet.rows[-1].help == {}
    assert sheet.finished
    assert mountains_at_end(sheet) == mountains


def test_leningrad_goes_on_until_the_pulkas_together_reach_players_times_total():
    sheet = sheet_of([*pulka_of(60, "A"), *pulka_of(48, "B")], variant="leningrad")
    assert sheet.totals.pulka["A"] == 60 and not sheet.finished


def test_closing_by_agreement_writes_the_missing_points_onto_the_mountain():
    sheet = sheet_of([*pulka_of(50, "A"), *pulka_of(30, "B"), *pulka_of(44, "C")], closed=True)
    assert not sheet.finished and sheet.over
    assert mountains_at_end(sheet) == {"A": 0, "B": 20, "C": 6}


# closing_factor: seed line 7 writes the missing points once (sochi); line 9 twice in Leningrad
CLOSINGS = [
    ("leningrad", {}, {"A": 0, "B": 40, "C": 100}),
    ("leningrad", {"closing_factor": 1}, {"A": 0, "B": 20, "C": 50}),
    ("leningrad", {"closing_factor": 2}, {"A": 0, "B": 40, "C": 100}),
    ("sochi", {}, {"A": 0, "B": 20, "C": 50}),
    ("sochi", {"closing_factor": 2}, {"A": 0, "B": 40, "C": 100}),
]


@pytest.mark.parametrize(("variant", "changes", "mountains"), CLOSINGS)
def test_closing_by_agreement_writes_the_missing_points_closing_factor_times(variant, changes, mountains):
    sheet = sheet_of([*pulka_of(50, "A"), *pulka_of(30, "B")], variant=variant, closed=True, **changes)
    assert mountains_at_end(sheet) == mountains


@pytest.mark.parametrize("closing_factor", [1, 2])
def test_a_played_out_leningrad_pulka_doubles_the_short_points_whatever_the_closing_factor(closing_factor):
    deals = [*pulka_of(48, "A"), *pulka_of(48, "B"), *pulka_of(48, "C"), unwhisted("A", "8S")]
    sheet = sheet_of(deals, variant="leningrad", closed=True, closing_factor=closing_factor)
    assert mountains_at_end(sheet) == {"A": -8, "B": 4, "C": 4}


# help_overflow: A (full) plays a nine (8 points); B lacks 2, C lacks 10
OVERFLOWS = [
    ("next", {"B": 2, "C": 6}, {"A": 50, "B": 50, "C": 46}, {"B": 20, "C": 60}),
    ("own", {"B": 2}, {"A": 56, "B": 50, "C": 40}, {"B": 20, "C": 0}),
]


@pytest.mark.parametrize(("overflow", "helped", "pulka", "whists"), OVERFLOWS)
def test_help_the_helped_pulka_cannot_hold(overflow, helped, pulka, whists):
    deals = [*pulka_of(50, "A"), *pulka_of(48, "B"), *pulka_of(40, "C"), unwhisted("A", "9S")]
    sheet = sheet_of(deals, help_overflow=overflow)
    assert sheet.rows[-1].help == helped
    assert sheet.totals.pulka == pulka
    assert sheet.totals.whists["A"] == whists


def test_with_help_left_in_the_own_pulka_the_pulka_is_over_only_when_every_pulka_is_full():
    deals = [*pulka_of(50, "A"), *pulka_of(48, "B"), *pulka_of(40, "C"), unwhisted("A", "9S"), unwhisted("A", "8S")]
    sheet = sheet_of(deals, help_overflow="own")
    # the eight helps C: 56 + 50 + 46 pass 150 together, but C's pulka still lacks 4
    assert sheet.totals.pulka == {"A": 56, "B": 50, "C": 46}
    assert not sheet.finished


# help_leftover: C plays an eight (6 points) with 4 to go; A and B are full
LEFTOVERS = [
    ("own_pulka", {"A": 0, "B": 0}),
    ("whists", {"A": 20, "B": 0}),  # the nearest on the left of C among equals is A
]


@pytest.mark.parametrize(("leftover", "whists"), LEFTOVERS)
def test_points_nobody_can_take(leftover, whists):
    deals = [*pulka_of(50, "A"), *pulka_of(50, "B"), *pulka_of(46, "C"), unwhisted("C", "8S")]
    sheet = sheet_of(deals, help_leftover=leftover)
    assert sheet.totals.pulka == {"A": 50, "B": 50, "C": 52}
    assert sheet.rows[-1].help == {}
    assert sheet.totals.whists["C"] == whists
    assert sheet.finished


def test_four_players_rotate_the_dealer_who_sits_out():
    deals = [
        unwhisted("B", "6S"),
        {
            "contract": "7H",
            "declarer": "C",
            "tricks": 7,
            "whisters": [{"player": "D", "tricks": 2}, {"player": "A", "tricks": 1}],
        },
        unwhisted("D", "6S"),
        unwhisted("A", "6S"),
        unwhisted("B", "6S"),
    ]
    sheet = sheet_of(deals, players=ABCD)
    assert [row.entry.dealer for row in sheet.rows] == ["A", "B", "C", "D", "A"]
    assert sheet.totals.whists["D"] == {"A": 0, "B": 0, "C": 8}
    assert sheet.totals.pulka == {"A": 2, "B": 4, "C": 4, "D": 2}


def test_a_penalty_for_pulka_points_over_written_goes_onto_the_mountain():
    penalty = {"penalty": "pulka", "player": "A", "size": 4, "reason": "wrote 8 for a six and put the pencil down"}
    sheet = sheet_of([unwhisted("A", "6S"), penalty])
    assert sheet.totals.gora == {"A": 4, "B": 0, "C": 0}
    assert sheet.rows[-1].entry.reason.startswith("wrote 8")


def test_a_penalty_for_whists_over_written_lets_the_partner_write_as_many_back():
    penalty = {"penalty": "whists", "player": "B", "wronged": "A", "size": 6, "reason": "six whists too many on A"}
    sheet = sheet_of([unwhisted("A", "6S"), penalty])
    assert sheet.totals.whists["A"] == {"B": 6, "C": 0}


def test_an_entry_is_final_once_the_next_deal_is_entered():
    penalty = {"penalty": "pulka", "player": "A", "size": 2, "reason": "r"}
    sheet = sheet_of([unwhisted("A", "6S"), penalty, unwhisted("B", "6S"), penalty])
    assert [row.final for row in sheet.rows] == [True, True, False, False]


def test_a_penalty_may_follow_the_last_deal():
    deals = [*pulka_of(50, "A"), *pulka_of(50, "B"), *pulka_of(50, "C")]
    sheet = sheet_of([*deals, {"penalty": "pulka", "player": "C", "size": 2, "reason": "late"}])
    assert sheet.finished and sheet.totals.gora["C"] == 2
