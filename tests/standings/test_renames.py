"""A renamed player, team or club, or a player whose gender was corrected, is shown so at once
on every public page of standings: the register's services give every tournament the player,
team or club is shown in a new stamp (an offensive name can be taken down)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Tournament
from league.standings.cache import stamps
from league.tournaments.registrations import registration_team_change
from players.models import Club, Gender
from players.services import club_update, player_update, team_update
from tests.factories import UserFactory
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db

NEW_NAME = "Przemianowany"
REGISTER_FIELDS = ("first_name", "last_name", "gender", "club", "licence", "active")


@pytest.fixture
def tournament():
    return league_tournament(tables=2, series=2)


@pytest.fixture
def player(tournament):
    return tournament.registrations.order_by("pk").first().player


def changed(player, **fields) -> None:
    """``player`` changed on the register's screen by a superuser."""
    fields = {name: fields.get(name, getattr(player, name)) for name in REGISTER_FIELDS}
    player_update(player=player, user=UserFactory(is_superuser=True), **fields)


def standings(client, tournament) -> str:
    return client.get(reverse("public:standings", args=[tournament.slug])).content.decode()


def test_a_renamed_player_is_shown_renamed_at_once_to_spectators(client, tournament, player):
    old_name = player.last_name
    assert old_name in standings(client, tournament)  # the page is kept ready now

    changed(player, last_name=NEW_NAME)

    page = standings(client, tournament)
    assert NEW_NAME in page and old_name not in page


def test_a_renamed_player_is_shown_renamed_at_once_to_a_logged_in_visitor(client, tournament, player):
    client.force_login(UserFactory())
    standings(client, tournament)

    changed(player, last_name=NEW_NAME)

    assert NEW_NAME in standings(client, tournament)


def test_a_renamed_team_is_shown_renamed_at_once(client, tournament, player):
    team = tournament.registrations.get(player=player).team
    standings(client, tournament)

    members = [member.player for member in team.memberships.all()]
    team_update(
        team=team,
        user=UserFactory(is_superuser=True),
        name="Drużyna Przemianowana",
        members=members,
        captain=team.captain,
        club=team.club,
        active=team.active,
    )

    assert "Drużyna Przemianowana" in standings(client, tournament)


def initialled_in_a_club(player) -> Club:
    """``player`` appearing by initials, in a club of their own: the standings name the club beside them."""
    club = Club.objects.create(name="Gryf Wejherowo")
    changed(player, club=club)
    player.public_initials = True
    player.save(update_fields=["public_initials"])
    return club


def test_a_renamed_club_is_shown_renamed_at_once_beside_its_players(client, tournament, player):
    """Issue 40: a club's rename moved no stamp, so the standings named the old club until the next change."""
    club = initialled_in_a_club(player)
    assert "Gryf Wejherowo" in standings(client, tournament)  # the page is kept ready now

    club_update(club=club, name="Gryf Puck")

    page = standings(client, tournament)
    assert "Gryf Puck" in page and "Gryf Wejherowo" not in page


def test_a_club_renamed_in_the_admin_is_shown_renamed_at_once(client, tournament, player):
    club = initialled_in_a_club(player)
    standings(client, tournament)
    admin = Client()
    admin.force_login(UserFactory(is_superuser=True, is_staff=True))

    saved = admin.post(reverse("admin:players_club_change", args=[club.pk]), {"name": "Gryf Puck", "city": ""})

    assert saved.status_code == 302
    assert "Gryf Puck" in standings(client, tournament)


def test_a_renamed_club_moves_the_stamps_of_its_teams_tournaments_too(tournament, player):
    team = tournament.registrations.get(player=player).team
    club = Club.objects.create(name="Kaszuby Kartuzy")
    team.club = club
    team.save(update_fields=["club"])
    before = stamps(Tournament.objects.filter(pk=tournament.pk))

    club_update(club=club, name="Kaszuby Kościerzyna")

    assert stamps(Tournament.objects.filter(pk=tournament.pk)) != before


def test_a_corrected_gender_moves_the_player_to_the_other_list_at_once(client, tournament, player):
    url = reverse("public:api_standings", args=[tournament.slug])
    assert player.gender == Gender.MAN
    assert player.full_name not in [row["name"] for row in client.get(url).json()["women"]]

    changed(player, gender=Gender.WOMAN)

    assert player.full_name in [row["name"] for row in client.get(url).json()["women"]]


def test_a_renamed_player_is_shown_renamed_at_once_on_the_projector_and_the_season_table(client, tournament, player):
    projector = reverse("public:projector", args=[tournament.slug])
    season = reverse("public:season", args=[tournament.season.slug])
    client.get(projector), client.get(season)

    changed(player, last_name=NEW_NAME)

    assert NEW_NAME in client.get(projector).content.decode()
    assert NEW_NAME in client.get(season).content.decode()


def test_two_players_trading_teams_change_the_team_standings_at_once(tournament):
    """A swap in two moves leaves the sum of team ids as it was; the stamp must still move."""
    first, second = list(tournament.registrations.exclude(team=None).order_by("team_id", "pk"))[::4][:2]
    before = stamps(Tournament.objects.filter(pk=tournament.pk))
    first_team, second_team = first.team_id, second.team_id
    registration_team_change(registration=first, team=second.team)
    registration_team_change(registration=second, team=first.team)

    assert first_team != second_team
    assert stamps(Tournament.objects.filter(pk=tournament.pk)) != before
