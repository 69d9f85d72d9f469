"""Completing a Preferans protocol: "the pulka is not over" reads the flag being saved (found by an attack)."""

import pytest
from django.core.exceptions import ValidationError

from league.results import services
from league.results.models import Protocol
from tests.factories import PreferansTournamentFactory, UserFactory, drawn_series

pytestmark = pytest.mark.django_db

SIX_BY_B = {"contract": "6S", "declarer": "B"}  # two points of a pulka to 10 among four: far from over


def test_a_pulka_not_over_cannot_be_completed_by_unticking_stopped_by_the_time_limit():
    series = drawn_series(PreferansTournamentFactory(), tables=1)
    referee = UserFactory()
    series.tournament.referees.add(referee)
    protocol = series.protocols.get()
    protocol = services.protocol_row_save(
        protocol=protocol, number=1, deal=SIX_BY_B, expected_version=protocol.version, user=referee
    )
    Protocol.objects.filter(pk=protocol.pk).update(ended_early=True)  # the control room's "time is up"
    protocol.refresh_from_db()
    totals = dict(protocol.rows.get().values)
    protocol = services.protocol_totals_set(
        protocol=protocol, totals=totals, expected_version=protocol.version, user=referee
    )
    # the referee unticks "stopped by the time limit": the pulka is then neither over, closed nor stopped
    with pytest.raises(ValidationError):
        services.protocol_complete(
            protocol=protocol, expected_version=protocol.version, ended_early=False, user=referee
        )
    protocol.refresh_from_db()
    assert protocol.status == Protocol.Status.OPEN and protocol.ended_early
