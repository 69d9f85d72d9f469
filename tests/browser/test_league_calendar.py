"""In a real browser (1366 and 390 px): an organiser founds a league on the app's own screens and
puts a coming tournament in it with a start time; a visitor then finds the league on the home
page, its page and calendar show the tournament, and the calendar's .ics, fetched as a calendar
program would, parses with ``icalendar`` and lists it. axe-core finds nothing on any page."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import icalendar
import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-leagues")
PASSWORD = "haslo-ligi"


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}-{page.viewport_size['width']}.png"), full_page=True)


def test_a_new_league_shows_its_coming_tournament_on_its_page_calendar_and_feed(page, live_server):
    SHOTS.mkdir(exist_ok=True)
    organiser = UserFactory(username="ewa")
    organiser.set_password(PASSWORD)
    organiser.save()
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    day = timezone.localdate() + timedelta(days=10)
    tournament = TournamentFactory(name="Mikołajkowy Turniej Baśki", date=day, venue="Kościerzyna, Klub Baśki")
    tournament.organisers.add(organiser)

    page.goto(live_server.url + reverse("login") + "?next=" + reverse("leagues:create"))
    page.locator("#id_username").fill("ewa")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")
    page.wait_for_url("**" + reverse("leagues:create"))
    page.locator("#id_name").fill("Złota Liga Baśki")
    page.locator("#id_description").fill("Turnieje Baśki na Kaszubach, raz w miesiącu.")
    accessible(page)
    page.get_by_role("button", name="Utwórz ligę").click()
    page.wait_for_url("**" + reverse("leagues:edit", args=["zlota-liga-baski"]))
    assert fits_the_screen(page)
    accessible(page)
    shot(page, "league-form")

    page.goto(live_server.url + reverse("tournaments:update", args=[tournament.slug]))
    page.locator("#id_league").select_option(label="Złota Liga Baśki")
    page.locator("#id_start_time").fill("10:00")
    page.get_by_role("button", name="Zapisz").first.click()
    page.wait_for_url("**" + reverse("tournaments:detail", args=[tournament.slug]))
    page.context.clear_cookies()  # from here on, a visitor

    page.goto(live_server.url + reverse("home"))
    accessible(page)
    shot(page, "home")
    page.get_by_role("link", name="Złota Liga Baśki").click()
    page.wait_for_url("**" + reverse("leagues:page", args=["zlota-liga-baski"]))
    coming = page.locator("#league-next")
    assert "Mikołajkowy Turniej Baśki" in coming.inner_text()
    assert f"{day:%d.%m.%Y}, 10:00" in coming.inner_text()
    assert fits_the_screen(page)
    accessible(page)
    shot(page, "league")

    page.get_by_role("link", name="Cały kalendarz").click()
    page.wait_for_url("**" + reverse("leagues:calendar", args=["zlota-liga-baski"]))
    upcoming = page.locator("#calendar-upcoming").inner_text()
    assert "Mikołajkowy Turniej Baśki" in upcoming and "Kościerzyna, Klub Baśki" in upcoming
    assert fits_the_screen(page)
    accessible(page)
    shot(page, "calendar")

    feed = page.locator('link[rel="alternate"][type="text/calendar"]').get_attribute("href")
    response = page.request.get(live_server.url + feed)
    assert response.headers["content-type"] == "text/calendar; charset=utf-8"
    (event,) = icalendar.Calendar.from_ical(response.body()).walk("VEVENT")
    assert str(event["summary"]) == "Mikołajkowy Turniej Baśki"
    assert event.decoded("dtstart").strftime("%d.%m.%Y %H:%M") == f"{day:%d.%m.%Y} 10:00"
    assert str(event["url"]).endswith(reverse("public:tournament", args=[tournament.slug]))
