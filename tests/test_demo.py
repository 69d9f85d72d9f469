"""The demo league that `make run` loads."""

import pytest
from django.core.management import call_command

from league.models import Series, TableAssignment, Tournament
from players.models import Player, Team


@pytest.mark.slow
@pytest.mark.django_db
def test_demo_league_has_teams_and_a_drawn_tournament():
    call_command("load_demo")
    assert Team.objects.count() == 10
    assert Player.objects.count() == 48
    spring = Tournament.objects.get(ruleset_preset="puck")
    for series in spring.series.all():
        assert series.status != Series.Status.PLANNED
        assert TableAssignment.objects.filter(series=series).count() == 44  # 46 players, 2 byes


@pytest.mark.slow
@pytest.mark.django_db
def test_loading_the_demo_twice_changes_nothing():
    call_command("load_demo")
    players = Player.objects.count()
    call_command("load_demo")
    assert Player.objects.count() == players
