"""The table phone served over plain HTTP on a hall's local network (``http://192.168.x.x``).

Such a page is not a secure context, so the browser runs no service worker there. What the phone
does then: its queue is in IndexedDB, which works without a secure context, so the open page keeps
taking deals without the network and sends them when it returns; a reload without the network
shows the browser's own "no internet" page (nothing can serve the page), but the queue stays on
the phone and goes out as soon as the page is loaded with the network again. A host name that is
not "potentially trustworthy" (localhost and 127.0.0.1 are) stands in for the hall's address.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Error, expect

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORTS
from tests.browser.test_offline_table import DEALS, enter
from tests.factories import drawn_series

pytestmark = pytest.mark.django_db(transaction=True)

HALL = "stolik.sala"  # resolved to 127.0.0.1 by the browser, but plain HTTP under a name: not secure


@pytest.fixture
def hall_phone(monkeypatch, settings):
    """A phone at 390 px that reaches the test server as ``http://stolik.sala:<port>``."""
    from playwright.sync_api import sync_playwright

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HALL]
    # a hall's plain HTTP server is the embedded default (`make run`), which marks no cookie secure;
    # CI's deployed leg (DJANGO_SECURE) does, and a browser keeps no secure cookie over plain HTTP
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # as in conftest: the test thread reads the database
    with sync_playwright() as playwright:
        args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HALL} 127.0.0.1"]
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        context = browser.new_context(viewport=VIEWPORTS["phone"], locale="pl-PL")
        yield context.new_page()
        browser.close()


def test_over_plain_http_the_queue_survives_an_offline_reload_and_is_sent_once_online(hall_phone, live_server):
    page = hall_phone
    protocol = drawn_series(None, tables=1, status="in_play").protocols.get()
    series = protocol.series
    table_url = reverse("table:protocol", args=[series.tournament.slug, series.number, protocol.table])
    address = live_server.url.replace("localhost", HALL) + table_url
    page.goto(address)
    page.locator('input[name="pin"]').fill(protocol.pin)
    page.locator('label.tap:has(input[name="seat"][value="A"])').click()
    page.get_by_role("button", name="Otwórz protokół").click()
    expect(page.locator("#netbar")).to_have_attribute("data-state", "online")
    assert page.evaluate("!window.isSecureContext && !('serviceWorker' in navigator)")  # no service worker here

    page.context.set_offline(True)
    for number, (contract, old, eyes, kontras, _deal) in enumerate(DEALS[:2], start=1):
        enter(page, contract, old, eyes, kontras)
        expect(page.locator("#waiting tbody tr")).to_have_count(number)
    expect(page.locator("#entry-title")).to_have_text("Rozdanie 3")

    with pytest.raises(Error, match="ERR_INTERNET_DISCONNECTED"):
        page.reload()  # nothing serves the page without the network: the browser's own error page
    assert not protocol.rows.exists()

    page.context.set_offline(False)
    page.goto(address)  # loaded with the network again: the kept queue goes out
    expect(page.locator("#row-2")).to_be_visible(timeout=15000)
    expect(page.locator("#waiting")).to_be_hidden()
    assert [row.deal for row in protocol.rows.order_by("number")] == [deal for *_typed, deal in DEALS[:2]]
