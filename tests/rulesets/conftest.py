"""An organiser of the own-rules room's tests, logged in, and a ruleset of theirs."""

import pytest
from django.contrib.auth.models import Permission

from tests.factories import OwnRulesetFactory, UserFactory


@pytest.fixture
def organiser(client):
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    return user


@pytest.fixture
def own(organiser):
    return OwnRulesetFactory(owner=organiser, name="Liga Kaszubska 2027")
