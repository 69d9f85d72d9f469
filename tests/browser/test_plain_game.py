"""In a real browser, at 1366 px and 390 px with axe-core: the test game of plain rows
(tests/games/plain_game) typed by the referee, then by the table's phone behind its PIN."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import accessible, fits_the_screen, keep_screenshot
from tests.browser.test_control_room import log_in, person
from tests.browser.test_pin_release import type_pin
from tests.factories import TournamentFactory, drawn_series
from tests.games.plain_game.fixtures import zero_game  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_row_typed_by_the_referee_and_one_by_the_phone(page, live_server, zero_game, tmp_path):  # noqa: F811
    tournament = TournamentFactory(game="zero", ruleset_preset="gorzow", deals_per_series=8, draw_published=True)
    protocol = drawn_series(tournament, tables=1, status="in_play").protocols.get()
    referee = person("sedzia-zera")
    tournament.referees.add(referee)
    url = reverse("results:protocol", args=[tournament.slug, 1, 1])
    log_in(page, live_server, "sedzia-zera", url)

    for seat, value in zip("ABCD", (5, -3, 0, 0), strict=True):
        page.locator(f"#id_row-{seat}").fill(str(value))
    page.get_by_role("button", name="Zapisz", exact=True).click()
    expect(page.get_by_text("Wartości muszą sumować się do zera; ich suma wynosi 2.")).to_be_visible()
    page.locator("#id_row-B").fill("-5")
    page.get_by_role("button", name="Zapisz", exact=True).click()
    expect(page.locator("#sheet tbody tr")).to_have_count(1)
    expect(page.locator("#sheet tbody tr").first).to_contain_text("−5")
    keep_screenshot(page, tmp_path / "referee.png")
    assert fits_the_screen(page)
    accessible(page)

    page.goto(f"{live_server.url}{reverse('table:protocol', args=[tournament.slug, 1, 1])}")
    type_pin(page, protocol.pin)
    expect(page.get_by_text("A +5 · B −5 · C 0 · D 0")).to_be_visible()
    for seat, value in zip("ABCD", (0, 2, -2, 0), strict=True):
        page.locator(f"#id_row-{seat}").fill(str(value))
    page.get_by_role("button", name="Zapisz rozdanie").click()
    expect(page.get_by_text("A 0 · B +2 · C −2 · D 0")).to_be_visible()
    assert fits_the_screen(page)
    accessible(page)
    assert protocol.rows.count() == 2
