"""In a real browser at 390 px: a table phone whose page is open reports every heartbeat; when it loses
the network the referee's control room, in another browser, shows the table offline once 3 heartbeats
went by without a word, though the phone had no deal waiting."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from league.results.models import PhoneContact, Protocol
from tests.browser.conftest import page  # noqa: F401  (the browser fixture)
from tests.browser.test_control_room import log_in, person
from tests.browser.test_offline_table import open_the_table, until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.viewport("phone")
def test_the_control_room_shows_a_phone_that_lost_the_network_as_offline(page, live_server, settings):  # noqa: F811
    settings.TABLE_HEARTBEAT_SECONDS = 1  # silent for 3 s is offline
    protocol = open_the_table(page, live_server)
    until(lambda: PhoneContact.objects.filter(protocol=protocol).exists())  # the page's heartbeat
    series = protocol.series
    referee = person("sedzia-sali")
    series.tournament.referees.add(referee)
    hall = page.context.browser.new_context(viewport=page.viewport_size, locale="pl-PL").new_page()
    room = reverse("hall:room", args=[series.tournament.slug, series.number])
    log_in(hall, live_server, "sedzia-sali", room)
    table = hall.locator('tr[data-table="1"]')
    expect(hall.get_by_text("„Offline” oznacza stolik")).to_be_visible()
    hall.wait_for_timeout(4000)  # longer than 3 heartbeats: the open page keeps reporting
    expect(table).not_to_contain_text("offline")

    page.context.set_offline(True)

    expect(table).to_contain_text("offline: bez kontaktu od 1 min", timeout=10000)
    page.context.set_offline(False)
    expect(table).not_to_contain_text("offline", timeout=10000)


@pytest.mark.viewport("phone")
def test_the_phone_reports_at_once_and_a_finished_protocol_keeps_reporting_without_403(page, live_server, settings):  # noqa: F811
    """Issue 41: the first heartbeat came 20 s after opening (a phone losing the network in its first
    20 s was never shown offline), and a finished protocol's page, with no form left, sent its
    heartbeats without a CSRF token and got 403 every 20 s."""
    settings.TABLE_HEARTBEAT_SECONDS = 60  # the interval far away: only the report at opening can come
    refused = []
    page.on("response", lambda r: refused.append(r.url) if r.status == 403 and "kontakt" in r.url else None)
    protocol = open_the_table(page, live_server)
    until(lambda: PhoneContact.objects.filter(protocol=protocol).exists(), seconds=5)

    settings.TABLE_HEARTBEAT_SECONDS = 1
    protocol.status = Protocol.Status.CONFIRMED  # finished and confirmed: the page keeps no entry form
    protocol.save()
    page.reload()
    expect(page.locator("#entry")).to_have_count(0)
    before = PhoneContact.objects.get(protocol=protocol).seen_at
    until(lambda: PhoneContact.objects.get(protocol=protocol).seen_at > before, seconds=6)
    assert refused == []


@pytest.mark.viewport("phone")
def test_after_a_deal_saved_by_its_line_the_cursor_is_in_the_line(page, live_server):  # noqa: F811
    """Issue 41: after a shorthand save the focus was on the page body: a tap more for every deal."""
    open_the_table(page, live_server)
    page.locator("#line").fill("ac60")
    page.locator("#line").press("Enter")
    expect(page.locator("#row-1")).to_be_visible()
    expect(page.locator("#line")).to_be_focused()
