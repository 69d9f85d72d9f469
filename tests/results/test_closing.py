"""Closing a series after a look at what is still open, reopening it with a reason, and undoing "complete"."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.hall.clock import Phase, clock_read
from league.hall.selectors import series_clock
from league.hall.services import series_clock_start
from league.models import Series, TableAssignment, Tournament
from league.results import services
from league.results.models import Protocol, ProtocolEvent, SeriesEvent
from league.standings.cache import stamps
from tests.factories import RegistrationFactory, UserFactory, drawn_series, game_settings_set
from tests.results.test_services import enter, finish

pytestmark = pytest.mark.django_db

PAPER = {"A": 31, "B": -11, "C": -9, "D": -11}
LINES = ["ac60", "bd+", "ac+", "zak+"]


@pytest.fixture
def referee(client):
    user = UserFactory(first_name="Józef", last_name="Sędzia")
    client.force_login(user)
    return user


@pytest.fixture
def series(referee):
    series = drawn_series(tables=2)
    for assignment in TableAssignment.objects.filter(series=series):
        RegistrationFactory(tournament=series.tournament, player=assignment.player)
    game_settings_set(series.tournament, deals_per_series=4)
    series.tournament.save()
    series.tournament.referees.add(referee)
    return series


def url(series, name, *args):
    return reverse(f"results:{name}", args=[series.tournament.slug, series.number, *args])


def confirm_all(series, referee):
    for protocol in series.protocols.order_by("table"):
        finish(enter(protocol, LINES, referee), referee, PAPER)


def closed(series, referee):
    confirm_all(series, referee)
    return services.series_close(series=series, user=referee)


def public_standings(client, series):
    return client.get(reverse("public:api_standings", args=[series.tournament.slug])).json()


def stamp(series):
    return stamps(Tournament.objects.filter(pk=series.tournament_id))[series.tournament_id]


def test_close_asks_first_and_lists_the_protocols_still_unconfirmed(client, series, referee):
    first, second = series.protocols.order_by("table")
    finish(enter(first, LINES, referee), referee, PAPER)
    enter(second, LINES[:2], referee)
    page = client.get(url(series, "close"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Table 2" in text and "being entered" in text and "Table 1:" not in text
    assert f'action="{url(series, "close")}"' not in text  # nothing to press while a table is open
    series.refresh_from_db()
    assert series.status == "in_play"


def test_the_series_page_asks_before_closing(client, series, referee):
    page = client.get(url(series, "series")).content.decode()
    assert f'href="{url(series, "close")}"' in page
    assert f'action="{url(series, "close")}"' not in page


def test_a_confirmed_series_closes_by_the_post_of_the_confirmation_page(client, series, referee):
    confirm_all(series, referee)
    page = client.get(url(series, "close")).content.decode()
    assert f'action="{url(series, "close")}"' in page and "All 2 tables are confirmed" in page
    assert client.post(url(series, "close")).status_code == 302
    series.refresh_from_db()
    assert series.status == "closed"
    event = SeriesEvent.objects.get(series=series)
    assert (event.action, event.user) == ("closed", referee)


def test_a_referee_reopens_a_closed_series_with_a_reason_and_the_standings_drop_it(client, series, referee):
    confirm_all(series, referee)
    while_played = public_standings(client, series)
    services.series_close(series=series, user=referee)
    when_closed, counted = stamp(series), public_standings(client, series)
    assert counted != while_played
    refused = client.post(url(series, "reopen"), {"reason": "  "}, follow=True)
    assert "Give the reason" in refused.content.decode()
    series.refresh_from_db()
    assert series.status == "closed"

    client.post(url(series, "reopen"), {"reason": "Table 2 disputes deal 3"})
    series.refresh_from_db()
    assert series.status == "in_play"
    assert stamp(series) != when_closed
    assert public_standings(client, series) == while_played
    reopened = SeriesEvent.objects.filter(series=series).last()
    assert (reopened.action, reopened.user, reopened.reason) == ("reopened", referee, "Table 2 disputes deal 3")

    client.post(url(series, "close"))
    series.refresh_from_db()
    assert series.status == "closed" and public_standings(client, series) == counted


def test_an_organiser_reopens_too_but_nobody_else(client, series, referee):
    closed(series, referee)
    outsider = UserFactory()
    client.force_login(outsider)
    assert client.post(url(series, "reopen"), {"reason": "why not"}).status_code == 403
    organiser = UserFactory()
    series.tournament.organisers.add(organiser)
    client.force_login(organiser)
    client.post(url(series, "reopen"), {"reason": "Wrong totals at table 1"})
    series.refresh_from_db()
    assert series.status == "in_play"


def test_only_a_closed_series_is_reopened(client, series, referee):
    response = client.post(url(series, "reopen"), {"reason": "test"}, follow=True)
    assert "Only a closed series" in response.content.decode()
    assert not SeriesEvent.objects.exists()


def test_the_referee_undoes_complete_from_the_protocol_page(client, series, referee):
    protocol = enter(series.protocols.get(table=1), LINES, referee)
    protocol = services.protocol_totals_set(
        protocol=protocol, totals=PAPER, expected_version=protocol.version, user=referee
    )
    protocol = services.protocol_complete(protocol=protocol, expected_version=protocol.version, seat="A", grant="g1")
    page = client.get(url(series, "protocol", 1)).content.decode()
    assert f'action="{url(series, "uncomplete", 1)}"' in page
    client.post(url(series, "uncomplete", 1), {"version": protocol.version})
    protocol.refresh_from_db()
    assert protocol.status == Protocol.Status.OPEN and protocol.completed_by_seat == ""
    event = protocol.events.last()
    assert (event.action, event.user) == (ProtocolEvent.Action.REOPENED, referee)


def test_undoing_complete_is_refused_once_the_series_is_closed(client, series, referee):
    closed(series, referee)
    protocol = series.protocols.get(table=1)
    response = client.post(url(series, "uncomplete", 1), {"version": protocol.version}, follow=True)
    assert "The series is closed" in response.content.decode()
    protocol.refresh_from_db()
    assert protocol.status == Protocol.Status.CONFIRMED


def played_for(series, span: timedelta) -> None:
    """The series' clock started ``span`` ago (the stored start moved back, as time passing would)."""
    Series.objects.filter(pk=series.pk).update(clock_started_at=timezone.now() - span)


