"""The final settlement (variant 1): amnesty, mountains into whists, the remainder rule, money."""

from decimal import Decimal

import pytest

from scoring.preferans import money, settle

from .sheets import ABCD, full_pulka, pulka_of, sheet_of, unwhisted

FULL = full_pulka()


def penalty(player, size):
    return {"penalty": "pulka", "player": player, "size": size, "reason": "test"}


def test_the_leningrad_example_settles_from_its_mountains():
    deals = [*pulka_of(48, "A"), *pulka_of(48, "B"), *pulka_of(48, "C"), unwhisted("A", "8S")]
    settlement = settle(sheet_of(deals, variant="leningrad"))
    assert settlement.mountains_at_end == {"A": -8, "B": 4, "C": 4}
    assert settlement.amnesty == -8
    assert settlement.mountains == {"A": 0, "B": 12, "C": 12}
    # 12 × 10 / 3 = 40 to each other player
    assert settlement.balance == {"A": 80, "B": -40, "C": -40}


def test_amnesty_takes_the_smallest_mountain_off_every_mountain():
    settlement = settle(sheet_of([*FULL, penalty("A", 3), penalty("B", 9), penalty("C", 6)]))
    assert settlement.amnesty == 3
    assert settlement.mountains == {"A": 0, "B": 6, "C": 3}
    assert settlement.balance == {"A": 30, "B": -30, "C": 0}


def test_the_seeds_remainder_example_one_point_off_and_three_whists_from_each_other_player():
    settlement = settle(sheet_of([*FULL, penalty("A", 1)]))
    assert settlement.mountains == {"A": 0, "B": 0, "C": 0}
    assert [(a.player, a.points, a.whists_each) for a in settlement.adjustments] == [("A", -1, 3)]
    assert settlement.whists["B"]["A"] == 3 and settlement.whists["C"]["A"] == 3
    assert settlement.balance == {"A": -6, "B": 3, "C": 3}


# players, mountain after amnesty: the point moved, whists each, the owner's balance
REMAINDERS = [
    (3, 1, -1, 3, -6),
    (3, 2, +1, 3, -14),  # onto 3: 10 to each, less the 3 he writes on each
    (3, 4, -1, 3, -26),
    (4, 1, -1, 2, -6),
    (4, 3, -1, 2, -21),
    (4, 2, 0, 0, -15),
]


@pytest.mark.parametrize(("count", "mountain", "points", "each", "balance"), REMAINDERS)
def test_the_remainder_rule_moves_a_mountain_by_one_point(count, mountain, points, each, balance):
    players = ABCD[:count]
    settlement = settle(sheet_of([*full_pulka(players), penalty("A", mountain)], players=players))
    assert [(a.points, a.whists_each) for a in settlement.adjustments] == ([(points, each)] if points else [])
    assert settlement.balance["A"] == balance
    assert sum(settlement.balance.values()) == 0


def test_whists_written_in_play_are_netted_pairwise():
    deal = {
        "contract": "6S",
        "declarer": "A",
        "tricks": 6,
        "whisters": [{"player": "B", "tricks": 3}, {"player": "C", "tricks": 1}],
    }
    settlement = settle(sheet_of([deal], closed=True))
    # closed at once: A lacks 48, B and C 50; after the amnesty A 0, B 2, C 2, each moved onto 3
    assert settlement.whists["B"]["A"] == 6 + 3
    assert settlement.whists["A"]["B"] == 10
    assert settlement.net["B"]["A"] == -settlement.net["A"]["B"]
    assert sum(settlement.balance.values()) == 0


def test_an_open_pulka_is_not_settled():
    with pytest.raises(ValueError, match="finished or closed"):
        settle(sheet_of([unwhisted("A", "6S")]))


@pytest.mark.parametrize(
    ("stake", "amounts"),
    [
        (5, {"A": -30, "B": 15, "C": 15}),
        (Decimal("0.10"), {"A": Decimal("-0.60"), "B": Decimal("0.30"), "C": Decimal("0.30")}),
    ],
)
def test_the_stake_per_whist_turns_whists_into_money(stake, amounts):
    assert money({"A": -6, "B": 3, "C": 3}, stake) == amounts


def test_money_is_never_a_float():
    with pytest.raises(TypeError):
        money({"A": 0}, 0.1)
