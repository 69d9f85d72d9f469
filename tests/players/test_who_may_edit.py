"""Who may change a player or a team of the one register all organisers share (issue 11, "also").

The attack: an organiser of tournament B renamed a player of A's published tournament and moved
her from the women's to the men's list. Then the lock-out (issue 37): once B registered A's
players in a tournament of B's own, A could no longer change them. The rule now (docs/register.md):
whoever added a player, and the organisers of every tournament and league the player plays in,
may change them; nothing one organiser does takes that right from another.
"""

import io

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from players import services
from players.importing import build_preview, read_rows
from players.models import Gender, Player
from tests.factories import LeagueFactory, RegistrationFactory, TeamFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def organiser_of(*tournaments):
    user = UserFactory()
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_player", "change_player"]))
    for tournament in tournaments:
        tournament.organisers.add(user)
    return user


@pytest.fixture
def tournament_a():
    return TournamentFactory(draw_published=True)


@pytest.fixture
def player_of_a(tournament_a):
    return RegistrationFactory(
        tournament=tournament_a, player__first_name="Anna", player__last_name="Nowak", player__gender=Gender.WOMAN
    ).player


def rename_as(client, user, player, **changes):
    client.force_login(user)
    data = {"first_name": player.first_name, "last_name": player.last_name, "gender": player.gender, "active": "on"}
    return client.post(reverse("players:player_edit", args=[player.pk]), data | changes)


def test_an_organiser_cannot_rename_a_player_of_another_organisers_tournament(client, player_of_a):
    intruder = organiser_of(TournamentFactory())
    response = rename_as(client, intruder, player_of_a, last_name="Obraźliwe", gender=Gender.MAN)
    assert response.status_code == 403
    assert "a tournament or league you organise" in response.text
    player_of_a.refresh_from_db()
    assert (player_of_a.last_name, player_of_a.gender) == ("Nowak", Gender.WOMAN)


def test_the_refused_edit_form_is_not_even_shown(client, player_of_a):
    client.force_login(organiser_of(TournamentFactory()))
    response = client.get(reverse("players:player_edit", args=[player_of_a.pk]))
    assert response.status_code == 403
    assert 'name="last_name"' not in response.text


def test_the_refusal_is_explained_in_polish(client, player_of_a):
    client.force_login(organiser_of(TournamentFactory()))
    response = client.get(reverse("players:player_edit", args=[player_of_a.pk]), HTTP_ACCEPT_LANGUAGE="pl")
    assert "organizujesz" in response.text


def test_the_organiser_of_the_tournament_renames_its_player(client, tournament_a, player_of_a):
    response = rename_as(client, organiser_of(tournament_a), player_of_a, last_name="Nowakowska")
    assert response.status_code == 302
    player_of_a.refresh_from_db()
    assert player_of_a.last_name == "Nowakowska"


def test_registering_someone_elses_player_locks_nobody_out_of_them(client, tournament_a, player_of_a):
    """Organiser B registered A's player in B's own tournament: A got 403 on every one of them."""
    a = organiser_of(tournament_a)
    own = TournamentFactory()
    RegistrationFactory(tournament=own, player=player_of_a)
    organiser_of(own)
    assert rename_as(client, a, player_of_a, last_name="Nowakowska").status_code == 302
    assert client.get(reverse("players:player_merge", args=[player_of_a.pk])).status_code == 200
    player_of_a.refresh_from_db()
    assert player_of_a.last_name == "Nowakowska"


def test_a_player_who_plays_in_two_leagues_is_changed_by_the_organisers_of_each(client, player_of_a):
    other = TournamentFactory(league=LeagueFactory())
    RegistrationFactory(tournament=other, player=player_of_a)
    league_organiser = organiser_of()
    other.league.organisers.add(league_organiser)
    assert rename_as(client, league_organiser, player_of_a, last_name="Nowakowska").status_code == 302


def test_the_author_of_a_player_keeps_them_once_another_organiser_registers_them(client):
    author = organiser_of()
    player = Player.objects.create(first_name="Ola", last_name="Treder", gender=Gender.WOMAN, created_by=author)
    RegistrationFactory(tournament=TournamentFactory(), player=player)
    assert rename_as(client, author, player, last_name="Trederówna").status_code == 302


