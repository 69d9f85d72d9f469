"""Probable duplicates (issue 25, "one clean register"): quick add, the player form and the list
import look for the person in the register before adding them, folding Polish letters in Python
(SQLite's LOWER() leaves Ż, Ś and Ł alone), and let the organiser pick the existing entry."""

import io

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from players.importing import Action, build_preview, player_import, read_rows
from players.models import Player
from players.selectors import player_probable_duplicates
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def names(players) -> list[str]:
    return [player.full_name for player in players]


# --- the selector -----------------------------------------------------------------------------


def test_the_same_name_without_diacritics_or_in_other_case_is_a_probable_duplicate():
    PlayerFactory(first_name="Żaneta", last_name="Łęcka-Świątek")
    PlayerFactory(first_name="Żaneta", last_name="Łęcka")  # another person: another last name

    assert names(player_probable_duplicates(first_name="ZANETA", last_name="lecka-swiatek")) == ["Żaneta Łęcka-Świątek"]
    assert names(player_probable_duplicates(first_name="Żaneta", last_name="Świątek")) == []


def test_the_same_last_name_and_first_letter_in_the_same_club_is_a_probable_duplicate():
    gryf, puck = ClubFactory(name="Gryf"), ClubFactory(name="GKS Puck")
    PlayerFactory(first_name="Józef", last_name="Recław", club=gryf)

    assert names(player_probable_duplicates(first_name="Józek", last_name="Reclaw", club=gryf)) == ["Józef Recław"]
    assert player_probable_duplicates(first_name="Józek", last_name="Recław", club=puck) == []
    assert player_probable_duplicates(first_name="Karol", last_name="Recław", club=gryf) == []


def test_candidates_come_with_their_tournaments_and_last_appearance_in_polish_order():
    earlier, later = TournamentFactory(date="2026-01-10"), TournamentFactory(date="2026-03-14")
    played = PlayerFactory(first_name="Ewa", last_name="Żak")
    RegistrationFactory(tournament=earlier, player=played)
    RegistrationFactory(tournament=later, player=played)
    PlayerFactory(first_name="Ewa", last_name="Zak")

    first, second = player_probable_duplicates(first_name="ewa", last_name="ZAK")

    assert (first.full_name, first.tournament_count, first.last_appearance) == ("Ewa Zak", 0, None)
    assert (second.full_name, second.tournament_count, str(second.last_appearance)) == ("Ewa Żak", 2, "2026-03-14")


def test_a_tournament_still_to_come_is_the_next_appearance_not_the_last():
    """Issue 41: the warning said "ostatni turniej 09.01.2027" of a tournament not yet played."""
    from datetime import timedelta

    from django.template.loader import render_to_string
    from django.utils import timezone, translation

    today = timezone.localdate()
    player = PlayerFactory(first_name="Ewa", last_name="Żak")
    RegistrationFactory(tournament=TournamentFactory(date=today - timedelta(days=30)), player=player)
    RegistrationFactory(tournament=TournamentFactory(date=today + timedelta(days=33)), player=player)

    (candidate,) = player_probable_duplicates(first_name="Ewa", last_name="Żak")

    assert candidate.last_appearance == today - timedelta(days=30)
    assert candidate.next_appearance == today + timedelta(days=33)
    with translation.override("pl"):
        text = render_to_string("players/_candidate.html", {"candidate": candidate})
    assert f"najbliższy turniej {(today + timedelta(days=33)):%d.%m.%Y}" in text
    assert f"ostatni turniej {(today - timedelta(days=30)):%d.%m.%Y}" in text


# --- quick add --------------------------------------------------------------------------------


@pytest.fixture
def tournament_of(client):
    user = UserFactory()
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_tournament", "change_player"]))
    client.force_login(user)
    tournament = TournamentFactory()
    tournament.organisers.add(user)
    return tournament


def test_quick_add_shows_the_probable_duplicate_and_adds_nobody_until_told_it_is_another_person(client, tournament_of):
    existing = PlayerFactory(first_name="Łucja", last_name="Żmuda", club=ClubFactory(name="Gryf Kartuzy"))
    url = reverse("tournaments:quick_add", args=[tournament_of.slug])
    typed = {"first_name": "Lucja", "last_name": "Zmuda", "gender": "F"}

    page = client.post(url, typed).content.decode()

    assert Player.objects.count() == 1 and not tournament_of.registrations.exists()
    assert "Łucja Żmuda" in page and "Gryf Kartuzy" in page and "Register the existing player" in page
    assert f'name="player" value="{existing.pk}"' in page

    response = client.post(url, typed | {"different_person": "on"})

    assert response.status_code == 302
    assert tournament_of.registrations.get().player.full_name == "Lucja Zmuda"


def test_the_existing_player_picked_on_quick_add_is_registered(client, tournament_of):
    existing = PlayerFactory(first_name="Łucja", last_name="Żmuda")
    client.post(reverse("tournaments:register", args=[tournament_of.slug]), {"player": existing.pk})
    assert tournament_of.registrations.get().player == existing


def test_a_probable_duplicate_registered_already_is_said_to_be(client, tournament_of):
    RegistrationFactory(tournament=tournament_of, player__first_name="Łucja", player__last_name="Żmuda")
    url = reverse("tournaments:quick_add", args=[tournament_of.slug])
    page = client.post(url, {"first_name": "Łucja", "last_name": "Żmuda", "gender": "F"}).content.decode()
    assert "already registered" in page and "Register the existing player" not in page


