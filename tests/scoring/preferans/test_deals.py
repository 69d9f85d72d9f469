"""What one deal writes: prices, remizes, whists and the whisters' obligation."""

import pytest

from scoring.preferans import entry_writes, load_variant, parse_entry

SOCHI = load_variant("sochi")
LENINGRAD = load_variant("leningrad")


def writes(deal, players=("A", "B", "C")):
    return entry_writes(parse_entry(deal, "deals[0]", players=players, previous_dealer=None), SOCHI)


@pytest.mark.parametrize("variant", [SOCHI, LENINGRAD], ids=["sochi", "leningrad"])
@pytest.mark.parametrize(("contract", "price"), [("6", 2), ("7", 4), ("8", 6), ("9", 8), ("10", 10), ("misere", 10)])
def test_the_usual_price_table(variant, contract, price):
    assert variant.price(contract) == price


@pytest.mark.parametrize(
    ("contract", "pulka"), [("6S", 2), ("6NT", 2), ("7H", 4), ("8C", 6), ("9D", 8), ("10S", 10), ("10NT", 10)]
)
def test_an_unwhisted_contract_counts_as_made_at_its_price(contract, pulka):
    assert writes({"contract": contract, "declarer": "A"}).pulka == pulka


# contract, declarer's tricks, whisters (player, tricks): pulka, gora, whists (writer, on)
CASES = [
    # made exactly: the whisters write the price per trick on the declarer
    ("6S", 6, [("B", 2), ("C", 2)], 2, {}, {("B", "A"): 4, ("C", "A"): 4}),
    ("7H", 8, [("B", 1), ("C", 1)], 4, {}, {("B", "A"): 4, ("C", "A"): 4}),
    # one down: price × undertricks onto the mountain, the whists still count
    ("8D", 7, [("B", 2), ("C", 1)], 0, {"A": 6}, {("B", "A"): 12, ("C", "A"): 6}),
    ("10NT", 7, [("B", 3)], 0, {"A": 30}, {("B", "A"): 30}),
    # the whisters short of their obligation: half each, price per trick short
    ("6C", 7, [("B", 3), ("C", 0)], 2, {"C": 4}, {("B", "A"): 6, ("C", "A"): 0}),
    ("6C", 8, [("B", 1), ("C", 1)], 2, {"B": 2, "C": 2}, {("B", "A"): 2, ("C", "A"): 2}),
    ("8S", 10, [("B", 0), ("C", 0)], 6, {"B": 3, "C": 3}, {("B", "A"): 0, ("C", "A"): 0}),
    ("9S", 10, [("B", 0), ("C", 0)], 8, {"B": 4, "C": 4}, {("B", "A"): 0, ("C", "A"): 0}),
    # a lone whister owes the whole obligation
    ("7S", 9, [("C", 1)], 4, {"C": 4}, {("C", "A"): 4}),
    ("6S", 6, [("C", 4)], 2, {}, {("C", "A"): 8}),
    # a ten has no obligation
    ("10H", 10, [("B", 0), ("C", 0)], 10, {}, {("B", "A"): 0, ("C", "A"): 0}),
    # misère: no whists; each trick taken costs the price
    ("misere", 0, [], 10, {}, {}),
    ("misere", 2, [], 0, {"A": 20}, {}),
]


@pytest.mark.parametrize(("contract", "tricks", "whisters", "pulka", "gora", "whists"), CASES)
def test_a_deal_writes_pulka_mountain_and_whists(contract, tricks, whisters, pulka, gora, whists):
    deal = {
        "contract": contract,
        "declarer": "A",
        "tricks": tricks,
        "whisters": [{"player": player, "tricks": taken} for player, taken in whisters],
    }
    written = writes(deal)
    assert (written.pulka, written.gora, written.whists) == (pulka, gora, whists)


def test_with_four_players_the_dealer_sits_out_and_the_deal_passes_left():
    players = ("A", "B", "C", "D")
    first = parse_entry({"contract": "6S", "declarer": "B"}, "deals[0]", players=players, previous_dealer=None)
    second = parse_entry({"contract": "6S", "declarer": "A"}, "deals[1]", players=players, previous_dealer="A")
    assert (first.dealer, second.dealer) == ("A", "B")


def test_a_passed_deal_is_skipped_by_naming_the_next_dealer():
    deal = {"contract": "6S", "declarer": "A", "dealer": "D"}
    assert parse_entry(deal, "deals[1]", players=("A", "B", "C", "D"), previous_dealer="A").dealer == "D"
