"""The series clock read at a moment: start, pauses, resume, the warnings at 10 and 5 minutes, zero, no limit."""

from datetime import UTC, datetime, timedelta

import pytest

from league.hall.clock import Clock, Face, Phase, clock_face, clock_read, clock_text

START = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)


def at(minutes: float, seconds: float = 0) -> datetime:
    return START + timedelta(minutes=minutes, seconds=seconds)


def mins(minutes: float, seconds: float = 0) -> timedelta:
    return timedelta(minutes=minutes, seconds=seconds)


# clock, now → phase, elapsed, remaining (None: no limit), ends at (None: the browser has nothing to count to)
CASES = [
    ("not started, 55 minutes", Clock(limit_minutes=55), at(3), Phase.NOT_STARTED, mins(0), mins(55), None),
    ("not started, no limit", Clock(), at(3), Phase.NOT_STARTED, mins(0), None, None),
    ("just started", Clock(START, 55), at(0), Phase.RUNNING, mins(0), mins(55), at(55)),
    ("20 minutes in", Clock(START, 55), at(20), Phase.RUNNING, mins(20), mins(35), at(55)),
    ("10 minutes and a second left", Clock(START, 55), at(44, 59), Phase.RUNNING, mins(44, 59), mins(10, 1), at(55)),
    ("10 minutes left", Clock(START, 55), at(45), Phase.TEN_MINUTES, mins(45), mins(10), at(55)),
    ("6 minutes left", Clock(START, 55), at(49), Phase.TEN_MINUTES, mins(49), mins(6), at(55)),
    ("5 minutes left", Clock(START, 55), at(50), Phase.FIVE_MINUTES, mins(50), mins(5), at(55)),
    ("a second left", Clock(START, 55), at(54, 59), Phase.FIVE_MINUTES, mins(54, 59), mins(0, 1), at(55)),
    ("zero", Clock(START, 55), at(55), Phase.TIME_UP, mins(55), mins(0), at(55)),
    ("past zero stays at zero", Clock(START, 55), at(70), Phase.TIME_UP, mins(70), mins(0), at(55)),
    (
        "paused at minute 20, read at minute 30",
        Clock(START, 55, paused_at=at(20)),
        at(30),
        Phase.RUNNING,
        mins(20),
        mins(35),
        None,
    ),
    (
        "resumed after a 7-minute pause: the end moves by 7 minutes",
        Clock(START, 55, paused_total=mins(7)),
        at(30),
        Phase.RUNNING,
        mins(23),
        mins(32),
        at(62),
    ),
    (
        "a second pause after a first one",
        Clock(START, 55, paused_at=at(40), paused_total=mins(7)),
        at(50),
        Phase.RUNNING,
        mins(33),
        mins(22),
        None,
    ),
    (
        "paused within the last 5 minutes keeps the warning",
        Clock(START, 55, paused_at=at(52)),
        at(60),
        Phase.FIVE_MINUTES,
        mins(52),
        mins(3),
        None,
    ),
    ("no limit counts up", Clock(START, None), at(80), Phase.RUNNING, mins(80), None, None),
    (
        "no limit, paused",
        Clock(START, None, paused_at=at(30), paused_total=mins(5)),
        at(80),
        Phase.RUNNING,
        mins(25),
        None,
        None,
    ),
]


@pytest.mark.parametrize(
    ("clock", "now", "phase", "elapsed", "remaining", "ends_at"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_the_clock_read_at_a_moment(clock, now, phase, elapsed, remaining, ends_at):
    reading = clock_read(clock, now=now)
    assert (reading.phase, reading.elapsed, reading.remaining, reading.ends_at) == (phase, elapsed, remaining, ends_at)
    assert reading.paused == clock.paused


@pytest.mark.parametrize(
    ("span", "counting_down", "shown"),
    [
        (mins(55), True, "55:00"),
        (mins(54, 59.2), True, "55:00"),  # counting down, a started second still shows
        (mins(0, 0.4), True, "0:01"),  # "0:00" only at zero
        (mins(0), True, "0:00"),
        (mins(9, 59.9), False, "9:59"),
        (mins(65), False, "1:05:00"),
    ],
)
def test_the_clock_shows_minutes_and_seconds(span, counting_down, shown):
    assert clock_text(span, counting_down=counting_down) == shown


def test_a_closed_series_clock_stands_at_its_final_time_however_late_it_is_read():
    closed_at_minute_48 = Clock(START, 55, stopped_at=at(48, 52))

    readings = [clock_read(closed_at_minute_48, now=now) for now in (at(48, 52), at(70), at(600))]

    assert {(r.phase, r.elapsed, r.ends_at) for r in readings} == {(Phase.STOPPED, mins(48, 52), None)}
    assert clock_face(readings[-1], now=at(600)) == Face("48:52", None, None)


def test_a_clock_paused_before_the_close_stands_at_the_pause():
    reading = clock_read(Clock(START, None, paused_at=at(30), stopped_at=at(40)), now=at(90))

    assert (reading.phase, reading.elapsed) == (Phase.STOPPED, mins(30))
