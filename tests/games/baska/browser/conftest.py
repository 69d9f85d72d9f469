"""The browser's fixtures (tests/browser/conftest.py: the page at 1366 and 390 px, no room kept),
for the browser tests kept with their game."""

from tests.browser.conftest import chromium, no_room_kept, page  # noqa: F401  (the fixtures)
