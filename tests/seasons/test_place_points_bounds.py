"""Points for places as large as a float holds (1e308) or larger (1e400, infinity) are refused
by the season's service and by the engine, not only by the form: summed over eight places
they overflowed and broke the season's page, its exports and every player's page."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

import scoring
from league.models import Season, SeasonScheme, SeasonVersion
from league.seasons import services
from scoring import Ranked, Standing
from tests.factories import SeasonFactory, UserFactory

HUGE = [1e308] * 8


@pytest.mark.django_db
@pytest.mark.parametrize("place_points", [HUGE, [100, float("inf")], [100, float("nan")]])
def test_the_service_refuses_points_no_sum_can_hold_and_changes_nothing(place_points):
    organiser = UserFactory()
    season = SeasonFactory(place_points=[100, 80])
    season.organisers.add(organiser)

    with pytest.raises(ValidationError) as refused:
        services.season_update(season=season, user=organiser, scheme=SeasonScheme.PLACES, place_points=place_points)

    with translation.override("pl"):
        assert refused.value.message_dict["place_points"] == ["Punkty za miejsce to liczby od 0 do 1000."]
    assert Season.objects.get(pk=season.pk).place_points == [100, 80]
    assert not SeasonVersion.objects.exists()


def test_the_engine_refuses_them_too():
    ranked = [Ranked(place, str(place), Standing(str(place), 0.0, 10.0)) for place in range(1, 9)]

    with pytest.raises(scoring.ScoringError, match="place_points"):
        scoring.season_place_points(ranked, HUGE)

    assert scoring.season_place_points(ranked, [1000] * 8)["1"].big_points == 1000