def test_a_superuser_renames_any_player(client, player_of_a):
    response = rename_as(client, UserFactory(is_superuser=True), player_of_a, last_name="Nowakowska")
    assert response.status_code == 302


def test_a_new_player_is_changed_only_by_the_organiser_who_added_them(client):
    author, other = organiser_of(), organiser_of()
    client.force_login(author)
    client.post(reverse("players:player_add"), {"first_name": "Ola", "last_name": "Treder", "gender": "F"})
    player = Player.objects.get()
    assert rename_as(client, other, player, last_name="Obraźliwe").status_code == 403
    assert rename_as(client, author, player, last_name="Trederówna").status_code == 302
    player.refresh_from_db()
    assert player.last_name == "Trederówna"


def test_the_service_refuses_the_change_whoever_calls_it(player_of_a):
    intruder = organiser_of(TournamentFactory())
    with pytest.raises(PermissionDenied):
        services.player_update(
            player=player_of_a,
            user=intruder,
            first_name="X",
            last_name="Y",
            gender=Gender.MAN,
            club=None,
            licence="",
            active=True,
        )
    player_of_a.refresh_from_db()
    assert player_of_a.last_name == "Nowak"


def test_an_organiser_cannot_rename_a_team_of_another_organisers_tournament(client, tournament_a):
    team = TeamFactory(members=4)
    for member in team.members.all():
        RegistrationFactory(tournament=tournament_a, player=member, team=team)
    client.force_login(organiser_of(TournamentFactory()))
    members = list(team.members.values_list("pk", flat=True))
    data = {"name": "Obraźliwa", "members": members, "captain": members[0], "active": "on"}
    response = client.post(reverse("players:team_edit", args=[team.pk]), data)
    assert response.status_code == 403
    team.refresh_from_db()
    assert team.name != "Obraźliwa"


def test_the_organiser_of_the_tournament_renames_its_team(client, tournament_a):
    team = TeamFactory(members=4)
    for member in team.members.all():
        RegistrationFactory(tournament=tournament_a, player=member, team=team)
    client.force_login(organiser_of(tournament_a))
    members = list(team.members.values_list("pk", flat=True))
    data = {"name": "Gryfy", "members": members, "captain": members[0], "active": "on"}
    assert client.post(reverse("players:team_edit", args=[team.pk]), data).status_code == 302
    team.refresh_from_db()
    assert team.name == "Gryfy"


def test_an_import_cannot_change_a_player_of_another_organisers_tournament(player_of_a):
    intruder = organiser_of(TournamentFactory())
    rows = read_rows(io.BytesIO("imię;nazwisko;płeć\nAnna;Nowak;M\n".encode()), "lista.csv")
    preview = build_preview(rows, user=intruder)
    assert not preview.can_confirm
    assert "a tournament or league you organise" in preview.rows[0].errors[0]


def test_an_import_may_name_another_organisers_player_without_changing_them(player_of_a):
    intruder = organiser_of(TournamentFactory())
    rows = read_rows(io.BytesIO("imię;nazwisko;płeć\nAnna;Nowak;K\n".encode()), "lista.csv")
    assert build_preview(rows, user=intruder).can_confirm


def test_an_import_cannot_add_players_to_a_team_of_another_organisers_tournament(tournament_a):
    team = TeamFactory(members=4, name="Gryfy")
    for member in team.members.all():
        RegistrationFactory(tournament=tournament_a, player=member, team=team)
    rows = read_rows(io.BytesIO("imię;nazwisko;płeć;drużyna\nOla;Treder;K;Gryfy\n".encode()), "lista.csv")
    preview = build_preview(rows, user=organiser_of(TournamentFactory()))
    assert not preview.can_confirm
    assert any("Gryfy" in error for error in preview.rows[0].errors)


def test_a_player_in_no_tournament_with_no_recorded_author_is_open_to_every_organiser(client):
    """Players added before authors were recorded (or by the demo): no tournament's pages show them."""
    player = Player.objects.create(first_name="Ola", last_name="Treder", gender=Gender.WOMAN)
    assert rename_as(client, organiser_of(), player, last_name="Trederówna").status_code == 302


def test_a_user_without_the_change_permission_changes_nobody(client):
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_player"))
    player = Player.objects.create(first_name="Ola", last_name="Treder", gender=Gender.WOMAN, created_by=user)
    with pytest.raises(PermissionDenied):
        services.player_check_editable(player=player, user=user)
