"""The demo league that `make run` loads."""

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import transaction

from league.models import Series, TableAssignment, Tournament
from league.results.models import DealRow, Protocol
from players.models import Player, Team

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

COUNTED = (User, Player, Team, Tournament, Series, TableAssignment, Protocol, DealRow)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in COUNTED}


@pytest.fixture(scope="module", autouse=True)
def demo(django_db_setup, django_db_blocker):
    """The demo loaded once for the module (it takes seconds) inside a transaction
    rolled back at the module's end; each test runs in a savepoint of it."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("load_demo", stdout=StringIO())
        yield
        transaction.set_rollback(True)


def test_demo_league_has_teams_and_a_drawn_tournament():
    assert Team.objects.count() == 10
    assert Player.objects.count() == 48
    spring = Tournament.objects.get(ruleset_preset="puck")
    for series in spring.series.all():
        assert series.status != Series.Status.PLANNED
        assert TableAssignment.objects.filter(series=series).count() == 44  # 46 players, 2 byes


def test_loading_the_demo_twice_changes_nothing():
    before = counts()
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert out.getvalue().strip() == "The demo league is already loaded."
    assert counts() == before
