"""The organiser of the tournament room's tests, logged in, and their tournament."""

import pytest
from django.contrib.auth.models import Permission

from tests.factories import TournamentFactory, UserFactory


@pytest.fixture
def organiser(client):
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    return user


@pytest.fixture
def tournament(organiser):
    tournament = TournamentFactory(series_count=2)
    tournament.organisers.add(organiser)
    return tournament
