"""In a real browser at 1366 and 390 px: the organiser keeps a wheelchair user at table 1, every draw
keeps him there, and the draw history of the series brings back the first, printed draw (issue 41)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from league.models import FixedSeat
from league.printing.models import PrintJob
from league.tournaments import draws
from league.tournaments.services import series_ensure
from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import TournamentFactory, UserFactory, register_teams

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-fixed-seats")
PASSWORD = "haslo-organizatora"


def log_in(page, live_server, tournament, url: str) -> None:
    """The tournament's organiser logs in and lands on ``url``."""
    organiser = UserFactory(username="organizator")
    organiser.set_password(PASSWORD)
    organiser.save()
    tournament.organisers.add(organiser)
    page.goto(live_server.url + reverse("login") + "?next=" + url)
    page.locator("#id_username").fill("organizator")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")


@pytest.mark.parametrize("page", ["desktop", "phone"], indirect=True)
def test_a_fixed_seat_holds_in_every_draw_and_the_printed_draw_comes_back_from_the_history(page, live_server):
    SHOTS.mkdir(exist_ok=True)
    width = page.viewport_size["width"]
    tournament = TournamentFactory(name="Turniej mikołajkowy", series_count=2)
    series_ensure(tournament=tournament)  # as creating a tournament does
    registrations = register_teams(tournament, teams=4, individuals=1)
    wheelchair = registrations[-1]
    url = reverse("tournaments:fixed_seats", args=[tournament.slug])
    log_in(page, live_server, tournament, url)

    page.get_by_label("Zawodnik").select_option(label=wheelchair.player.full_name)
    page.get_by_label("Stolik").fill("1")
    page.get_by_label("Powód").fill("wózek")
    page.get_by_role("button", name="Zapisz stałe miejsce").click()
    page.get_by_text(f"{wheelchair.player.full_name} ma stałe miejsce przy stoliku 1").wait_for()
    page.screenshot(path=str(SHOTS / f"fixed-seats-{width}.png"), full_page=True)
    accessible(page)
    assert fits_the_screen(page)
    assert FixedSeat.objects.get().table == 1

    page.get_by_role("link", name="Wróć do losowania").click()
    page.get_by_role("button", name="Rozlosuj wszystkie pozostałe serie").click()
    page.locator("#series-2").get_by_text("Ziarno losowania").wait_for()
    series = tournament.series.get(number=1)
    assert series.assignments.get(player=wheelchair.player).table == 1
    assert tournament.series.get(number=2).assignments.get(player=wheelchair.player).table == 1
    printed_seed = series.seed
    PrintJob.objects.create(series=series, kind=PrintJob.Kind.PROTOCOLS)
    pins = sorted(series.protocols.values_list("table", "pin"))
    draws.series_draw(tournament=tournament, numbers=[1], seed=686893)
    assert series.assignments.get(player=wheelchair.player).table == 1

    page.goto(live_server.url + reverse("tournaments:draw", args=[tournament.slug]))
    page.get_by_role("link", name="Historia losowań serii 1").click()
    printed = page.locator("li", has_text="wydrukowane")
    printed.wait_for()
    page.screenshot(path=str(SHOTS / f"history-{width}.png"), full_page=True)
    accessible(page)
    assert fits_the_screen(page)
    printed.get_by_label("Powód").fill("te protokoły już leżą na stolikach")
    printed.get_by_role("button", name=f"Przywróć to losowanie (ziarno {printed_seed})").click()
    page.get_by_text(f"Seria 1 ma z powrotem wcześniejsze losowanie (ziarno {printed_seed})").wait_for()
    page.screenshot(path=str(SHOTS / f"restored-{width}.png"), full_page=True)
    accessible(page)
    series.refresh_from_db()
    assert series.seed == printed_seed
    assert sorted(series.protocols.values_list("table", "pin")) == pins
    assert page.locator("li", has_text="obowiązuje").get_by_text("te protokoły już leżą na stolikach").count() == 1
