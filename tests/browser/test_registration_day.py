"""In a real browser at 390 px: the organiser checks players in at the door on a phone (issue 12)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from tests.browser.conftest import fits_the_screen
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory, register_teams

pytestmark = pytest.mark.django_db(transaction=True)

# A thumb's tap target, as the platforms' guidelines give it (44 CSS px).
TAP = 44


@pytest.mark.parametrize("page", ["phone"], indirect=True)
def test_the_organiser_checks_players_in_at_the_door_on_a_phone(page, live_server):
    organiser = UserFactory(username="organizator")
    organiser.set_password("haslo-organizatora")
    organiser.save()
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    tournament = TournamentFactory(series_count=3)
    tournament.organisers.add(organiser)
    register_teams(tournament, teams=2, size=4)
    tournament.registrations.update(checked_in=False)
    kakol = RegistrationFactory(
        tournament=tournament, checked_in=False, player__first_name="Żaneta", player__last_name="Kąkol"
    )
    first, second = tournament.registrations.exclude(pk=kakol.pk).select_related("player")[:2]
    PlayerFactory(first_name="Jan", last_name="Pobłocki")
    url = reverse("tournaments:registrations", args=[tournament.slug])

    page.goto(live_server.url + reverse("login") + "?next=" + url)
    page.locator("#id_username").fill("organizator")
    page.locator("#id_password").fill("haslo-organizatora")
    page.locator("#id_password").press("Enter")
    assert fits_the_screen(page)

    page.locator("#id_q").fill("poblocki")  # a phone's keyboard without Polish letters
    found = page.locator("#search-results")
    found.get_by_text("Jan Pobłocki").wait_for()

    row = page.locator("table.day tr", has_text="Żaneta Kąkol")
    door = row.get_by_role("button", name="nieobecny")
    assert door.bounding_box()["height"] >= TAP
    door.click()
    row.get_by_role("button", name="✓ obecny").wait_for()

    for registration in (first, second):
        page.get_by_label(f"Zaznacz: {registration.player.full_name}").check()
    page.get_by_role("button", name="✓ Zaznaczeni obecni").click()
    page.wait_for_url(re.compile(r"\?q=poblocki$"))

    assert set(tournament.registrations.filter(checked_in=True)) == {kakol, first, second}
    assert page.locator("#id_q").input_value() == "poblocki"
    assert found.get_by_text("Jan Pobłocki").is_visible()
    assert fits_the_screen(page)