def test_the_registration_search_says_a_registered_player_is_registered_rather_than_unknown(client, tournament_of):
    RegistrationFactory(tournament=tournament_of, player__first_name="Anna", player__last_name="Kowalska")

    page = client.get(reverse("tournaments:registrations", args=[tournament_of.slug]), {"q": "kowalska"})

    assert "Already registered:" in page.content.decode()
    assert "No known player matches." not in page.content.decode()


# --- the player form --------------------------------------------------------------------------


def test_the_player_form_adds_a_probable_duplicate_only_when_told_it_is_another_person(client):
    user = UserFactory()
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_player", "change_player"]))
    client.force_login(user)
    existing = PlayerFactory(first_name="Ścibor", last_name="Ślązak")
    typed = {"first_name": "Scibor", "last_name": "SLAZAK", "gender": "M", "active": "on"}

    page = client.post(reverse("players:player_add"), typed).content.decode()
    assert Player.objects.count() == 1
    assert reverse("players:player_edit", args=[existing.pk]) in page

    client.post(reverse("players:player_add"), typed | {"different_person": "on"})
    assert Player.objects.count() == 2


# --- the import -------------------------------------------------------------------------------


def preview_of(text: str, **options):
    rows = read_rows(io.BytesIO(text.encode()), "lista.csv")
    return build_preview(rows, user=UserFactory(is_superuser=True), **options)


@pytest.mark.parametrize("typed", ["ŻANETA ŚLĄZAK", "żaneta ślązak", "Żaneta Ślązak"])
def test_the_import_matches_a_name_in_any_case_of_polish_capitals(typed):
    """SQLite's LOWER() (iexact) would have missed these, and added Żaneta a second time."""
    existing = PlayerFactory(first_name="Żaneta", last_name="Ślązak", gender="F")
    first, last = typed.split()

    [row] = preview_of(f"imię;nazwisko;płeć\n{first};{last};K\n", update_existing=False).rows

    assert (row.player, row.action, row.duplicates) == (existing, Action.SKIP, [])


def test_the_import_waits_for_a_choice_on_a_probable_duplicate_and_uses_the_player_picked():
    existing = PlayerFactory(first_name="Łukasz", last_name="Żółtowski", gender="M")
    text = "imię;nazwisko;płeć\nLukasz;Zoltowski;M\n"

    [row] = preview_of(text).rows
    assert (row.action, row.duplicates, row.undecided) == (Action.CREATE, [existing], True)
    with pytest.raises(Exception, match="probable duplicate"):
        player_import(preview=preview_of(text), user=UserFactory(is_superuser=True))
    assert Player.objects.count() == 1

    picked = preview_of(text, choices={2: existing.pk})
    player_import(preview=picked, user=UserFactory(is_superuser=True))
    assert names(Player.objects.all()) == ["Łukasz Żółtowski"]  # the register's spelling stays

    other = preview_of(text, choices={2: None})
    player_import(preview=other, user=UserFactory(is_superuser=True))
    assert sorted(names(Player.objects.all())) == ["Lukasz Zoltowski", "Łukasz Żółtowski"]


def test_the_import_preview_page_offers_the_candidates_and_takes_the_choice(client):
    user = UserFactory(is_superuser=True)
    client.force_login(user)
    existing = PlayerFactory(first_name="Łukasz", last_name="Żółtowski", gender="M")
    upload = io.BytesIO("imię;nazwisko;płeć\nLukasz;Zoltowski;M\n".encode())
    upload.name = "lista.csv"
    client.post(reverse("players:import_upload"), {"file": upload, "update_existing": "on"})

    page = client.get(reverse("players:import_preview")).content.decode()
    assert f'name="duplicate-2" value="{existing.pk}"' in page

    client.post(reverse("players:import_preview"), {"duplicate-2": str(existing.pk)})
    assert Player.objects.count() == 1


def test_an_inactive_probable_duplicate_is_shown_with_a_way_to_its_entry_rather_than_registered(client, tournament_of):
    retired = PlayerFactory(first_name="Łucja", last_name="Żmuda", active=False)
    url = reverse("tournaments:quick_add", args=[tournament_of.slug])
    page = client.post(url, {"first_name": "Lucja", "last_name": "Zmuda", "gender": "F"}).content.decode()
    assert "inactive" in page and reverse("players:player_edit", args=[retired.pk]) in page
    assert f'name="player" value="{retired.pk}"' not in page


def test_the_import_looks_for_duplicates_of_a_whole_list_in_a_few_queries(django_assert_max_num_queries):
    club = ClubFactory(name="Gryf")
    PlayerFactory.create_batch(30, club=club)
    lines = "".join(f"Jan;Nowak{number};M;Gryf\n" for number in range(300))
    rows = read_rows(io.BytesIO(f"imię;nazwisko;płeć;klub\n{lines}".encode()), "lista.csv")
    user = UserFactory(is_superuser=True)

    with django_assert_max_num_queries(8):
        preview = build_preview(rows, user=user)

    assert [row.action for row in preview.rows] == [Action.CREATE] * 300
