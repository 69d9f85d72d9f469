"""In a real browser at 1366 px and 390 px: a player finds where they sit, by the seating
list's filter on the tournament page and by the "Znajdź swój stolik" page (issue 14)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from league.models import Bye, Series
from tests.browser.conftest import fits_the_screen
from tests.factories import PlayerFactory, RegistrationFactory
from tests.public.test_find_table import hall

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/seating")


def evening():
    """Series 2 about to start: 11 tables of four and two byes, 46 names on the list."""
    tournament = hall(tables=11)
    late = PlayerFactory(first_name="Grzegorz", last_name="Żółtowski")
    RegistrationFactory(tournament=tournament, player=late)
    Bye.objects.create(series=Series.objects.get(tournament=tournament, number=2), player=late)
    return tournament


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.viewport_size['width']}.png"), full_page=True)


def test_typing_a_name_filters_who_sits_where_with_or_without_polish_letters(page, live_server):
    tournament = evening()
    page.goto(live_server.url + reverse("public:tournament", args=[tournament.slug]))
    rows = page.locator("#seating li")
    search = page.get_by_role("searchbox", name="Znajdź zawodnika")
    expect(rows).to_have_count(46)
    expect(page.locator("#seating li:visible")).to_have_count(46)

    search.fill("Kwidzińska")
    expect(page.locator("#seating li:visible")).to_have_count(1)
    expect(page.locator("#seating li:visible")).to_contain_text("Anna Kwidzińska")
    expect(page.get_by_text("Nikt nie pasuje.")).to_be_hidden()

    search.fill("kakol")  # a phone's keyboard without Polish letters
    expect(page.locator("#seating li:visible")).to_have_count(1)
    expect(page.locator("#seating li:visible")).to_contain_text("Łukasz Kąkol")
    search.fill("lukasz kakol")
    expect(page.locator("#seating li:visible")).to_have_count(1)
    search.fill("zoltowski grzegorz")
    expect(page.locator("#seating li:visible")).to_contain_text("Grzegorz Żółtowski")
    shoot(page, "tournament-filtered")
    assert fits_the_screen(page)

    search.fill("qwxz")
    expect(page.locator("#seating li:visible")).to_have_count(0)
    expect(page.get_by_text("Nikt nie pasuje.")).to_be_visible()
    shoot(page, "tournament-nobody")

    search.fill("")
    expect(page.locator("#seating li:visible")).to_have_count(46)


def test_a_player_finds_their_table_seat_and_opponents_on_their_phone(page, live_server):
    tournament = evening()
    page.goto(live_server.url + reverse("public:tournament", args=[tournament.slug]))

    page.get_by_role("link", name="Znajdź swój stolik").click()
    page.get_by_role("searchbox", name="Imię lub nazwisko").fill("kwidzinska")
    page.get_by_role("button", name="Szukaj").click()

    found = page.locator("article.found")
    expect(found).to_have_count(1)
    expect(found).to_contain_text("Anna Kwidzińska")
    expect(found.locator("li.current")).to_contain_text("stolik 1, miejsce A")
    expect(found.locator("li.current")).to_contain_text("B Jan Lis, C Ewa Łoś, D Piotr Mak")
    expect(found.get_by_role("link", name="Protokół stolika")).to_have_count(1)  # series 1 only: it is closed
    shoot(page, "find-table")
    assert fits_the_screen(page)

    page.get_by_role("searchbox", name="Imię lub nazwisko").fill("jan")
    page.get_by_role("button", name="Szukaj").click()
    for name in ("Jan Formela", "Jan Kreft", "Jan Lis"):  # and any Janina or Janusz the factory made
        expect(page.locator("article.found h3", has_text=name)).to_have_count(1)
    shoot(page, "find-table-several")
    assert fits_the_screen(page)

    page.get_by_role("searchbox", name="Imię lub nazwisko").fill("kąkol")
    page.get_by_role("button", name="Szukaj").click()
    expect(page.locator("article.found li.current")).to_contain_text("pauza (wolny los)")
    assert fits_the_screen(page)
