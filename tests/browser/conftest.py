"""A real browser (Debian's Chromium driven by Playwright) against the live test server.

Playwright's synchronous API keeps an event loop in the test's thread, where
Django would refuse database calls as "async-unsafe"; the test thread only sets
data up and reads it back, so that check is switched off for these tests.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from league.hall.views import ready_rooms

CHROMIUM = Path("/usr/bin/chromium")
ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"
VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
# As the workplace starts Chromium: no sandbox as root, and no calls home on a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if not CHROMIUM.exists():  # .ci/run installs it; a developer without it skips these tests
    pytest.skip("needs Debian's chromium at /usr/bin/chromium", allow_module_level=True)


def keep_screenshot(page, path: Path) -> None:
    """The page as the test left it, for a person to look at. Chromium now and then refuses a
    full-page capture ("Unable to capture screenshot") of a page that is fine: the picture is
    taken of the viewport then, and a second refusal is a warning, not the test's failure."""
    from playwright.sync_api import Error

    try:
        page.screenshot(path=str(path), full_page=True)
    except Error:
        try:
            page.screenshot(path=str(path))
        except Error as refused:
            warnings.warn(f"no screenshot of {page.url}: {refused.message.splitlines()[0]}", stacklevel=2)


@pytest.fixture(scope="module")
def chromium():
    """One Chromium for a test module's browser tests (starting it costs a second; a window, a
    fifth of that).

    Playwright's event loop runs in this thread while the browser is open, so Django's
    "async-unsafe" check is off for as long: for the module's tests only, since pytest closes a
    module's fixtures before it runs a test of another module.
    """
    from playwright.sync_api import sync_playwright

    before = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if before is None:
            del os.environ[ASYNC_UNSAFE]
        else:
            os.environ[ASYNC_UNSAFE] = before


@pytest.fixture(params=list(VIEWPORTS))
def page(request, chromium, tmp_path):
    """A fresh browser window (its own cookies and storage) at 1366 px or at 390 px, asking for
    Polish first."""
    context = chromium.new_context(viewport=VIEWPORTS[request.param], locale="pl-PL")
    page = context.new_page()
    yield page
    keep_screenshot(page, tmp_path / f"{request.param}.png")
    context.close()


@pytest.fixture(autouse=True)
def no_room_kept():
    """The live server keeps no control-room fragment built from another test's database."""
    ready_rooms.clear()
    yield
    ready_rooms.clear()


def accessible(page) -> None:
    """axe-core (the npm package as axe-playwright-python ships it: nothing fetched at run time)
    finds no violation on the page as it is now."""
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def fits_the_screen(page) -> bool:
    """Nothing sticks out sideways: the page scrolls only up and down."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
