"""In a real browser at 1366 and 390 px (issue 25, "one clean register"): quick add warns that the
newcomer is probably in the register already and registers the existing player instead, and the
organiser merges a player entered twice from the player's page. Every page visited passes axe-core."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

from league.models import Registration
from players.models import Player, PlayerRemoval
from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import ClubFactory, RegistrationFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-register")
PASSWORD = "haslo-organizatora"


def organiser(*tournaments):
    """An account with the rights the demo's organisers have, organising ``tournaments``."""
    user = UserFactory(username="organizator")
    user.set_password(PASSWORD)
    user.save()
    group, _ = Group.objects.get_or_create(name="Organizatorzy")
    group.permissions.set(
        Permission.objects.filter(content_type__app_label__in=["players", "league", "results", "printing"])
    )
    user.groups.add(group)
    for tournament in tournaments:
        tournament.organisers.add(user)
    return user


def log_in(page, live_server, next_url: str) -> None:
    page.goto(live_server.url + reverse("login") + "?next=" + next_url)
    page.locator("#id_username").fill("organizator")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Zaloguj").click()
    page.wait_for_url(f"**{next_url}")


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    width = page.viewport_size["width"]
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)


def test_quick_add_warns_of_a_probable_duplicate_and_registers_the_existing_player(page, live_server):
    earlier, tonight = TournamentFactory(date="2026-02-14"), TournamentFactory(date="2026-03-14")
    existing = RegistrationFactory(
        tournament=earlier,
        player__first_name="Łucja",
        player__last_name="Żmuda",
        player__club=ClubFactory(name="Gryf Kartuzy"),
    ).player
    organiser(tonight)
    quick_add = reverse("tournaments:quick_add", args=[tonight.slug])
    log_in(page, live_server, quick_add)

    # typed on a phone's keyboard without Polish letters
    page.locator("#id_first_name").fill("Lucja")
    page.locator("#id_last_name").fill("Zmuda")
    page.locator("#id_gender").select_option("F")
    page.get_by_role("button", name="Dodaj i zgłoś").click()

    warning = page.locator("section.msg.warning")
    warning.get_by_text("Łucja Żmuda").wait_for()
    assert "Gryf Kartuzy" in warning.inner_text() and "1 turniej" in warning.inner_text()
    assert fits_the_screen(page)
    accessible(page)
    shot(page, "quick-add-duplicate")
    assert Player.objects.count() == 1

    warning.get_by_role("button", name="Zgłoś istniejącego").click()
    page.wait_for_url(f"**{reverse('tournaments:registrations', args=[tonight.slug])}")

    assert list(tonight.registrations.values_list("player", flat=True)) == [existing.pk]
    assert Player.objects.count() == 1
    assert page.locator("table.day").get_by_text("Łucja Żmuda").is_visible()
    assert fits_the_screen(page)
    accessible(page)


def test_the_organiser_merges_a_player_entered_twice_from_the_player_page(page, live_server):
    february, march = TournamentFactory(date="2026-02-14"), TournamentFactory(date="2026-03-14", name="Puchar Wójta")
    kept = RegistrationFactory(tournament=february, player__first_name="Józef", player__last_name="Recław").player
    twice = RegistrationFactory(tournament=march, player__first_name="Jozef", player__last_name="Reclaw").player
    organiser(february, march)
    player_page = reverse("players:player_edit", args=[kept.pk])
    log_in(page, live_server, player_page)

    page.get_by_role("link", name="Scal z innym zawodnikiem").click()
    page.locator("#id_q").fill("reclaw")
    page.get_by_role("button", name="Szukaj").click()
    page.locator("ul.candidates li", has_text="Jozef Reclaw").get_by_role("link", name="Wybierz").click()

    preview = page.locator("section.card")
    preview.get_by_text("Puchar Wójta").wait_for()
    assert "Zgłoszenia: 1" in preview.inner_text()
    assert fits_the_screen(page)
    accessible(page)
    shot(page, "merge-preview")

    page.get_by_label("dlaczego to jedna osoba").fill("Wpisany dwa razy, bez polskich liter")
    page.get_by_role("button", name="Scal", exact=True).click()
    page.wait_for_url(f"**{player_page}")

    assert page.get_by_text("Scalono: Jozef Reclaw → Józef Recław.").is_visible()
    assert set(Registration.objects.values_list("player", flat=True)) == {kept.pk}
    assert not Player.objects.filter(pk=twice.pk).exists()
    assert PlayerRemoval.objects.get().reason == "Wpisany dwa razy, bez polskich liter"
    assert fits_the_screen(page)
    accessible(page)
    shot(page, "merged")
