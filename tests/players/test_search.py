"""Finding players without Polish letters (issue 12, "Registration on the day").

The attack: an organiser at the door types "kakol" on a phone without Polish letters, finds
nobody, and adds Kąkol a second time. Every search of players now compares names with the
diacritics taken off (and ł, which Unicode does not decompose, read as l).
"""

import importlib

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.urls import reverse

from players import services
from players.models import Gender, Player
from tests.factories import PlayerFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db

MIGRATION = ("players", "0003_player_search_name")


@pytest.fixture
def kakol():
    return PlayerFactory(first_name="Żaneta", last_name="Kąkol")


@pytest.fixture
def poblocki():
    return PlayerFactory(first_name="Łukasz", last_name="Pobłocki")


@pytest.fixture
def player_manager(client):
    user = UserFactory()
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_player", "change_player"]))
    client.force_login(user)
    return user


@pytest.mark.parametrize(
    ("typed", "found"),
    [("kakol", "kakol"), ("poblocki", "poblocki"), ("lukasz", "poblocki"), ("ZANETA kak", "kakol"), ("Kąkol", "kakol")],
)
def test_a_name_typed_without_polish_letters_finds_the_player(typed, found, request, kakol, poblocki):
    assert list(Player.objects.search(typed)) == [request.getfixturevalue(found)]


def test_a_renamed_player_is_found_by_the_new_name(kakol):
    services.player_update(
        player=kakol,
        user=UserFactory(is_superuser=True),
        first_name="Żaneta",
        last_name="Błaszczyk",
        gender=Gender.WOMAN,
        club=None,
        licence="",
        active=True,
    )
    assert list(Player.objects.search("blaszczyk")) == [kakol]
    assert not Player.objects.search("kakol").exists()


def test_players_added_in_bulk_by_the_importer_are_found_without_polish_letters():
    services.player_bulk_create(
        players=[Player(first_name="Michał", last_name="Ślęzak", gender=Gender.MAN)], created_by=None
    )
    assert Player.objects.search("slezak michal").get().last_name == "Ślęzak"


def test_players_renamed_in_bulk_by_the_importer_are_found_by_the_new_name(kakol):
    kakol.last_name = "Wróbel"
    services.player_bulk_update(players=[kakol], user=UserFactory(is_superuser=True), fields=["last_name"])
    assert list(Player.objects.search("wrobel")) == [kakol]


def test_the_player_list_finds_a_name_typed_without_polish_letters(client, player_manager, kakol, poblocki):
    response = client.get(reverse("players:player_list"), {"q": "poblocki"})
    assert "Pobłocki" in response.text
    assert "Kąkol" not in response.text


def test_the_type_ahead_finds_a_name_typed_without_polish_letters(client, player_manager, kakol, poblocki):
    response = client.get(reverse("players:search"), {"q": "kakol"})
    assert [row["name"] for row in response.json()["results"]] == ["Żaneta Kąkol"]


def test_a_search_names_each_players_current_team():
    team = TeamFactory(members=4)
    loner = PlayerFactory()
    found = {player.pk: player.team_name for player in Player.objects.search("").with_current_team()}
    assert found[team.captain_id] == team.name
    assert found[loner.pk] is None


def test_the_migration_fills_the_search_names_of_players_already_on_file(kakol, poblocki):
    Player.objects.update(search_name="")
    apps = MigrationLoader(connection).project_state(MIGRATION).apps
    importlib.import_module("players.migrations." + MIGRATION[1]).fill_search_names(apps, None)
    assert list(Player.objects.search("poblocki")) == [poblocki]
    assert list(Player.objects.search("kakol")) == [kakol]


def test_the_type_ahead_names_each_players_club_and_team(client):
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_player"))
    client.force_login(user)
    team = TeamFactory(name="Kaszëbë Puck", members=1)
    player = team.memberships.get().player

    found = client.get(reverse("players:search"), {"q": player.last_name}).json()["results"]

    assert [(row["id"], row["team"]) for row in found] == [(player.pk, "Kaszëbë Puck")]
