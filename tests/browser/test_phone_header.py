"""At 390 px a phone page shows its work first: the site's header is one compact row with the menu
behind a button (issue 41: the header took 236 px, 28 % of the screen, the protocol page included);
at 1366 px the menu is shown as before."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import accessible, fits_the_screen, page  # noqa: F401  (the browser fixture)
from tests.browser.test_offline_table import open_the_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_header_is_one_row_on_a_phone_and_its_menu_opens_behind_a_button(page, live_server):  # noqa: F811
    open_the_table(page, live_server)  # the protocol page, as a table's phone has it
    header = page.locator("header.topbar")
    menu = page.get_by_role("button", name="Menu")
    records = header.get_by_role("link", name="Rekordy")
    if page.viewport_size["width"] == 390:
        assert header.bounding_box()["height"] <= 64
        expect(records).to_be_hidden()
        expect(menu).to_have_attribute("aria-expanded", "false")
        menu.click()
        expect(menu).to_have_attribute("aria-expanded", "true")
        expect(records).to_be_visible()
        assert menu.bounding_box()["height"] >= 44
    else:
        expect(menu).to_be_hidden()
        expect(records).to_be_visible()
    assert fits_the_screen(page)
    accessible(page)
    page.goto(live_server.url + reverse("home"))
    expect(header.get_by_role("link", name="Liga Baśki")).to_be_visible()
