"""In a real browser, at 1366 px and 390 px: the control room updates by itself when a referee in
another browser saves a deal, and its clock runs out to "Koniec czasu" and offers the organiser
to stop the tables still playing."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from league.models import Series
from league.results.models import Protocol
from tests.browser.conftest import VIEWPORTS, fits_the_screen
from tests.factories import TournamentFactory, UserFactory, drawn_series

pytestmark = pytest.mark.django_db(transaction=True)


SHOTS = Path("/tmp/shots/hall")
PASSWORD = "haslo-sali"


def person(username: str):
    user = UserFactory(username=username)
    user.set_password(PASSWORD)
    user.save()
    return user


def log_in(page, live_server, username: str, next_url: str) -> None:
    page.goto(live_server.url + reverse("login") + "?next=" + next_url)
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")
    page.wait_for_url(re.compile(re.escape(next_url) + "$"))


def viewport_name(page) -> str:
    return next(name for name, size in VIEWPORTS.items() if size["width"] == page.viewport_size["width"])


def blocked_by_policy(page) -> list[str]:
    """Console messages of the Content-Security-Policy refusing something, gathered from now on."""
    refused: list[str] = []
    page.on("console", lambda message: "Content Security Policy" in message.text and refused.append(message.text))
    return refused


def test_the_control_room_shows_a_deal_saved_in_another_browser_within_5_seconds(page, live_server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    tournament = TournamentFactory(time_limit_minutes=55)
    series = drawn_series(tournament, tables=6)
    referee = person("sedzia-sali")
    tournament.referees.add(referee)
    room = reverse("hall:room", args=[tournament.slug, series.number])
    refused = blocked_by_policy(page)
    log_in(page, live_server, "sedzia-sali", room)
    page.get_by_role("button", name="Start serii").click()
    expect(page.get_by_text("Seria rozpoczęta; zegar chodzi.")).to_be_visible()
    row = page.locator('tr[data-table="3"]')
    expect(row).to_contain_text("0/40")
    expect(row).to_contain_text("nierozpoczęty")

    # a second referee's browser types deal 1 of table 3 on its protocol page
    other = page.context.browser.new_context(viewport=page.viewport_size, locale="pl-PL")
    writer = other.new_page()
    protocol_url = reverse("results:protocol", args=[tournament.slug, series.number, 3])
    log_in(writer, live_server, "sedzia-sali", protocol_url)
    writer.locator("#id_line").fill("ac60")
    writer.locator("#id_line").press("Enter")
    writer.locator("#sheet tbody tr").nth(1).wait_for()
    other.close()

    expect(row).to_contain_text("1/40", timeout=5000)
    expect(row).to_contain_text("w grze")
    expect(page.get_by_text("Otwarte stoliki: 6 z 6")).to_be_visible()
    assert fits_the_screen(page)
    assert refused == []
    page.screenshot(path=str(SHOTS / f"room-{viewport_name(page)}.png"), full_page=True)
    row.get_by_role("link", name="Stolik 3").click()
    expect(page).to_have_url(re.compile(re.escape(protocol_url) + "$"))


def test_the_clock_reaches_zero_and_the_organiser_stops_the_tables_still_playing(page, live_server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    tournament = TournamentFactory(time_limit_minutes=10)
    series = drawn_series(tournament, tables=3)
    Protocol.objects.filter(series=series, table=2).update(status="confirmed")
    organiser = person("organizator-sali")
    tournament.organisers.add(organiser)
    room = reverse("hall:room", args=[tournament.slug, series.number])
    log_in(page, live_server, "organizator-sali", room)
    Series.objects.filter(pk=series.pk).update(
        clock_started_at=timezone.now() - timedelta(minutes=9, seconds=57), clock_limit_minutes=10
    )
    page.goto(live_server.url + room)

    clock = page.locator("#hall-clock")
    expect(clock).to_contain_text("Zostało 5 minut")
    expect(clock).to_have_class(re.compile(r"\bphase-five\b"))
    page.screenshot(path=str(SHOTS / f"clock-five-{viewport_name(page)}.png"))
    expect(clock).to_contain_text("Koniec czasu", timeout=8000)
    expect(clock.locator("[data-clock-time]")).to_have_text("0:00")
    expect(clock).to_have_class(re.compile(r"\bphase-over\b"))
    stop = page.get_by_role("link", name="Przerwij 2 stoliki, które jeszcze grają")
    expect(stop).to_be_visible(timeout=5000)
    assert fits_the_screen(page)
    page.screenshot(path=str(SHOTS / f"clock-over-{viewport_name(page)}.png"), full_page=True)

    stop.click()
    expect(page.get_by_role("heading", name=re.compile("koniec czasu"))).to_be_visible()
    assert not Protocol.objects.filter(series=series, ended_early=True).exists()
    page.screenshot(path=str(SHOTS / f"time-up-{viewport_name(page)}.png"), full_page=True)
    page.get_by_role("button", name="Przerwij 2 stoliki z powodu limitu czasu").click()

    expect(page.get_by_text("Przerwane z powodu limitu czasu: stoliki 1, 3.")).to_be_visible()
    assert sorted(Protocol.objects.filter(series=series, ended_early=True).values_list("table", flat=True)) == [1, 3]
    expect(page.locator('tr[data-table="1"]')).to_contain_text("przerwane z powodu limitu czasu")
