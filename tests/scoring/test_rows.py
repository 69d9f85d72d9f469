"""Plain rows (scoring.rows): one integer per seat, summing to zero, added up as on paper."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import SEATS, ScoringError
from scoring.rows import score_rows


@st.composite
def zero_sum_rows(draw):
    """A row as stored: three free values and the fourth that makes them sum to zero."""
    free = draw(st.lists(st.integers(-1000, 1000), min_size=3, max_size=3))
    return {"values": dict(zip(SEATS, [*free, -sum(free)], strict=True))}


@given(st.lists(zero_sum_rows(), max_size=40))
def test_the_running_totals_are_the_sums_of_the_rows_and_sum_to_zero(rows):
    result = score_rows(rows, SEATS)
    for number, line in enumerate(result.rows, start=1):
        assert line.values == rows[number - 1]["values"]
        assert line.totals == {seat: sum(row["values"][seat] for row in rows[:number]) for seat in SEATS}
        assert not line.doubled
    assert result.totals == (result.rows[-1].totals if rows else dict.fromkeys(SEATS, 0))
    assert sum(result.totals.values()) == 0


@pytest.mark.parametrize(
    ("rows", "code", "path"),
    [
        ({"values": {}}, "invalid_input", "deals"),  # not a list
        ([{"values": {"A": 1, "B": -1, "C": 0, "D": 0}, "note": "x"}], "invalid_input", "deals[0].note"),
        ([{"values": {"A": 1, "B": -1, "C": 0}}], "invalid_input", "deals[0].values.D"),
        ([{"values": {"A": 1, "B": -1, "C": 0, "D": 0, "E": 0}}], "invalid_input", "deals[0].values.E"),
        ([{"values": {"A": 1.5, "B": -1.5, "C": 0, "D": 0}}], "invalid_input", "deals[0].values.A"),
        ([{"values": {"A": True, "B": 0, "C": 0, "D": -1}}], "invalid_input", "deals[0].values.A"),
        (
            [{"values": {"A": 1, "B": -1, "C": 0, "D": 0}}, {"values": {"A": 3, "B": 0, "C": 0, "D": 0}}],
            "values_not_zero_sum",
            "deals[1].values",
        ),
    ],
)
def test_a_row_that_is_no_row_is_refused_naming_its_place(rows, code, path):
    with pytest.raises(ScoringError) as refused:
        score_rows(rows, SEATS)
    assert (refused.value.code, refused.value.path) == (code, path)


def test_a_game_s_own_rule_replaces_the_zero_sum():
    def even(values, path):
        if any(value % 2 for value in values.values()):
            raise ScoringError("invalid_input", {"field": path, "expected": "even numbers"}, path)

    assert score_rows([{"values": {"A": 2, "B": 2, "C": 0, "D": 0}}], SEATS, even).totals["B"] == 2
    with pytest.raises(ScoringError):
        score_rows([{"values": {"A": 1, "B": -1, "C": 0, "D": 0}}], SEATS, even)
