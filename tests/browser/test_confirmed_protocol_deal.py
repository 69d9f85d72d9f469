"""In a real browser, at 1366 px and 390 px: a referee typing a deal on a confirmed protocol is told
that saving it undoes the confirmation, is refused without a reason, and with one the deal is saved,
the protocol goes back to being entered and its history says why."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from league.results.models import Protocol
from tests.browser.test_control_room import log_in, person
from tests.factories import TournamentFactory, drawn_series, game_settings_set
from tests.results.test_closing import LINES, PAPER
from tests.results.test_services import enter, finish

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_deal_on_a_confirmed_protocol_asks_for_the_reason_and_undoes_the_confirmation(page, live_server):
    tournament = TournamentFactory(deals_per_series=4)
    series = drawn_series(tournament, tables=1)
    referee = person("sedzia-protokolu")
    tournament.referees.add(referee)
    protocol = finish(enter(series.protocols.get(), LINES, referee), referee, PAPER)
    game_settings_set(tournament, deals_per_series=5)  # the series turned out to have a fifth deal, left off the paper
    tournament.save()
    url = reverse("results:protocol", args=[tournament.slug, series.number, 1])
    log_in(page, live_server, "sedzia-protokolu", url)

    expect(
        page.get_by_text("Protokół jest zatwierdzony — zapisanie rozdania cofnie zatwierdzenie.").first
    ).to_be_visible()
    page.locator("#id_line").fill("ac60")
    page.locator("#id_line").press("Enter")
    expect(page.get_by_text("Protokół jest zatwierdzony: podaj powód zmiany")).to_be_visible()
    protocol.refresh_from_db()
    assert (protocol.status, protocol.rows.count()) == (Protocol.Status.CONFIRMED, 4)

    page.locator("#id_reason").fill("Rozdanie 5 zagrane, pominięte na papierze")
    page.locator("#id_line").fill("ac60")
    page.locator("#id_line").press("Enter")
    expect(page.locator("tbody tr").nth(4)).to_contain_text("5")
    protocol.refresh_from_db()
    assert (protocol.status, protocol.rows.count()) == (Protocol.Status.OPEN, 5)
    page.goto(live_server.url + reverse("results:history", args=[tournament.slug, series.number, 1]))
    expect(page.get_by_text("Rozdanie 5 zagrane, pominięte na papierze")).to_be_visible()
