"""A league's calendar (kalendarz) as an iCalendar feed (RFC 5545), built with ``icalendar``.

One VEVENT per published tournament:

- **UID** ``<the tournament's stable id>@liga-baski``: the tournament's own (the exchange file's
  ``exchange_id``), whatever host serves the feed (the hall's laptop, the league's site), so a
  calendar that subscribed updates the event when the tournament changes instead of adding a
  second one;
- **DTSTART** the date and start time in Europe/Warsaw (where the leagues play), or the
  whole day (a DATE) while the organiser has set no start time; a timed event lasts its
  series at their time limit (an hour each where none is set), a guess good enough for a diary;
- **SEQUENCE** and **LAST-MODIFIED** from the tournament's ``updated``: the sequence counts
  the seconds from its creation to its last change, so it grows with every change as the
  RFC asks, without a counter of its own;
- **SUMMARY** the name, **LOCATION** the venue, **URL** the tournament's public page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

import icalendar

LEAGUE_TIME_ZONE = ZoneInfo("Europe/Warsaw")
PRODUCT = "-//Baśka League//Liga Baśki//PL"
# the length of a series in the calendar when the tournament sets no time limit
SERIES_WITHOUT_LIMIT = timedelta(hours=1)
CONTENT_TYPE = "text/calendar; charset=utf-8"


class CalendarTournament(Protocol):
    pk: int
    exchange_id: object
    name: str
    venue: str
    date: date
    start_time: object
    series_count: int
    time_limit_minutes: int | None
    created: datetime
    updated: datetime


UID_DOMAIN = "liga-baski"


def tournament_uid(*, stable_id: object) -> str:
    return f"{stable_id}@{UID_DOMAIN}"


def calendar_ics(
    *,
    name: str,
    tournaments: Iterable[CalendarTournament],
    url_of: Callable[[CalendarTournament], str],
    now: datetime,
) -> bytes:
    """The feed named ``name`` with one event per tournament; ``url_of`` gives a tournament's
    absolute public address, ``now`` the DTSTAMP."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", str(LEAGUE_TIME_ZONE))
    for tournament in tournaments:
        calendar.add_component(_event(tournament, url=url_of(tournament), now=now))
    calendar.add_missing_timezones()
    return calendar.to_ical()


def _event(tournament: CalendarTournament, *, url: str, now: datetime) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", tournament_uid(stable_id=tournament.exchange_id))
    event.add("dtstamp", now.astimezone(UTC))
    event.add("summary", tournament.name)
    if tournament.venue:
        event.add("location", tournament.venue)
    event.add("url", url)
    if tournament.start_time is None:
        event.add("dtstart", tournament.date)
    else:
        event.add("dtstart", datetime.combine(tournament.date, tournament.start_time, tzinfo=LEAGUE_TIME_ZONE))
        per_series = (
            timedelta(minutes=tournament.time_limit_minutes) if tournament.time_limit_minutes else SERIES_WITHOUT_LIMIT
        )
        event.add("duration", per_series * tournament.series_count)
    event.add("last-modified", tournament.updated.astimezone(UTC))
    event.add("sequence", max(0, int((tournament.updated - tournament.created).total_seconds())))
    return event
