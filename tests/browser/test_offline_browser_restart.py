"""In a real browser at 390 px: deals typed offline survive the phone's browser being closed and
started again (a flat battery, the browser swiped away), and reach the server once each, in order,
when the network is back (issue 24)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORTS
from tests.browser.test_offline_table import DEALS, enter, let_in
from tests.factories import drawn_series

pytestmark = pytest.mark.django_db(transaction=True)


def test_deals_typed_offline_survive_closing_the_browser_and_are_stored_once(live_server, monkeypatch, tmp_path):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    protocol = drawn_series(tables=1, status="in_play").protocols.get()
    typed = DEALS[:3]
    with sync_playwright() as playwright:

        def phone_browser():
            """The phone's browser, with its storage (cookies, IndexedDB, the service worker) on disk."""
            return playwright.chromium.launch_persistent_context(
                tmp_path / "phone",
                executable_path=str(CHROMIUM),
                args=CHROMIUM_ARGS,
                viewport=VIEWPORTS["phone"],
                locale="pl-PL",
            )

        browser = phone_browser()
        page = browser.pages[0] if browser.pages else browser.new_page()
        let_in(page, live_server, protocol, "A")
        table_url = page.url
        browser.set_offline(True)
        for number, (contract, old, eyes, kontras, _deal) in enumerate(typed, start=1):
            enter(page, contract, old, eyes, kontras)
            expect(page.locator("#waiting tbody tr")).to_have_count(number)
        browser.close()  # the browser is gone, offline: nothing could be sent
        assert not protocol.rows.exists()

        browser = phone_browser()
        browser.set_offline(True)
        page = browser.pages[0] if browser.pages else browser.new_page()
        page.goto(table_url)  # served by the service worker, the queue read back from the phone
        expect(page.locator("#netbar")).to_have_attribute("data-state", "offline")
        expect(page.locator("#waiting tbody tr")).to_have_count(3)
        expect(page.locator("#entry-title")).to_have_text("Rozdanie 4")

        browser.set_offline(False)
        expect(page.locator("#row-3")).to_be_visible(timeout=15000)
        expect(page.locator("#waiting")).to_be_hidden()
        browser.close()
    assert [row.deal for row in protocol.rows.order_by("number")] == [deal for *_typed, deal in typed]
    assert protocol.history.count() == 3
