"""The tournament of the tournament room's organiser (tests/conftest.py: logged in)."""

import pytest

from tests.factories import TournamentFactory


@pytest.fixture
def tournament(organiser):
    tournament = TournamentFactory(series_count=2)
    tournament.organisers.add(organiser)
    return tournament
