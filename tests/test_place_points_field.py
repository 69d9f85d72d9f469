"""One field for every places-to-points table ("100; 80; 62,5"): the season's points for places
and a ruleset's points for team places are typed, read and refused alike."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from league.games.baska.rulesets.forms import RulesetForm
from league.seasons.forms import SeasonForm

TYPED = [
    ("100; 80; 62,5", [100, 80, 62.5], None),
    ("100;\n80 ; 62.5;", [100, 80, 62.5], None),
    ("", [], None),
    ("100; sto", None, "„sto” (miejsce 2) nie jest liczbą."),
    ("100; inf", None, "„inf” (miejsce 2) nie jest liczbą."),
    ("100; -5", None, "Miejsce 2: punkty nie mogą być ujemne."),
    ("1001", None, "Miejsce 1: najwyżej 1000 punktów."),
    ("80; 100", None, "Miejsce 2 dostaje więcej punktów niż miejsce przed nim."),
    ("; ".join(["1"] * 501), None, "Punkty może dostać najwyżej 500 miejsc."),
]


@pytest.mark.parametrize(("typed", "read", "refused"), TYPED)
@pytest.mark.parametrize(("form", "name"), [(SeasonForm, "place_points"), (RulesetForm, "team_points")])
def test_the_season_and_the_ruleset_editor_read_and_refuse_points_for_places_alike(form, name, typed, read, refused):
    field = form.base_fields[name]
    with translation.override("pl"):
        if refused is None:
            assert field.clean(typed) == read
        else:
            with pytest.raises(ValidationError) as error:
                field.clean(typed)
            assert error.value.messages == [refused]
