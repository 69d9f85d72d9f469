"""In a real browser at 1366 and 390 px: after the draw the page offers publishing it; drawing a
published series again first says what it makes wrong, takes the typed seed, and the previous
draw comes back with one click (issue 27)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from league.tournaments import draws
from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import TournamentFactory, UserFactory, register_teams

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-redraw")
PASSWORD = "haslo-organizatora"


@pytest.mark.parametrize("page", ["desktop", "phone"], indirect=True)
def test_a_published_series_is_drawn_again_only_after_a_warning_and_the_old_draw_comes_back(page, live_server):
    SHOTS.mkdir(exist_ok=True)
    width = page.viewport_size["width"]
    organiser = UserFactory(username="organizator")
    organiser.set_password(PASSWORD)
    organiser.save()
    tournament = TournamentFactory(name="Turniej mikołajkowy", series_count=2)
    tournament.organisers.add(organiser)
    register_teams(tournament, teams=4)
    draws.series_draw(tournament=tournament, numbers=[1], seed=111111)
    pins = sorted(tournament.series.get(number=1).protocols.values_list("table", "pin"))
    url = reverse("tournaments:draw", args=[tournament.slug])
    page.goto(live_server.url + reverse("login") + "?next=" + url)
    page.locator("#id_username").fill("organizator")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")

    next_step = page.locator("#next-step")
    next_step.get_by_text("Następny krok: opublikuj losowanie").wait_for()
    accessible(page)
    assert fits_the_screen(page)
    next_step.get_by_role("button", name="Opublikuj losowanie").click()
    page.locator("#series-1").wait_for()
    assert page.locator("#next-step").count() == 0

    page.locator("#series-1").get_by_role("link", name="Rozlosuj tę serię ponownie…").click()
    risk = page.locator("#redraw-risk")
    risk.get_by_text("zawodnicy mogli już zobaczyć swoje stoliki").wait_for()
    page.get_by_label("Ziarno").fill("686893")
    page.screenshot(path=str(SHOTS / f"redraw-{width}.png"), full_page=True)
    accessible(page)
    assert fits_the_screen(page)
    page.get_by_role("button", name="Rozlosuj ponownie serię 1").click()
    # no yes ticked: the browser itself asks for it, and nothing is drawn
    assert page.get_by_label("Rozumiem, rozlosuj tę serię ponownie").evaluate("box => box.validity.valueMissing")
    assert tournament.series.get(number=1).seed == 111111

    page.get_by_label("Rozumiem, rozlosuj tę serię ponownie").check()
    page.get_by_role("button", name="Rozlosuj ponownie serię 1").click()
    page.get_by_text("Seria 1 rozlosowana ponownie z ziarnem 686893").wait_for()
    assert tournament.series.get(number=1).seed == 686893

    page.get_by_role("button", name="Przywróć poprzednie losowanie (ziarno 111111)").click()
    page.get_by_text("Przywrócono poprzednie losowanie serii 1").wait_for()
    page.screenshot(path=str(SHOTS / f"restored-{width}.png"), full_page=True)
    accessible(page)
    series = tournament.series.get(number=1)
    assert series.seed == 111111
    assert sorted(series.protocols.values_list("table", "pin")) == pins
