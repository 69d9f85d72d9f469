import pytest
from django.core.exceptions import ValidationError

from players import services
from players.models import TeamMember
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_team_is_created_with_its_members_and_captain():
    players = PlayerFactory.create_batch(4)
    team = services.team_create(name="Kaszëbë", members=players, captain=players[2])
    assert set(team.members.all()) == set(players)
    assert team.captain == players[2]


@pytest.mark.parametrize("size", [3, 6])
def test_team_of_the_wrong_size_is_refused(size):
    with pytest.raises(ValidationError) as error:
        services.team_create(name="Za mała", members=PlayerFactory.create_batch(size))
    assert "members" in error.value.message_dict


def test_captain_must_be_a_member():
    with pytest.raises(ValidationError) as error:
        services.team_create(name="Bez kapitana", members=PlayerFactory.create_batch(4), captain=PlayerFactory())
    assert "captain" in error.value.message_dict


def test_player_of_an_active_team_cannot_join_a_second_active_team():
    taken = TeamFactory(members=4).captain
    with pytest.raises(ValidationError) as error:
        services.team_create(name="Druga", members=[taken, *PlayerFactory.create_batch(3)])
    assert str(taken) in error.value.message_dict["members"][0]


def test_player_of_an_active_team_may_join_an_inactive_team():
    taken = TeamFactory(members=4).captain
    team = services.team_create(name="Historyczna", members=[taken, *PlayerFactory.create_batch(3)], active=False)
    assert taken in team.members.all()


def test_updating_a_team_replaces_its_members():
    team = TeamFactory(members=5)
    kept = list(team.members.all())[:3]
    newcomer = PlayerFactory()
    services.team_update(
        team=team,
        user=UserFactory(is_superuser=True),
        name=team.name,
        members=[*kept, newcomer],
        captain=newcomer,
        club=team.club,
        active=True,
    )
    assert set(team.members.all()) == {*kept, newcomer}
    assert TeamMember.objects.count() == 4


def test_team_keeps_its_own_members_when_updated():
    """Its members are in an active team already (this one): that must not refuse them."""
    team = TeamFactory(members=4)
    memberships = set(team.memberships.values_list("pk", "player_id", "team_active"))
    captain = team.captain
    club = ClubFactory()
    services.team_update(
        team=team,
        user=UserFactory(is_superuser=True),
        name="Nowa nazwa",
        members=team.members.all(),
        captain=captain,
        club=club,
        active=True,
    )
    team.refresh_from_db()
    assert (team.name, team.club, team.captain) == ("Nowa nazwa", club, captain)
    # the very same membership rows, not deleted and made again
    assert set(team.memberships.values_list("pk", "player_id", "team_active")) == memberships
    assert len(memberships) == 4


def test_deactivating_a_team_frees_its_players():
    team = TeamFactory(members=4)
    services.team_update(
        team=team,
        user=UserFactory(is_superuser=True),
        name=team.name,
        members=team.members.all(),
        captain=team.captain,
        club=team.club,
        active=False,
    )
    assert services.team_create(name="Nowa", members=team.members.all())