def clock_at(series, later: timedelta):
    series.refresh_from_db()
    return clock_read(series_clock(series), now=timezone.now() + later)


def test_closing_a_series_stops_its_clock_at_the_final_time(series, referee):
    series_clock_start(series=series, user=referee)
    played_for(series, timedelta(minutes=48, seconds=52))

    closed(series, referee)

    at_close, an_hour_later = clock_at(series, timedelta(0)), clock_at(series, timedelta(hours=1))
    assert at_close.phase == an_hour_later.phase == Phase.STOPPED
    assert an_hour_later.elapsed == at_close.elapsed
    assert timedelta(minutes=48, seconds=52) <= at_close.elapsed < timedelta(minutes=49)


def test_a_reopened_series_clock_runs_on_from_the_time_it_stopped_at(series, referee):
    series_clock_start(series=series, user=referee)
    played_for(series, timedelta(minutes=40))
    closed(series, referee)
    # closed for 20 minutes
    SeriesEvent.objects.filter(series=series, action="closed").update(created=timezone.now() - timedelta(minutes=20))
    played_for(series, timedelta(minutes=60))

    services.series_reopen(series=series, user=referee, reason="Table 2 disputes deal 3")

    reading = clock_at(series, timedelta(minutes=5))
    assert reading.phase == Phase.RUNNING
    assert timedelta(minutes=45) <= reading.elapsed < timedelta(minutes=45, seconds=5)
