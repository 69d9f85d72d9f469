"""In a real browser, at 1366 px and 390 px: the control room's clock, running while the series is played, stops when
a referee closes the series and says when; it shows the final time and no longer moves."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from league.hall.services import series_clock_start
from league.models import Series, TableAssignment
from league.results import services
from league.results.models import SeriesEvent
from tests.browser.test_control_room import log_in, person
from tests.factories import RegistrationFactory, TournamentFactory, drawn_series
from tests.results.test_closing import confirm_all

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_control_rooms_clock_stops_when_the_series_is_closed(page, live_server):
    tournament = TournamentFactory(time_limit_minutes=55, deals_per_series=4)
    series = drawn_series(tournament, tables=2)
    for assignment in TableAssignment.objects.filter(series=series):  # closing counts the players' standings
        RegistrationFactory(tournament=tournament, player=assignment.player)
    referee = person("sedzia-zegara")
    tournament.referees.add(referee)
    confirm_all(series, referee)
    series_clock_start(series=series, user=referee)
    Series.objects.filter(pk=series.pk).update(clock_started_at=timezone.now() - timedelta(minutes=48))
    room = reverse("hall:room", args=[tournament.slug, series.number])
    log_in(page, live_server, "sedzia-zegara", room)
    clock = page.locator("#hall-clock")
    expect(clock).to_contain_text("Zostało 10 minut")

    services.series_close(series=series, user=referee)

    closed_at = timezone.localtime(SeriesEvent.objects.get(series=series, action="closed").created).strftime("%H:%M")
    expect(clock).to_contain_text(f"Seria zamknięta o {closed_at}", timeout=10000)
    time = page.locator("[data-clock-time]")
    expect(time).to_have_text(re.compile(r"^48:\d\d$"))  # the time played, not the 7 minutes left
    final = time.text_content()
    page.wait_for_timeout(2500)
    expect(time).to_have_text(final)
