"""In a real browser, at 1366 px and 390 px: a phone locked out by its own wrong PINs is let in again
by the referee's "Odblokuj", and a table whose short address was closed by guessers still opens
from the QR code's link (issue 24, items 3 and 4)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from league.results.models import Protocol
from league.results.table import pin
from tests.browser.conftest import VIEWPORTS, fits_the_screen
from tests.browser.test_control_room import log_in, person
from tests.factories import drawn_series
from tests.results.test_table_views import enter_pin, url, wrong_pin

pytestmark = pytest.mark.django_db(transaction=True)


def type_pin(page, pin_value: str) -> None:
    page.locator('input[name="pin"]').fill(pin_value)
    page.locator('label.tap:has(input[name="seat"][value="A"])').click()
    page.get_by_role("button", name="Otwórz protokół").click()


def test_the_referees_unlock_lets_in_a_phone_locked_by_its_own_wrong_pins(page, live_server):
    protocol = drawn_series(tables=2, status="in_play").protocols.get(table=1)
    referee = person("sedzia-stolika")
    protocol.series.tournament.referees.add(referee)
    page.goto(f"{live_server.url}{url(protocol)}?t={protocol.table_token}")  # the QR code's link
    for _ in range(pin.MAX_WRONG_TRIES + 1):
        type_pin(page, wrong_pin(protocol))
    expect(page.get_by_text("Zbyt wiele błędnych PIN-ów")).to_be_visible()
    type_pin(page, protocol.pin)  # the right PIN no longer helps this phone
    expect(page.get_by_text("Zbyt wiele błędnych PIN-ów")).to_be_visible()

    desk = page.context.browser.new_context(viewport=VIEWPORTS["desktop"], locale="pl-PL").new_page()
    series = protocol.series
    referees_page = reverse("results:protocol", args=[series.tournament.slug, series.number, 1])
    log_in(desk, live_server, referee.username, referees_page)
    desk.get_by_role("button", name="Odblokuj stronę PIN").click()
    expect(desk.get_by_role("button", name="Odblokuj stronę PIN")).to_have_count(0)

    type_pin(page, protocol.pin)
    page.wait_for_url("**" + url(protocol))
    expect(page.locator("#netbar")).to_be_visible()
    assert fits_the_screen(page)


def test_guessers_at_the_short_address_do_not_shut_out_a_phone_with_the_qr_code(page, live_server):
    protocol = drawn_series(tables=2, status="in_play").protocols.get(table=1)
    for n in range(Protocol.HAND_LOCK_TRIES):  # a script knowing only the sequential address
        enter_pin(Client(REMOTE_ADDR=f"10.9.0.{n + 1}"), protocol, wrong_pin(protocol), by_hand=True)

    page.goto(live_server.url + url(protocol))  # typed by hand
    expect(page.get_by_text("Zeskanuj kod QR").first).to_be_visible()
    assert fits_the_screen(page)
    page.goto(f"{live_server.url}{url(protocol)}?t={protocol.table_token}")  # scanned from the sheet
    type_pin(page, protocol.pin)
    page.wait_for_url("**" + url(protocol))
    expect(page.locator("#netbar")).to_be_visible()
