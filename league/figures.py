"""How the league rounds a figure a person reads: half away from zero, as the rulebooks and a
pocket calculator do (2,45 → 2,5; −0,05 → −0,1), never to a "−0,0".

Python's ``round`` halves to even and works on the binary float (``round(2.675, 2)`` is 2.67), and
Django's ``number_format`` with ``decimal_pos`` cuts the digits off (1.66 showed "+1,6"). A float
is read here as the decimal it prints as (``repr``: 0.078 is 0.078), then rounded.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def rounded(value: float | int | Decimal, places: int = 0) -> Decimal:
    """``value`` rounded half away from zero to ``places`` decimals; a zero is never negative."""
    exact = value if isinstance(value, Decimal) else Decimal(repr(value) if isinstance(value, float) else value)
    result = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return result.copy_abs() if result.is_zero() else result


def whole_or_rounded(value: float | int | Decimal, places: int) -> int | float:
    """``value`` rounded to ``places`` decimals, as an int where it is whole (14, 14.5, 3.33)."""
    result = rounded(value, places)
    return int(result) if result == result.to_integral_value() else float(result)
