"""In a real browser, at 1366 px and 390 px: a spectator reads the standings and switches the
language; a referee types a deal with the keyboard and sees it in the protocol at once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import fits_the_screen
from tests.factories import UserFactory, drawn_series
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_spectator_reads_the_standings_in_polish_and_switches_to_english(page, live_server):
    tournament = league_tournament(tables=3, series=2)
    leader = tournament.registrations.select_related("player").first().player

    page.goto(live_server.url + reverse("public:standings", args=[tournament.slug]))

    assert page.get_by_role("heading", name="Klasyfikacja indywidualna").is_visible()
    assert page.get_by_role("link", name=leader.full_name).first.is_visible()
    assert fits_the_screen(page)
    page.get_by_role("button", name="EN", exact=True).click()
    assert page.get_by_role("heading", name="Individual ranking").is_visible()
    assert page.url.endswith(reverse("public:standings", args=[tournament.slug]))


def test_a_referee_types_a_deal_and_it_is_in_the_protocol_at_once(page, live_server):
    series = drawn_series(tables=2)
    referee = UserFactory(username="sedzia")
    referee.set_password("haslo-sedziego")
    referee.save()
    series.tournament.referees.add(referee)
    protocol_url = reverse("results:protocol", args=[series.tournament.slug, series.number, 1])

    page.goto(live_server.url + reverse("login") + "?next=" + protocol_url)
    page.locator("#id_username").fill("sedzia")
    page.locator("#id_password").fill("haslo-sedziego")
    page.locator("#id_password").press("Enter")
    page.locator("#id_line").fill("ac60")
    page.locator("#id_line").press("Enter")
    page.locator("#sheet tbody tr").nth(1).wait_for()

    protocol = series.protocols.get(table=1)
    assert list(protocol.rows.values_list("deal__contract", flat=True)) == ["zwykla"]
    first_row = page.locator("table tbody tr").first
    assert "ac60" in first_row.inner_text()
    assert fits_the_screen(page)
