"""The registration list on the day (issue 12, "Registration on the day"): team changes, teams built
from individuals, unregistering, bulk ticks, the search that stays, and quick add without a default gender."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from league.models import Registration, TeamRanking
from league.standings.compute import tournament_standings
from league.tournaments import draws
from players import services as player_services
from players.models import Player, Team
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TeamFactory,
    UserFactory,
    played_series,
    register_teams,
)

pytestmark = pytest.mark.django_db


def url(name, tournament, *args):
    return reverse(f"tournaments:{name}", args=[tournament.slug, *args])


def messages_of(response) -> str:
    return " ".join(str(message) for message in response.wsgi_request._messages)


def query_of(response) -> dict:
    return parse_qs(urlsplit(response.url).query)


def team_row(tournament, team):
    return next(row for row in tournament_standings(tournament)["teams"] if row["pk"] == team.pk)


def individual_rows(tournament, players):
    pks = {player.pk for player in players}
    return [row for row in tournament_standings(tournament)["individual"] if row["pk"] in pks]


@pytest.fixture
def played(tournament):
    """A team of four and four individuals who played one series at two tables."""
    registrations = register_teams(tournament, teams=1, size=4, individuals=4)
    players = [registration.player for registration in registrations]
    points = (40, 20, -20, -40)
    tables = [list(zip(players[0::2], points, strict=True)), list(zip(players[1::2], points, strict=True))]
    played_series(tournament, 1, tables)
    return registrations


# --- a registration's team --------------------------------------------------------------


@pytest.mark.parametrize("ranking", [TeamRanking.SUM, TeamRanking.BEST])
def test_an_individual_moved_into_a_team_counts_in_its_team_ranking(client, tournament, played, ranking):
    tournament.team_ranking, tournament.team_best_of = ranking, 4
    tournament.save()
    team = played[0].team
    newcomer = played[4]

    response = client.post(url("registration_team", tournament, newcomer.pk), {"team": team.pk})

    assert response.status_code == 302
    newcomer.refresh_from_db()
    assert newcomer.team == team
    members = individual_rows(tournament, [r.player for r in played[:5]])
    counted = sorted((row["big_points"] for row in members), reverse=True)[: 4 if ranking == TeamRanking.BEST else 5]
    assert team_row(tournament, team)["big_points"] == sum(counted)


def test_a_team_player_can_be_made_an_individual_again(client, tournament, played):
    response = client.post(url("registration_team", tournament, played[0].pk), {"team": ""})
    assert response.status_code == 302
    played[0].refresh_from_db()
    assert played[0].team is None


def test_a_team_of_five_in_the_tournament_refuses_a_sixth_player(client, tournament):
    registrations = register_teams(tournament, teams=1, size=5, individuals=1)
    team, loner = registrations[0].team, registrations[-1]

    response = client.post(url("registration_team", tournament, loner.pk), {"team": team.pk})

    loner.refresh_from_db()
    assert loner.team is None
    assert f"{team.name} already has 5 players in this tournament" in messages_of(response)


def test_only_a_team_of_this_tournament_can_be_chosen(client, tournament):
    loner = RegistrationFactory(tournament=tournament)
    stranger = TeamFactory(members=4)
    response = client.post(url("registration_team", tournament, loner.pk), {"team": stranger.pk})
    loner.refresh_from_db()
    assert loner.team is None
    assert "Select a valid choice" in messages_of(response)


def test_a_move_names_the_series_where_the_player_already_sat_with_the_new_team(client, tournament, played):
    team, newcomer = played[0].team, played[4]  # at table 1 with two members of the team
    response = client.post(url("registration_team", tournament, newcomer.pk), {"team": team.pk})
    assert "already sat at a table with a member of" in messages_of(response)
    assert "series 1" in messages_of(response)


# --- a team built from registered individuals ---------------------------------------------


def test_an_organiser_builds_a_team_of_registered_individuals_that_the_team_ranking_counts(client, tournament, played):
    individuals = played[4:]
    club = ClubFactory()

    response = client.post(
        url("team_build", tournament),
        {"registrations": [r.pk for r in individuals], "name": "Gôscie z Pucka", "club": club.pk, "q": "kow"},
    )

    team = Team.objects.get(name="Gôscie z Pucka")
    assert query_of(response) == {"q": ["kow"]}
    assert set(team.members.all()) == {r.player for r in individuals}
    assert team.club == club
    assert set(tournament.registrations.filter(team=team)) == set(individuals)
    assert team_row(tournament, team)["big_points"] == sum(
        row["big_points"] for row in individual_rows(tournament, [r.player for r in individuals])
    )


def test_the_organiser_who_built_a_team_may_edit_it_and_another_organiser_may_not(client, tournament, organiser):
    individuals = register_teams(tournament, teams=0, individuals=4)
    client.post(url("team_build", tournament), {"registrations": [r.pk for r in individuals], "name": "Nowi"})
    team = Team.objects.get(name="Nowi")
    permissions = Permission.objects.filter(codename__in=["add_player", "change_player"])
    organiser.user_permissions.add(*permissions)
    stranger = UserFactory()
    stranger.user_permissions.add(*permissions)

    player_services.team_check_editable(team=team, user=organiser)
    with pytest.raises(PermissionDenied):
        player_services.team_check_editable(team=team, user=stranger)


def test_a_team_is_not_built_of_three_players(client, tournament):
    individuals = register_teams(tournament, teams=0, individuals=3)
    response = client.post(
        url("team_build", tournament), {"registrations": [r.pk for r in individuals], "name": "Trzy"}
    )
    assert not Team.objects.filter(name="Trzy").exists()
    assert "A team has 4 or 5 players; 3 were chosen." in messages_of(response)
    assert not tournament.registrations.exclude(team=None).exists()


def test_a_team_is_not_built_of_a_player_who_plays_for_a_team_here(client, tournament):
    registrations = register_teams(tournament, teams=1, size=4, individuals=3)
    chosen = registrations[-3:] + registrations[:1]
    response = client.post(url("team_build", tournament), {"registrations": [r.pk for r in chosen], "name": "Mix"})
    assert not Team.objects.filter(name="Mix").exists()
    assert f"already plays for {registrations[0].team.name} in this tournament" in messages_of(response)


def test_a_team_is_not_built_of_another_tournaments_registrations(client, tournament):
    mine = register_teams(tournament, teams=0, individuals=3)
    foreign = RegistrationFactory()
    client.post(url("team_build", tournament), {"registrations": [r.pk for r in [*mine, foreign]], "name": "Obcy"})
    assert not Team.objects.filter(name="Obcy").exists()


# --- unregistering ------------------------------------------------------------------------


def test_a_mistaken_registration_is_removed_before_the_draw(client, tournament):
    registration = RegistrationFactory(tournament=tournament)
    response = client.post(url("unregister", tournament, registration.pk), {"q": "kow", "confirmed": "1"})
    assert not Registration.objects.filter(pk=registration.pk).exists()
    assert Player.objects.filter(pk=registration.player_id).exists()
    assert query_of(response) == {"q": ["kow"]}


def test_removing_a_registration_asks_first_and_a_click_without_the_yes_removes_nothing(client, tournament):
    registration = RegistrationFactory(tournament=tournament)
    page = client.get(url("registrations", tournament), headers={"Accept-Language": "pl"}).content.decode()
    assert "Usunąć ten zapis z listy?" in page and "Tak, usuń zapis" in page
    response = client.post(url("unregister", tournament, registration.pk))
    assert Registration.objects.filter(pk=registration.pk).exists()
    assert "Nothing was removed" in messages_of(response)


def test_a_drawn_player_is_not_unregistered_but_told_to_withdraw(client, tournament):
    registrations = register_teams(tournament, teams=0, individuals=8)
    draws.series_draw(tournament=tournament, numbers=[1], seed=1)
    response = client.post(url("unregister", tournament, registrations[0].pk), {"confirmed": "1"})
    assert Registration.objects.filter(pk=registrations[0].pk).exists()
    assert "already drawn in series 1" in messages_of(response)
    assert "withdrew after series" in messages_of(response)


def test_a_late_arrival_not_yet_drawn_can_be_unregistered(client, tournament):
    register_teams(tournament, teams=0, individuals=8)
    draws.series_draw(tournament=tournament, numbers=[1], seed=1)
    player = PlayerFactory()
    late = client.post(url("register", tournament), {"player": player.pk})
    assert late.status_code == 302
    registration = tournament.registrations.get(player=player)
    assert registration.first_series == 1  # series 1 has no results yet: it is to be drawn again
    client.post(url("unregister", tournament, registration.pk), {"confirmed": "1"})
    assert not Registration.objects.filter(pk=registration.pk).exists()


# --- bulk ticks and the search that stays -------------------------------------------------------


@pytest.mark.parametrize("flag", ["checked_in", "fee_paid"])
def test_the_ticked_registrations_are_marked_at_once_and_only_they(client, tournament, flag):
    registrations = RegistrationFactory.create_batch(4, tournament=tournament, checked_in=False, fee_paid=False)
    foreign = RegistrationFactory(checked_in=False, fee_paid=False)
    chosen = [registrations[0].pk, registrations[2].pk]

    response = client.post(url("registrations_bulk", tournament), {"registrations": chosen, "flag": flag, "q": "kow"})

    assert set(tournament.registrations.filter(**{flag: True}).values_list("pk", flat=True)) == set(chosen)
    foreign.refresh_from_db()
    assert getattr(foreign, flag) is False
    assert query_of(response) == {"q": ["kow"]}


def test_a_bulk_tick_of_nobody_says_so(client, tournament):
    response = client.post(url("registrations_bulk", tournament), {"flag": "checked_in"})
    assert "Tick at least one player" in messages_of(response)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("register", lambda reg, other: {"player": other.pk}),
        ("check_in", lambda reg, other: {}),
        ("fee", lambda reg, other: {}),
        ("withdraw", lambda reg, other: {"after_series": "1"}),
        ("registration_team", lambda reg, other: {"team": ""}),
    ],
)
def test_every_action_of_the_list_comes_back_to_the_same_search(client, tournament, name, data):
    registration = RegistrationFactory(tournament=tournament)
    other = PlayerFactory()
    args = [] if name == "register" else [registration.pk]
    response = client.post(url(name, tournament, *args), {**data(registration, other), "q": "Kąkol"})
    assert query_of(response) == {"q": ["Kąkol"]}


def test_the_page_keeps_the_search_text_in_each_of_its_forms(client, tournament):
    RegistrationFactory(tournament=tournament)
    PlayerFactory(last_name="Kąkol")
    page = client.get(url("registrations", tournament), {"q": "kakol"}).text
    assert 'value="kakol"' in page
    forms = re.findall(r"<form method=\"post\".*?</form>", page, flags=re.S)
    assert forms and all('name="q" value="kakol"' in form for form in forms)


def test_the_registration_search_finds_a_name_without_polish_letters_with_its_club_and_team(client, tournament):
    team = TeamFactory(members=PlayerFactory.create_batch(4, last_name="Kąkol"))
    member = team.captain
    page = client.get(url("registrations", tournament), {"q": "kakol"}).text
    assert member.full_name in page
    assert member.club.name in page
    assert team.name in page


def test_a_search_without_polish_letters_leaves_out_the_registered(client, tournament):
    registered = RegistrationFactory(tournament=tournament, player__last_name="Pobłocki")
    unregistered = PlayerFactory(first_name="Jan", last_name="Pobłocka")
    page = client.get(
        url("registrations", tournament), {"q": "pobloc"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="search-results"
    ).text
    assert unregistered.full_name in page
    # not offered again, but said to be registered already (issue 25: not "no player matches")
    assert f'name="player" value="{registered.player.pk}"' not in page
    offered, said_registered = page.split("Already registered:")
    assert registered.player.full_name not in offered and registered.player.full_name in said_registered


# --- quick add ---------------------------------------------------------------------------


def test_quick_add_starts_with_no_gender_chosen(client, tournament):
    page = client.get(url("quick_add", tournament)).text
    select = re.search(r'<select name="gender".*?</select>', page, flags=re.S).group()
    assert re.search(r'<option value=""[^>]*selected', select)
    assert " required" in select
