"""The league's iCalendar feed: it parses with ``icalendar``, one event per published tournament
with its place, start in Europe/Warsaw (or the whole day), public address, and a UID that stays
while the tournament changes and its sequence grows."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import icalendar
import pytest
from django.urls import reverse

from league.tournaments.services import tournament_update
from tests.factories import LeagueFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def events(client, url: str) -> dict[str, icalendar.Event]:
    response = client.get(url)
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = icalendar.Calendar.from_ical(response.content)
    return {str(event["summary"]): event for event in calendar.walk("VEVENT")}


@pytest.fixture
def league():
    return LeagueFactory(name="Złota Liga", slug="zlota-liga")


def test_each_published_tournament_is_an_event_with_its_place_start_and_public_address(client, league):
    timed = TournamentFactory(
        name="Mikołajkowy Turniej Baśki",
        date=date(2026, 12, 5),
        start_time=time(10, 0),
        venue="Kościerzyna, Klub Baśki",
        series_count=4,
        time_limit_minutes=55,
        league=league,
    )
    TournamentFactory(name="Wiosenny", date=date(2026, 3, 14), league=league)
    TournamentFactory(name="Szkic", published=False, league=league)
    TournamentFactory(name="Obcy")

    found = events(client, reverse("leagues:calendar_ics", args=[league.slug]))

    assert set(found) == {"Mikołajkowy Turniej Baśki", "Wiosenny"}
    event = found["Mikołajkowy Turniej Baśki"]
    assert str(event["location"]) == "Kościerzyna, Klub Baśki"
    assert event.decoded("dtstart") == datetime(2026, 12, 5, 10, 0, tzinfo=ZoneInfo("Europe/Warsaw"))
    assert event.decoded("dtstart").utcoffset().total_seconds() == 3600
    assert event.decoded("duration").total_seconds() == 4 * 55 * 60
    assert str(event["url"]) == "http://testserver" + reverse("public:tournament", args=[timed.slug])
    assert str(event["uid"]) == f"{timed.exchange_id}@liga-baski"
    assert found["Wiosenny"].decoded("dtstart") == date(2026, 3, 14)  # no start time: the whole day


def test_the_uid_stays_and_the_sequence_grows_when_the_tournament_changes(client, league):
    tournament = TournamentFactory(name="Turniej", date=date(2026, 12, 5), league=league, venue="Puck")
    announced = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)  # made a while ago, changed once since
    type(tournament).objects.filter(pk=tournament.pk).update(created=announced, updated=announced + timedelta(days=1))
    url = reverse("leagues:calendar_ics", args=[league.slug])
    before = events(client, url)["Turniej"]

    tournament.refresh_from_db()
    tournament_update(tournament=tournament, venue="Kartuzy", start_time=time(17, 0))
    after = events(client, url)["Turniej"]

    assert str(after["uid"]) == str(before["uid"])
    assert int(after["sequence"]) > int(before["sequence"])
    assert after.decoded("last-modified") > before.decoded("last-modified")
    assert str(after["location"]) == "Kartuzy"


def test_the_feed_of_every_league_lists_the_tournaments_of_all_leagues_only(client, league):
    TournamentFactory(name="W Złotej", league=league)
    TournamentFactory(name="W Srebrnej", league=LeagueFactory())
    TournamentFactory(name="Poza ligami")

    assert set(events(client, reverse("leagues:calendar_all_ics"))) == {"W Złotej", "W Srebrnej"}


def test_a_tournaments_uid_is_the_same_whichever_host_serves_the_feed(client, settings):
    """Issue 41: the UID carried the request's host, so the hall's laptop and the league's site
    gave one tournament two UIDs (two events in a phone's calendar)."""
    settings.ALLOWED_HOSTS = ["laptop.sala", "liga.example.org"]
    league = LeagueFactory()
    TournamentFactory(league=league, published=True)
    url = reverse("leagues:calendar_ics", args=[league.slug])
    uids = [
        [str(e["uid"]) for e in icalendar.Calendar.from_ical(client.get(url, HTTP_HOST=host).content).walk("VEVENT")]
        for host in settings.ALLOWED_HOSTS
    ]
    assert uids[0] == uids[1] and len(uids[0]) == 1


def test_a_calendar_app_gets_the_feed_compressed_may_keep_it_and_then_asks_with_a_bodiless_304(client, league):
    """Issue 40: phones' calendars poll the feed all day; it was built on every request and sent
    uncompressed, with nothing a calendar app could keep or ask again with."""
    TournamentFactory(league=league, published=True, name="Puchar Pucka")
    url = reverse("leagues:calendar_ics", args=[league.slug])
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == "gzip"
    assert first["Content-Type"] == "text/calendar; charset=utf-8"
    assert "max-age=900" in first["Cache-Control"] and "public" in first["Cache-Control"]
    assert first["ETag"] and first["Last-Modified"]
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""


def test_a_changed_tournament_is_in_the_next_feed_and_the_old_copy_is_no_longer_current(client, league):
    tournament = TournamentFactory(league=league, published=True, name="Puchar Pucka")
    url = reverse("leagues:calendar_ics", args=[league.slug])
    first = client.get(url)
    tournament_update(tournament=tournament, name="Puchar Helu")
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert [str(e["summary"]) for e in icalendar.Calendar.from_ical(changed.content).walk("VEVENT")] == ["Puchar Helu"]
