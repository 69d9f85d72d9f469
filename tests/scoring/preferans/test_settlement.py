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
    # pinned to the per-mountain remainder rule, the reading this test was written for
    settlement = settle(sheet_of([deal], closed=True, remainder="mountain"))
    # closed at once: A lacks 48, B and C 50; after the amnesty A 0, B 2, C 2, each moved onto 3
    assert settlement.whists["B"]["A"] == 6 + 3
    assert settlement.whists["A"]["B"] == 10
    assert settlement.net["B"]["A"] == -settlement.net["A"]["B"]
    assert sum(settlement.balance.values()) == 0


# issue 28's cases: full pulkas, then B's and C's mountains; A's stays at nothing.
# mountain (variant 1, line 23, the presets' reading): each mountain moved on its own;
# final (a variant): exact shares, rounded only where the final sums have fractions
REMAINDER_READINGS = [
    ("final", 20, 40, {"A": 200, "B": 0, "C": -200}, []),
    ("mountain", 20, 40, {"A": 200, "B": -1, "C": -199}, [("B", 1, 3), ("C", -1, 3)]),
    ("final", 1, 2, {"A": 10, "B": 0, "C": -10}, []),
    ("mountain", 1, 2, {"A": 10, "B": 1, "C": -11}, [("B", -1, 3), ("C", 1, 3)]),
    ("final", 40, 32, {"A": 240, "B": -160, "C": -80}, []),
    ("mountain", 40, 32, {"A": 240, "B": -159, "C": -81}, [("B", -1, 3), ("C", 1, 3)]),
    # the mountains together leave a remainder (2 points): the largest (ties: the first seated,
    # B) moves onto 2, and B writes 3 on each; exact shares would give 6 2/3, -3 1/3, -3 1/3
    ("final", 1, 1, {"A": 7, "B": -4, "C": -3}, [("B", 1, 3)]),
    ("mountain", 1, 1, {"A": 6, "B": -3, "C": -3}, [("B", -1, 3), ("C", -1, 3)]),
    # 4 points together: final moves the largest (B's 3, which divided) off to 2;
    # mountain moves C's 1, the one that does not divide, off to nothing
    ("final", 3, 1, {"A": 13, "B": -16, "C": 3}, [("B", -1, 3)]),
    ("mountain", 3, 1, {"A": 13, "B": -17, "C": 4}, [("C", -1, 3)]),
]


@pytest.mark.parametrize(("remainder", "b", "c", "balance", "adjustments"), REMAINDER_READINGS)
def test_the_remainder_rule_on_the_final_sums_or_on_each_mountain(remainder, b, c, balance, adjustments):
    sheet = sheet_of([*FULL, penalty("B", b), penalty("C", c)], remainder=remainder)
    settlement = settle(sheet)
    assert settlement.balance == balance
    assert [(a.player, a.points, a.whists_each) for a in settlement.adjustments] == adjustments
    for a in sheet.players:
        assert all(whists >= 0 for whists in settlement.whists[a].values())
        assert settlement.balance[a] == sum(settlement.net[a].values())


@pytest.mark.parametrize("variant", ["sochi", "leningrad"])
def test_both_presets_apply_the_remainder_rule_to_each_mountain(variant):
    """Seed 003 line 23, "Так надходять з кожною горою" (issue 38)."""
    assert sheet_of([], variant=variant).variant.remainder == "mountain"


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


def test_the_final_sums_reading_never_takes_a_mountain_below_nothing():
    # a mountain point of 1 whist among four: mountains 0, 1, 1, 0 together need 2 more points,
    # and 2 off the largest (1) would leave it at -1, so 2 go onto it
    players = ABCD
    deals = [*full_pulka(players), penalty("B", 1), penalty("C", 1)]
    settlement = settle(sheet_of(deals, players=players, whists_per_mountain_point=1, remainder="final"))
    assert settlement.mountains == {"A": 0, "B": 3, "C": 1, "D": 0}
    assert [(a.player, a.points) for a in settlement.adjustments] == [("B", 2)]
    assert settlement.balance == {"A": 1, "B": -2, "C": 0, "D": 1}
