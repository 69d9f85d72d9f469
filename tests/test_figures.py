"""Every figure shown with decimals rounds half away from zero and never shows "−0,0" (issue 38:
the player page's averages were cut off: 0.078 showed "+0,0", 1.66 "+1,6", −0.08 "−0,0")."""

from fractions import Fraction
from math import floor

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from league.public.charts import number
from league.ranking_lists import points
from league.templatetags.points import signed_average

FIGURES = st.floats(-10_000, 10_000, allow_nan=False) | st.integers(-10_000, 10_000).map(lambda n: n / 40)


def half_away(value: float, places: int) -> Fraction:
    """The value as it prints (``repr``) rounded half away from zero, by exact fractions."""
    exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    scale = 10**places
    magnitude = Fraction(floor(abs(exact) * scale + Fraction(1, 2)), scale)
    return magnitude if exact >= 0 else -magnitude


def read(text: str) -> Fraction:
    """A figure as a reader reads it: a decimal comma, the minus sign (−) or a plus."""
    return Fraction(text.replace("−", "-").replace("+", "").replace(",", ".").replace("\u00a0", ""))


@pytest.mark.parametrize(
    ("value", "shown"), [(0.078, "+0,1"), (1.66, "+1,7"), (-0.08, "−0,1"), (-0.04, "0"), (2.45, "+2,5"), (0, "0")]
)
def test_the_averages_of_the_issue_are_rounded(value, shown):
    with translation.override("pl"):
        assert signed_average(value) == shown


@given(FIGURES)
def test_an_average_rounds_half_away_from_zero_and_is_never_minus_zero(value):
    with translation.override("pl"):
        shown = signed_average(value)
    assert shown != "−0,0" and shown.count("−") <= 1
    assert read(shown) == half_away(value, 1)


@given(FIGURES)
def test_big_points_and_chart_figures_round_half_away_from_zero(value):
    assert Fraction(repr(points(value)) if isinstance(points(value), float) else points(value)) == half_away(value, 2)
    assert read(number(value)) == half_away(value, 2)
    assert number(value) not in ("−0", "−0,0")
