"""The referee in a real browser (tests/browser/conftest.py), at 1366 px and 390 px: a refused line keeps
the cursor, and a series is closed after the confirmation page and reopened with a reason."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import TableAssignment
from tests.browser.conftest import chromium, fits_the_screen, page  # noqa: F401  (the browser fixtures)
from tests.factories import RegistrationFactory, UserFactory, drawn_series, game_settings_set
from tests.results.test_services import enter, finish

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page, live_server, series, next_url):  # noqa: F811
    """The referee of the series' tournament, logged in and at ``next_url``; the series' players are registered."""
    for assignment in TableAssignment.objects.filter(series=series):
        RegistrationFactory(tournament=series.tournament, player=assignment.player)
    referee = UserFactory(username="sedzia", first_name="Józef", last_name="Sędzia")
    referee.set_password("haslo-sedziego")
    referee.save()
    series.tournament.referees.add(referee)
    page.goto(live_server.url + reverse("login") + "?next=" + next_url)
    page.locator("#id_username").fill("sedzia")
    page.locator("#id_password").fill("haslo-sedziego")
    page.locator("#id_password").press("Enter")
    return referee


def test_a_refused_line_keeps_the_cursor_in_the_shorthand_field(page, live_server):  # noqa: F811
    series = drawn_series(tables=1)
    protocol_url = reverse("results:protocol", args=[series.tournament.slug, series.number, 1])
    log_in(page, live_server, series, protocol_url)

    page.locator("#id_line").fill("=2,-2,2")
    page.locator("#id_line").press("Enter")
    page.locator("#entry .errorlist").wait_for()

    assert "czterech liczb" in page.locator("#entry").inner_text()
    assert page.evaluate("document.activeElement.id") == "id_line"
    page.keyboard.type(",-2")  # the cursor is at the end of the refused line: finish it and save
    page.keyboard.press("Enter")
    page.locator("#sheet tbody tr").nth(1).wait_for()
    assert series.protocols.get().rows.get().values == {"A": 2, "B": -2, "C": 2, "D": -2}
    # saved: the cursor waits in the next row's line, in view
    assert page.evaluate("document.activeElement.id") == "id_line"
    assert page.locator("#id_line").input_value() == ""
    assert page.locator("#id_line").is_visible()
    assert fits_the_screen(page)
    page.screenshot(path=f"/tmp/shots-results/entry-{page.viewport_size['width']}.png", full_page=False)


def test_closing_asks_first_and_a_closed_series_is_reopened_with_a_reason(page, live_server):  # noqa: F811
    series = drawn_series(tables=2)
    game_settings_set(series.tournament, deals_per_series=4)
    series.tournament.save()
    series_url = reverse("results:series", args=[series.tournament.slug, series.number])
    referee = log_in(page, live_server, series, series_url)
    first, second = series.protocols.order_by("table")
    finish(enter(first, ["ac60", "bd+", "ac+", "zak+"], referee), referee, {"A": 31, "B": -11, "C": -9, "D": -11})
    page.goto(live_server.url + series_url)

    page.get_by_role("link", name="Zamknij serię").click()
    assert "Stolik 2" in page.locator("main").inner_text()
    assert page.get_by_role("button", name="Tak, zamknij serię").count() == 0
    assert fits_the_screen(page)

    finish(enter(second, ["ac60", "bd+", "ac+", "zak+"], referee), referee, {"A": 31, "B": -11, "C": -9, "D": -11})
    page.reload()
    page.get_by_role("button", name="Tak, zamknij serię").click()
    page.wait_for_url("**" + series_url)
    series.refresh_from_db()
    assert series.status == "closed"

    page.get_by_label("Powód ponownego otwarcia").fill("Stolik 2 kwestionuje rozdanie 3")
    page.get_by_role("button", name="Otwórz serię ponownie").click()
    page.wait_for_url("**" + series_url)
    series.refresh_from_db()
    assert series.status == "in_play"
    assert fits_the_screen(page)
