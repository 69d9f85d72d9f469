"""A places-to-points table typed as one field ("100; 80; 62,5"): the season's points for the
places of a tournament, and a ruleset's points for the team places (``team_big_points``).

One field, one set of refusals, bounded as the engine bounds such a table
(``scoring.parse_place_points``): finite numbers from 0 to ``MAX_POINTS``, at most
``MAX_PLACES`` places, never more points for a worse place.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.formats import localize
from django.utils.translation import gettext_lazy as _

from league.ranking_lists import points
from scoring.ruleset import MAX_PLACES, MAX_POINTS


class PlacePointsField(forms.CharField):
    """Points for 1st, 2nd, 3rd … place typed as "100; 90; 80", with a decimal comma or point;
    cleaned to a list of numbers (whole ones as int), never growing with the place."""

    widget = forms.Textarea(attrs={"rows": 3})

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return "; ".join(str(localize(points(v))) for v in value)
        return value

    def to_python(self, value: Any) -> list[int | float]:
        text = super().to_python(value)
        numbers: list[int | float] = []
        for number, item in enumerate((part.strip() for part in text.replace("\n", ";").split(";")), start=1):
            if not item:
                continue
            try:
                parsed = Decimal(item.replace(",", ".").replace(" ", "").replace("\xa0", ""))
            except InvalidOperation:
                parsed = Decimal("NaN")
            if not parsed.is_finite():
                raise forms.ValidationError(
                    _("“%(value)s” (place %(place)s) is not a number."),
                    code="invalid",
                    params={"value": item, "place": number},
                )
            if parsed < 0:
                raise forms.ValidationError(
                    _("Place %(place)s: points cannot be negative."), code="negative", params={"place": number}
                )
            if parsed > MAX_POINTS:  # 1e308 would overflow the sums, 1e400 is infinity
                raise forms.ValidationError(
                    _("Place %(place)s: at most %(max)s points."),
                    code="too_large",
                    params={"place": number, "max": MAX_POINTS},
                )
            numbers.append(points(float(parsed)))
        if len(numbers) > MAX_PLACES:
            raise forms.ValidationError(
                _("At most %(max)s places get points."), code="too_many", params={"max": MAX_PLACES}
            )
        for place, (better, worse) in enumerate(zip(numbers, numbers[1:], strict=False), start=2):
            if worse > better:
                raise forms.ValidationError(
                    _("Place %(place)s gets more points than the place before it."),
                    code="growing",
                    params={"place": place},
                )
        return numbers
