import pytest
from django.db import IntegrityError

from players.models import Player, TeamMember
from tests.factories import ClubFactory, PlayerFactory, TeamFactory

pytestmark = pytest.mark.django_db


def test_full_name_is_first_name_then_last_name():
    assert PlayerFactory.build(first_name="Anna", last_name="Kowalska").full_name == "Anna Kowalska"


def test_players_are_listed_by_last_name_then_first_name():
    PlayerFactory(first_name="Piotr", last_name="Zielke")
    PlayerFactory(first_name="Jan", last_name="Bork")
    PlayerFactory(first_name="Adam", last_name="Bork")
    assert [p.full_name for p in Player.objects.all()] == ["Adam Bork", "Jan Bork", "Piotr Zielke"]


def test_two_players_cannot_share_a_licence_number():
    PlayerFactory(licence="PL-123")
    with pytest.raises(IntegrityError):
        PlayerFactory(licence="PL-123")


def test_many_players_may_have_no_licence():
    PlayerFactory.create_batch(3, licence="")
    assert Player.objects.filter(licence="").count() == 3


def test_club_with_players_cannot_be_deleted():
    club = ClubFactory()
    PlayerFactory(club=club)
    with pytest.raises(IntegrityError):
        club.delete()


def test_team_factory_builds_members_and_captain():
    team = TeamFactory(members=5)
    assert team.members.count() == 5
    assert team.captain in team.members.all()


def test_database_refuses_a_second_active_team_for_one_player():
    team = TeamFactory(members=4)
    with pytest.raises(IntegrityError):
        TeamMember.objects.create(team=TeamFactory(), player=team.captain)


def test_player_of_an_inactive_team_may_join_another_team():
    old = TeamFactory(members=4)
    old.active = False
    old.save()
    TeamMember.objects.create(team=TeamFactory(), player=old.captain)
    assert old.captain.teams.count() == 2
