"""The pure rating (``league.rating.compute``): who wins moves up, ties tie, tables of three
count, the order tables are read in changes nothing, the same history gives the same ratings,
and a changed series changes the ratings after it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.rating.compute import (
    PROVISIONAL_SERIES,
    START,
    Sitting,
    Skill,
    Table,
    displayed,
    places,
    rate_history,
    rate_sitting,
)


def sitting(key, *tables, game="baska"):
    return Sitting(key, game, tuple(Table(number, tuple(points)) for number, points in enumerate(tables, start=1)))


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([30, 10, -10, -30], [1, 2, 3, 4]),
        ([10, 10, -5, -15], [1, 1, 3, 4]),
        ([0, 0, 0, 0], [1, 1, 1, 1]),
        ([-30, 20, 20, -10], [4, 1, 1, 3]),
        ([5, 5, -10], [1, 1, 3]),
    ],
)
def test_a_place_at_the_table_counts_those_with_more_points_and_ties_share_the_best(values, expected):
    assert places(values) == expected


def test_a_newcomer_is_shown_at_the_start_of_the_scale_and_provisional():
    assert Skill().shown == START
    assert Skill().provisional
    assert not Skill(series=PROVISIONAL_SERIES).provisional
    assert displayed(30.0, 1.0) == START + 40 * 27


def test_the_winner_of_a_table_rises_above_the_loser_and_certainty_grows():
    [first, second, third, fourth] = rate_sitting({}, sitting(1, [(1, 30), (2, 10), (3, -10), (4, -30)]))
    assert first.skill.mu > second.skill.mu > third.skill.mu > fourth.skill.mu
    assert all(r.skill.sigma < Skill().sigma for r in (first, second, third, fourth))
    assert [r.place for r in (first, second, third, fourth)] == [1, 2, 3, 4]
    assert all(r.skill.series == 1 for r in (first, second, third, fourth))


def test_tied_players_at_a_table_come_out_equal():
    rated = {r.person: r for r in rate_sitting({}, sitting(1, [(1, 20), (2, 20), (3, -10), (4, -30)]))}
    assert rated[1].skill == rated[2].skill
    assert rated[1].place == rated[2].place == 1


def test_a_table_of_three_is_a_match_of_three():
    rated = rate_sitting({}, sitting(1, [(1, 12), (2, 0), (3, -12)], game="preferans"))
    assert [r.place for r in rated] == [1, 2, 3]
    assert {r.game for r in rated} == {"preferans"}
    assert rated[0].skill.mu > rated[2].skill.mu


def test_one_player_at_a_table_is_no_match():
    assert rate_sitting({}, sitting(1, [(1, 0)])) == []


def test_the_two_games_keep_separate_ratings():
    _, skills = rate_history(
        [sitting(1, [(1, 30), (2, 10), (3, -10), (4, -30)]), sitting(2, [(1, -12), (2, 0), (3, 12)], game="preferans")]
    )
    assert skills["baska", 1].mu > skills["baska", 3].mu
    assert skills["preferans", 1].mu < skills["preferans", 3].mu


def test_the_expected_place_is_read_from_the_ratings_before_the_series():
    strong = Skill(mu=35.0, sigma=2.0, series=20)
    table = sitting(1, [(1, 30), (2, 10), (3, -10), (4, -30)])
    rated = {r.person: r for r in rate_sitting({("baska", 4): strong}, table)}
    assert rated[4].expected_place == 1
    assert rated[1].expected_place == rated[2].expected_place == rated[3].expected_place == 2
    assert rated[4].place == 4


def test_a_reopened_and_corrected_series_changes_the_ratings_after_it():
    before = [sitting(1, [(1, 30), (2, 10), (3, -10), (4, -30)]), sitting(2, [(1, 5), (2, 5), (3, -5), (4, -5)])]
    corrected = [sitting(1, [(1, -30), (2, 10), (3, -10), (4, 30)]), before[1]]
    _, old = rate_history(before)
    _, new = rate_history(corrected)
    assert new["baska", 4].mu > old["baska", 4].mu
    assert new["baska", 1].mu < old["baska", 1].mu


def test_rating_from_the_middle_gives_what_rating_all_of_it_gives():
    history = [sitting(n, [(1, 30 - n), (2, 10), (3, -10), (4, n - 30)]) for n in range(1, 7)]
    all_at_once, _ = rate_history(history)
    first, skills = rate_history(history[:3])
    rest, _ = rate_history(history[3:], skills)
    assert first + rest == all_at_once


points = st.integers(min_value=-200, max_value=200)


@st.composite
def series(draw, key: int):
    """One series of up to four tables of three or four of twelve people, each sitting once."""
    people = draw(st.permutations(range(1, 13)))
    sizes = draw(st.lists(st.sampled_from([3, 4]), min_size=1, max_size=3))
    tables, at = [], 0
    for number, size in enumerate(sizes, start=1):
        tables.append(Table(number, tuple((person, draw(points)) for person in people[at : at + size])))
        at += size
    return Sitting(key, "baska", tuple(tables))


histories = st.integers(min_value=1, max_value=5).flatmap(lambda n: st.tuples(*(series(key) for key in range(n))))


@settings(max_examples=50, deadline=None)
@given(histories, st.randoms(use_true_random=False))
def test_the_order_of_tables_and_seats_within_a_series_changes_nothing(history, random):
    shuffled = []
    for one in history:
        tables = [Table(t.number, tuple(random.sample(t.points, len(t.points)))) for t in one.tables]
        shuffled.append(Sitting(one.key, one.game, tuple(random.sample(tables, len(tables)))))
    assert rate_history(history)[1] == rate_history(shuffled)[1]


@settings(max_examples=50, deadline=None)
@given(histories)
def test_the_same_history_gives_the_same_ratings(history):
    assert rate_history(history) == rate_history(list(history))


@settings(max_examples=50, deadline=None)
@given(histories)
def test_everyone_seated_has_a_result_each_series_with_certainty_growing(history):
    rated, skills = rate_history(history)
    seated = sum(len(t.points) for one in history for t in one.tables)
    assert len(rated) == seated
    for (_game, person), skill in skills.items():
        assert skill.sigma < Skill().sigma
        assert skill.series == sum(person in dict(t.points) for one in history for t in one.tables)
