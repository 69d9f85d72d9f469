"""Properties of every pulka (hypothesis): settlements are zero-sum, whists net antisymmetrically."""

from dataclasses import replace
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScoringError
from scoring.preferans import VARIANTS, keep_sheet, load_variant, money, settle
from scoring.preferans.variant import HELP_LEFTOVERS, HELP_OVERFLOWS, REMAINDERS

from .sheets import ABCD

CONTRACTS = ["6S", "7C", "8D", "9H", "10NT", "misere"]


@st.composite
def deals(draw, players, index):
    """A valid deal (or now and then a penalty) as the ``index``-th deal of a sheet."""
    if draw(st.integers(0, 9)) == 0:
        column = draw(st.sampled_from(["pulka", "whists"]))
        offender, wronged = draw(st.permutations(players))[:2]
        penalty = {"penalty": column, "player": offender, "size": draw(st.integers(1, 20)), "reason": "test"}
        return {**penalty, "wronged": wronged} if column == "whists" else penalty
    dealer = players[index % len(players)]
    active = [player for player in players if len(players) == 3 or player != dealer]
    declarer, *defenders = draw(st.permutations(active))
    contract = draw(st.sampled_from(CONTRACTS))
    deal = {"contract": contract, "declarer": declarer}
    if contract == "misere":
        return {**deal, "tricks": draw(st.integers(0, 10))}
    whisting = draw(st.integers(0, 2))
    if not whisting:
        return deal
    tricks = draw(st.integers(0, 10))
    first = draw(st.integers(0, 10 - tricks))
    whisters = [{"player": defenders[0], "tricks": first}]
    if whisting == 2:
        whisters.append({"player": defenders[1], "tricks": 10 - tricks - first})
    return {**deal, "tricks": tricks, "whisters": whisters}


@st.composite
def sheet_entries(draw):
    """A valid sheet's players (3 or 4), variant, total and entries, the pulka over or not."""
    players = ABCD[: draw(st.sampled_from([3, 4]))]
    # every preset under every reading of issue 28's settings
    variant = replace(
        load_variant(draw(st.sampled_from(VARIANTS))),
        remainder=draw(st.sampled_from(REMAINDERS)),
        closing_factor=draw(st.integers(0, 3)),
        help_overflow=draw(st.sampled_from(HELP_OVERFLOWS)),
        help_leftover=draw(st.sampled_from(HELP_LEFTOVERS)),
    )
    total = draw(st.integers(1, 40))
    entries, dealt = [], 0
    for _ in range(draw(st.integers(0, 30))):
        entry = draw(deals(players, dealt))
        dealt += "penalty" not in entry
        entries.append(entry)
    try:
        keep_sheet(players=players, variant=variant, total=total, entries=entries)
    except ScoringError as error:
        # the pulka was over before the end of the list: keep the entries up to there
        assert error.code == "pulka_over"
        entries = entries[: int(error.path.removeprefix("deals[").rstrip("]"))]
    return players, variant, total, entries


@st.composite
def sheets(draw):
    """A valid sheet of 3 or 4 players under either variant, settled or closed."""
    players, variant, total, entries = draw(sheet_entries())
    sheet = keep_sheet(players=players, variant=variant, total=total, entries=entries)
    closed = not sheet.finished or draw(st.booleans())
    return keep_sheet(players=players, variant=variant, total=total, entries=entries, closed=closed)


@settings(max_examples=200, deadline=None)
@given(sheets())
def test_every_settlement_sums_to_zero(sheet):
    settlement = settle(sheet)
    assert sum(settlement.balance.values()) == 0
    assert sum(money(settlement.balance, 7).values()) == 0
    assert sum(money(settlement.balance, Decimal("0.05")).values()) == Decimal(0)


@settings(max_examples=200, deadline=None)
@given(sheets())
def test_whists_net_antisymmetrically_into_the_balances(sheet):
    settlement = settle(sheet)
    for a in sheet.players:
        for b in settlement.net[a]:
            assert settlement.net[a][b] == -settlement.net[b][a]
        assert settlement.balance[a] == sum(settlement.net[a].values())


@settings(max_examples=200, deadline=None)
@given(sheets())
def test_settled_mountains_divide_without_remainder_after_the_amnesty(sheet):
    settlement = settle(sheet)
    n = len(sheet.players)
    mountains = settlement.mountains.values()
    assert min(settlement.mountains_at_end.values()) - settlement.amnesty == 0
    assert all(mountain >= 0 for mountain in mountains)
    if sheet.variant.remainder == "mountain":
        assert all(mountain * 10 % n == 0 for mountain in mountains)
    else:
        # only the final sums must be whole: the mountains together divide, one moved at most
        assert sum(mountains) * 10 % n == 0 and len(settlement.adjustments) <= 1
    assert all(abs(adjustment.points) == 1 for adjustment in settlement.adjustments)


@settings(max_examples=200, deadline=None)
@given(sheets())
def test_every_whist_is_whole_and_never_negative(sheet):
    settlement = settle(sheet)
    for row in settlement.whists.values():
        assert all(isinstance(whists, int) and whists >= 0 for whists in row.values())


@settings(max_examples=200, deadline=None)
@given(sheets())
def test_with_help_no_pulka_passes_the_total_before_the_pulka_is_over(sheet):
    # help_overflow "own" leaves what the helped pulka cannot hold above the helper's total
    if sheet.variant.help_whists_per_point is None or sheet.variant.help_overflow == "own":
        return
    for row in sheet.rows:
        pulka = row.totals.pulka
        assert max(pulka.values()) <= sheet.total or min(pulka.values()) >= sheet.total


@settings(max_examples=200, deadline=None)
@given(sheets())
def test_with_help_the_pulka_is_over_when_every_pulka_is_full(sheet):
    if sheet.variant.help_whists_per_point is None:
        return
    assert sheet.finished == (min(sheet.totals.pulka.values()) >= sheet.total)
