"""Seed 003 (the Preferans code, Ukrainian), one test per line quoted by issue 38: the settlement
as the text counts it in both presets."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.preferans import settle

from .sheets import ABC, ABCD, full_pulka, pulka_of, sheet_of, unwhisted

PRESETS = ("sochi", "leningrad")


def penalty(player, size):
    return {"penalty": "pulka", "player": player, "size": size, "reason": "test"}


@pytest.mark.parametrize("variant", PRESETS)
def test_line_23_each_mountain_is_divided_on_its_own_so_equal_mountains_pay_equal(variant):
    """ "Гора кожного гравця множиться на 10 і ділиться на кількість учасників … Так надходять з
    кожною горою": mountains 16 and 16 paid −54 and −53 by seat under the final-sums reading."""
    settlement = settle(sheet_of([*full_pulka(), penalty("B", 16), penalty("C", 16)], variant=variant))
    assert settlement.balance["B"] == settlement.balance["C"]
    assert settlement.balance == {"A": 106, "B": -53, "C": -53}


def test_line_20_the_example_divides_one_mountain_to_avoid_rounding():
    """ "для зручності поділу гори на три одному з учасників з гори списали одиничку": a Sochi
    pulka closed early at 10 / 0 / 0 settles 66 / −33 / −33, B and C alike (the final-sums
    reading moved B's mountain, the first seated of the two largest: 67 / −34 / −33)."""
    settlement = settle(sheet_of(pulka_of(10, "A"), variant="sochi", closed=True))
    assert settlement.mountains_at_end == {"A": 40, "B": 50, "C": 50}
    assert settlement.balance == {"A": 66, "B": -33, "C": -33}
    final = settle(sheet_of(pulka_of(10, "A"), variant="sochi", closed=True, remainder="final"))
    assert final.balance == {"A": 67, "B": -34, "C": -33}  # the variant kept for leagues that want it


def test_line_9_leningrad_closing_writes_the_missing_points_twice():
    """ "переграні окуляри … списуються з гори подвійно, а недоігранні окуляри виносяться на гору
    — також удвічі": A 10 over, B and C 10 short of 50, closed by agreement."""
    deals = [*pulka_of(60, "A"), *pulka_of(40, "B"), *pulka_of(40, "C")]
    settlement = settle(sheet_of(deals, variant="leningrad", closed=True))
    assert settlement.mountains_at_end == {"A": -20, "B": 20, "C": 20}


def test_line_7_sochi_closing_writes_the_missing_points_once():
    """ "кожен пише на гору недоіграну до домовленого кількість очок"."""
    deals = [*pulka_of(50, "A"), *pulka_of(40, "B"), *pulka_of(30, "C")]
    settlement = settle(sheet_of(deals, variant="sochi", closed=True))
    assert settlement.mountains_at_end == {"A": 0, "B": 10, "C": 20}


def test_line_26_the_last_contract_nobody_can_take_is_paid_as_whists_in_sochi():
    """ "кожен зіграний … контракт однаковий за вартістю, незалежно від того собі або в допомогу":
    C plays an eight (6 points) with 4 to go while A and B are full; the 2 left over are whists."""
    deals = [*pulka_of(50, "A"), *pulka_of(50, "B"), *pulka_of(46, "C"), unwhisted("C", "8S")]
    sheet = sheet_of(deals, variant="sochi")
    assert sheet.variant.help_leftover == "whists"
    assert sum(sheet.totals.whists["C"].values()) == 2 * sheet.variant.help_whists_per_point


@settings(max_examples=150, deadline=None)
@given(
    variant=st.sampled_from(PRESETS),
    players=st.sampled_from([ABC, ABCD]),
    mountains=st.lists(st.integers(0, 40), min_size=4, max_size=4),
    twins=st.integers(0, 2),
)
def test_in_every_preset_equal_positions_pay_equal_amounts(variant, players, mountains, twins):
    """Two players with the same pulka, the same mountain and no whists between anybody settle to
    the same balance, whatever their seats."""
    mountains = mountains[: len(players)]
    twins %= len(players) - 1
    mountains[twins + 1] = mountains[twins]
    deals = [*full_pulka(players), *(penalty(p, m) for p, m in zip(players, mountains, strict=True) if m)]
    settlement = settle(sheet_of(deals, players=players, variant=variant))
    assert settlement.balance[players[twins]] == settlement.balance[players[twins + 1]]
    assert sum(settlement.balance.values()) == 0
