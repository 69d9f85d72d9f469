"""In a real browser at 390 px: the players of a Preferans table score its pulka on the table phone.

Seat A lets the phone in with the table's PIN, enters three deals through the plain deal form
(one refused by the rules, in Polish, and typed again), corrects the last entry, closes the pulka
by the players' agreement, types the paper's totals and marks the protocol complete; the player
at seat B confirms it on a second phone. Every screen fits the phone's width.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from league.games.preferans.pulka import protocol_pulka
from tests.browser.conftest import fits_the_screen
from tests.browser.test_organisers_day import browser, window  # noqa: F401 (a fixture)
from tests.factories import PreferansTournamentFactory, drawn_series
from tests.games.preferans.browser.test_preferans_evening import deal_in, entries, settled_balances

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/pulka-phone")


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def pin_in(page, live_server, protocol, seat: str) -> None:
    """The table's link, its PIN and the seat the player sits at."""
    series = protocol.series
    table_url = reverse("table:protocol", args=[series.tournament.slug, series.number, protocol.table])
    page.goto(live_server.url + table_url)
    page.locator('input[name="pin"]').fill(protocol.pin)
    page.locator(f'label.tap:has(input[name="seat"][value="{seat}"])').click()
    page.get_by_role("button", name="Otwórz protokół").click()
    page.wait_for_url("**" + table_url)


def test_a_table_scores_its_pulka_on_the_phone_and_a_second_seat_confirms(browser, live_server):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    visited: list[str] = []
    protocol = drawn_series(PreferansTournamentFactory(), tables=1, status="in_play").protocols.get()

    phone = window(browser, "phone", visited)
    pin_in(phone, live_server, protocol, "A")
    expect(phone.locator("#entry-title")).to_have_text("Rozdanie 1")
    expect(phone.locator("#entry")).to_contain_text("rozdaje i pauzuje w tym rozdaniu")
    expect(phone.locator("#pulka-penalty")).to_have_count(0)  # a penalty is the referee's
    assert fits_the_screen(phone)
    shot(phone, "01-empty-pulka")

    # A deals the first deal, B the second, C the third (with four, the dealer sits out)
    deal_in(phone, 1, "7S", "B", None, {})
    expect(phone.get_by_text("Zapisano rozdanie 1.")).to_be_visible()
    deal_in(phone, 2, "8H", "C", 7, {"D": 3})
    phone.locator("#id_contract").select_option("6C")
    phone.locator("#id_declarer").select_option("C")  # C deals deal 3: the rules refuse it
    phone.get_by_role("button", name="Zapisz rozdanie").click()
    refusal = phone.locator("#entry .errorlist")
    expect(refusal).to_contain_text("rozdaje w tym rozdaniu, więc przy czterech graczach w nim pauzuje")
    expect(entries(phone)).to_have_count(2)
    assert protocol.rows.count() == 2 and fits_the_screen(phone)
    shot(phone, "02-refused-in-polish")
    phone.locator("#id_declarer").select_option("D")
    phone.get_by_role("button", name="Zapisz rozdanie").click()
    expect(entries(phone)).to_have_count(3)

    # the last entry is the table's to correct; the earlier ones are final
    expect(phone.get_by_role("link", name="Popraw wpis 2")).to_have_count(0)
    phone.get_by_role("link", name="Popraw wpis 3").click()
    expect(phone.locator("#entry-title")).to_have_text("Popraw wpis 3")
    expect(phone.locator("#id_declarer")).to_have_value("D")
    assert fits_the_screen(phone)
    shot(phone, "03-correcting-the-last-entry")
    phone.locator("#id_contract").select_option("7C")
    phone.get_by_role("button", name="Zapisz poprawkę").click()
    expect(phone.get_by_text("Wpis 3 został poprawiony.")).to_be_visible()
    assert protocol.rows.get(number=3).deal == {"contract": "7C", "declarer": "D"}
    assert protocol.history.latest("pk").seat == "A"

    # the players agree to end the pulka; the settlement is final
    phone.locator("#pulka-close summary").click()
    phone.get_by_role("button", name="Tak, zamknij pulkę").click()
    expect(phone.locator("#pulka-state")).to_contain_text("Pulka jest zamknięta za porozumieniem.")
    protocol.refresh_from_db()
    balances = settled_balances(phone, "ABCD")
    assert protocol.closed_by_agreement and balances == dict(protocol_pulka(protocol=protocol).settlement.balance)
    assert fits_the_screen(phone)
    shot(phone, "04-closed-by-agreement")

    # the paper's totals, then "complete" from seat A
    for seat, total in balances.items():
        phone.locator(f"#finish input[name={seat}]").fill(str(total))
    phone.get_by_role("button", name="Sumy się zgadzają — oznacz protokół jako kompletny").click()
    expect(phone.locator("#finish")).to_contain_text("Potwierdza go inny gracz")
    protocol.refresh_from_db()
    assert (protocol.status, protocol.completed_by_seat) == ("complete", "A")
    expect(phone.locator("#entry")).to_have_count(0)  # complete: nothing more to enter
    assert fits_the_screen(phone)
    shot(phone, "05-complete")

    # the player at seat B confirms on their own phone
    second = window(browser, "phone", visited)
    pin_in(second, live_server, protocol, "B")
    second.get_by_role("button", name="Ja, gracz z miejsca B, potwierdzam sumy").click()
    expect(second.get_by_text("Protokół został potwierdzony. Dziękujemy!")).to_be_visible()
    protocol.refresh_from_db()
    assert (protocol.status, protocol.confirmed_by_seat) == ("confirmed", "B")
    assert fits_the_screen(second)
    shot(second, "06-confirmed-on-a-second-phone")
    assert not [url for url in visited if url.endswith(".js") and "table-offline" in url]  # no script of Baśka's
