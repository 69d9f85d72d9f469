import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from players.models import Player, Team
from tests.factories import PlayerFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    user = UserFactory()
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_player", "change_player"]))
    client.force_login(user)
    return client


@pytest.mark.parametrize("name", ["player_list", "player_add", "team_list", "team_add", "club_list", "import_upload"])
def test_anonymous_visitor_is_sent_to_login(client, name):
    response = client.get(reverse(f"players:{name}"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_user_without_permission_gets_403(client):
    client.force_login(UserFactory())
    assert client.get(reverse("players:player_list")).status_code == 403


def test_organiser_sees_the_player_list_filtered_by_name(organiser):
    PlayerFactory(first_name="Anna", last_name="Kowalska")
    PlayerFactory(first_name="Jan", last_name="Bork")
    response = organiser.get(reverse("players:player_list"), {"q": "kowal"})
    assert response.status_code == 200
    assert "Anna Kowalska" in response.text
    assert "Jan Bork" not in response.text


def test_organiser_adds_a_player(organiser):
    response = organiser.post(
        reverse("players:player_add"),
        {"first_name": "Anna", "last_name": "Kowalska", "gender": "F", "licence": "", "active": "on"},
    )
    assert response.status_code == 302
    assert Player.objects.get().full_name == "Anna Kowalska"


def test_organiser_edits_a_player(organiser):
    player = PlayerFactory(licence="")
    organiser.post(
        reverse("players:player_edit", args=[player.pk]),
        {"first_name": player.first_name, "last_name": "Nowak", "gender": "M", "licence": "L9"},
    )
    player.refresh_from_db()
    assert (player.last_name, player.licence, player.active) == ("Nowak", "L9", False)


def test_organiser_builds_a_team_and_sees_rule_errors(organiser):
    players = PlayerFactory.create_batch(4)
    ids = [p.pk for p in players]
    url = reverse("players:team_add")
    response = organiser.post(url, {"name": "Gryfy", "members": ids[:3], "captain": ids[0]})
    assert response.status_code == 200
    assert "4" in response.context["form"].errors["members"][0]
    response = organiser.post(url, {"name": "Gryfy", "members": ids, "captain": ids[0], "active": "on"})
    assert response.status_code == 302
    assert Team.objects.get().captain == players[0]


def test_search_returns_matching_players_as_json(organiser):
    PlayerFactory(first_name="Anna", last_name="Kowalska")
    PlayerFactory(first_name="Jan", last_name="Bork")
    response = organiser.get(reverse("players:search"), {"q": "anna kow"})
    assert [r["name"] for r in response.json()["results"]] == ["Anna Kowalska"]


def test_search_returns_member_rows_for_htmx(organiser):
    player = PlayerFactory(first_name="Anna", last_name="Kowalska")
    response = organiser.get(reverse("players:search"), {"q": "Anna"}, HTTP_HX_REQUEST="true")
    assert f'name="members" value="{player.pk}"' in response.text


def test_import_keeps_the_upload_between_preview_and_confirm(organiser):
    upload = SimpleUploadedFile("lista.csv", "imię;nazwisko;płeć\nAnna;Nowak;K\n".encode())
    response = organiser.post(reverse("players:import_upload"), {"file": upload, "update_existing": "on"})
    assert response.url == reverse("players:import_preview")
    preview = organiser.get(response.url)
    assert "Nowak" in preview.text and not Player.objects.exists()
    organiser.post(reverse("players:import_preview"))
    assert Player.objects.get().full_name == "Anna Nowak"


def test_import_with_errors_cannot_be_confirmed(organiser):
    upload = SimpleUploadedFile("lista.csv", b"imie,nazwisko,plec\nAnna,Nowak,Q\n")
    response = organiser.post(reverse("players:import_upload"), {"file": upload})
    assert "Confirm import" not in response.text
    organiser.post(reverse("players:import_preview"))
    assert not Player.objects.exists()


MIXED_LIST = (
    "imię;nazwisko;płeć;klub;drużyna\n"
    "Anna;Nowak;K;Gryf Kartuzy;Asy\nJan;Kos;Q;;\nEwa;Lis;K;Gryf Kartuzy;Asy\n"
    "Olga;Ryba;K;Gryf Kartuzy;Asy\nPiotr;Wrona;M;Gryf Kartuzy;Asy\n"
)


def test_the_preview_names_each_failing_row_and_marks_it(organiser):
    upload = SimpleUploadedFile("lista.csv", MIXED_LIST.encode())
    page = organiser.get(organiser.post(reverse("players:import_upload"), {"file": upload}).url).text
    assert '<a href="#row-3">Row 3</a>: Unknown gender “Q”; use K or M.' in page
    assert '<tr id="row-3" class="row-error">' in page and '<tr id="row-2">' in page
    assert "Import the rest, skip 1 row with errors" in page and "Confirm import" not in page


def test_importing_the_rest_saves_the_good_rows_and_says_what_it_created(organiser):
    upload = SimpleUploadedFile("lista.csv", MIXED_LIST.encode())
    organiser.post(reverse("players:import_upload"), {"file": upload})
    response = organiser.post(reverse("players:import_preview"), {"skip_errors": "on"}, follow=True)
    assert sorted(Player.objects.values_list("last_name", flat=True)) == ["Lis", "Nowak", "Ryba", "Wrona"]
    assert Team.objects.get().name == "Asy"
    [message] = [str(m) for m in response.context["messages"]]
    assert message == "Import finished: 4 added, 0 updated, 1 new club, 1 new team, 1 row with errors skipped."


def test_the_rest_is_imported_only_when_the_organiser_asks(organiser):
    upload = SimpleUploadedFile("lista.csv", MIXED_LIST.encode())
    organiser.post(reverse("players:import_upload"), {"file": upload})
    organiser.post(reverse("players:import_preview"))
    assert not Player.objects.exists()


def test_the_import_summary_reads_in_polish(organiser):
    upload = SimpleUploadedFile("lista.csv", MIXED_LIST.replace("Jan;Kos;Q", "Jan;Kos;M").encode())
    organiser.post(reverse("players:import_upload"), {"file": upload}, headers={"Accept-Language": "pl"})
    response = organiser.post(reverse("players:import_preview"), follow=True, headers={"Accept-Language": "pl"})
    [message] = [str(m) for m in response.context["messages"]]
    assert message == "Import zakończony: dodano 5, zaktualizowano 0, 1 nowy klub, 1 nowa drużyna."


def test_team_edit_page_shows_members_ticked_and_the_captain(organiser):
    team = TeamFactory(members=4)
    response = organiser.get(reverse("players:team_edit", args=[team.pk]))
    assert response.text.count('name="members"') == 4
    assert f'name="captain" value="{team.captain.pk}" checked' in response.text


def test_admin_refuses_a_team_with_too_few_members(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    team = TeamFactory(members=4)
    assert client.get(reverse("admin:players_team_change", args=[team.pk])).status_code == 200
    memberships = list(team.memberships.all())
    data = {
        "name": team.name,
        "club": team.club.pk,
        "captain": team.captain.pk,
        "active": "on",
        "memberships-TOTAL_FORMS": "4",
        "memberships-INITIAL_FORMS": "4",
        "memberships-MIN_NUM_FORMS": "4",
        "memberships-MAX_NUM_FORMS": "5",
    }
    for i, membership in enumerate(memberships):
        data |= {
            f"memberships-{i}-id": membership.pk,
            f"memberships-{i}-team": team.pk,
            f"memberships-{i}-player": membership.player.pk,
        }
    data["memberships-3-DELETE"] = "on"
    response = client.post(reverse("admin:players_team_change", args=[team.pk]), data)
    assert "A team has 4 or 5 players" in response.text
    assert team.memberships.count() == 4


@pytest.mark.parametrize("q", ["\x00", "Anna\x00", "a" * 101])
def test_a_search_for_a_nul_or_an_endless_text_answers_a_clear_message(organiser, q):
    PlayerFactory(first_name="Anna", last_name="Kowalska")
    response = organiser.get(reverse("players:search"), {"q": q})
    assert response.status_code == 400
    assert response.json()["results"] == []
    assert response.json()["error"]


def test_a_type_ahead_search_for_a_nul_shows_the_message_in_the_list(organiser):
    response = organiser.get(reverse("players:search"), {"q": "\x00"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Null characters are not allowed" in response.text


@pytest.mark.parametrize("q", ["\x00", "a " * 300])
def test_the_player_list_answers_a_nul_or_an_endless_search_with_a_form_error(organiser, q):
    PlayerFactory(first_name="Anna", last_name="Kowalska")
    response = organiser.get(reverse("players:player_list"), {"q": q})
    assert response.status_code == 200
    assert response.context["filter"].form.errors["q"]
