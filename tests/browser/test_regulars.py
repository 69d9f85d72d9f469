"""In a real browser at 1366 and 390 px: the organiser registers last month's 40 regulars in a few clicks,
ticks them all present, and filters the list to one team to take its fees (issue 25)."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import ClubFactory, RegistrationFactory, TeamFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-regulars")
PASSWORD = "haslo-organizatora"
MOST_CLICKS = 5  # issue 25: registering 40 regulars of last month
TEAMS = [
    "Kaszëbë Puck",
    "Gwiazda Morza",
    "Czarne Damy",
    "Korona Baśki",
    "Gryfici",
    "Stare Damy",
    "Młodzi Wilcy",
    "Hirsz",
]


def last_month_with_40_players(organiser, date: datetime.date):
    """The organiser's tournament a month before ``date``: 8 teams of 4 and 8 individuals."""
    earlier = TournamentFactory(name="Turniej listopadowy", date=date - datetime.timedelta(days=28))
    earlier.organisers.add(organiser)
    for name in TEAMS:
        team = TeamFactory(name=name, club=ClubFactory(name=f"KS {name}"), members=4)
        for member in team.memberships.all():
            RegistrationFactory(tournament=earlier, player=member.player, team=team)
    RegistrationFactory.create_batch(8, tournament=earlier)
    return earlier


@pytest.mark.parametrize("page", ["desktop", "phone"], indirect=True)
def test_last_months_40_regulars_are_registered_in_five_clicks_then_ticked_and_filtered(page, live_server):
    SHOTS.mkdir(exist_ok=True)
    width = page.viewport_size["width"]
    organiser = UserFactory(username="organizator")
    organiser.set_password(PASSWORD)
    organiser.save()
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    tournament = TournamentFactory(name="Turniej grudniowy", date=datetime.date(2026, 12, 12))
    tournament.organisers.add(organiser)
    last_month_with_40_players(organiser, tournament.date)
    url = reverse("tournaments:registrations", args=[tournament.slug])
    page.goto(live_server.url + reverse("login") + "?next=" + url)
    page.locator("#id_username").fill("organizator")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")
    page.wait_for_url(f"**{url}")

    clicks = 0

    def click(locator) -> None:
        nonlocal clicks
        clicks += 1
        locator.click()

    click(page.get_by_role("link", name="Dodaj wielu"))
    page.wait_for_url("**/zapisy/wielu/")
    earlier = page.get_by_label("Wszyscy z turnieju")
    assert earlier.input_value() and "Turniej listopadowy" in earlier.locator("option:checked").inner_text()
    accessible(page)
    assert fits_the_screen(page)
    click(earlier.locator("xpath=ancestor::form").get_by_role("button", name="Podgląd"))
    page.get_by_text("Zostanie zgłoszonych 40 zawodników").wait_for()
    expect(page.locator("#preview li", has_text="Kaszëbë Puck")).to_have_count(4)
    page.screenshot(path=str(SHOTS / f"preview-{width}.png"), full_page=True)
    accessible(page)
    assert fits_the_screen(page)
    click(page.get_by_role("button", name="Zgłoś 40 zawodników"))
    page.wait_for_url(f"**{url}")

    assert clicks <= MOST_CLICKS
    assert tournament.registrations.count() == 40
    page.get_by_text("Zgłoszono 40 zawodników.").wait_for()

    presence = page.locator("fieldset", has_text="Obecność")
    presence.get_by_role("button", name="Zaznacz wszystkich").click()
    page.get_by_text("Zaznaczono: 40.").wait_for()
    assert tournament.registrations.filter(checked_in=True).count() == 40
    # The message heads the page: Chromium shows it while the rows below are still being parsed.
    expect(page.get_by_role("button", name="✓ obecny")).to_have_count(40)

    page.get_by_label("Nazwisko, klub lub drużyna").fill("kaszebe")  # a phone's keyboard without Polish letters
    page.get_by_role("button", name="Filtruj").click()
    page.wait_for_url(re.compile(r"who=kaszebe"))
    expect(page.locator("table.day tbody tr")).to_have_count(4)
    page.locator("fieldset", has_text="Wpisowe").get_by_role("button", name="Zaznacz wszystkich").click()
    page.get_by_text("Zaznaczono: 4.").wait_for()
    assert set(tournament.registrations.filter(fee_paid=True).values_list("team__name", flat=True)) == {TEAMS[0]}
    expect(page.locator("table.day tbody tr")).to_have_count(4)  # the list comes back filtered
    assert page.get_by_label("Nazwisko, klub lub drużyna").input_value() == "kaszebe"
    page.screenshot(path=str(SHOTS / f"filtered-{width}.png"), full_page=True)
    accessible(page)
    assert fits_the_screen(page)
