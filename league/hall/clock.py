"""The series clock ("zegar serii"): how long a series has been played and how much time is left.

Pure Python, no Django: the services store a clock's four facts on the series, this module
reads them at a given moment. Words:

- **start** (start serii): the moment the organiser or referee started the clock; it is kept
  when started again.
- **limit** (limit czasu): the minutes a series may last, copied from the tournament at the
  start; ``None`` is a clock without a limit, which only counts up.
- **pauza** (pause): a span during which the clock stands still; ``paused_total`` holds the
  pauses already over, ``paused_at`` the start of the one in progress.
- **zatrzymanie** (stop): closing the series stops its clock for good at ``stopped_at``; reopening
  the series lets it run on from the time it showed.
- **ostrzeżenie** (warning): 10 and 5 minutes before the end; at the end the time is up
  ("koniec czasu").
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta

WARNINGS_MINUTES = (10, 5)


class Phase(enum.Enum):
    """What the clock shows; a change of phase changes the control room even when no deal was saved."""

    NOT_STARTED = "not_started"
    RUNNING = "running"
    TEN_MINUTES = "ten"  # 10 minutes or less left
    FIVE_MINUTES = "five"  # 5 minutes or less left
    TIME_UP = "over"
    STOPPED = "stopped"  # the series is closed: no warnings, the final time


@dataclass(frozen=True)
class Clock:
    """A series clock as stored: the start, the limit, the pause in progress and the pauses over."""

    started_at: datetime | None = None
    limit_minutes: int | None = None
    paused_at: datetime | None = None
    paused_total: timedelta = timedelta(0)
    stopped_at: datetime | None = None

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


@dataclass(frozen=True)
class Reading:
    """The clock read at one moment.

    ``elapsed``: playing time so far, pauses left out; ``remaining``: time left before the limit
    (never below zero; ``None`` without a limit); ``ends_at``: when the time will be up if no pause
    comes, for the browser to count down to (``None`` while paused or stopped, without a limit or before
    the start); ``stopped_at``: when closing the series stopped the clock (``None`` while it is not closed).
    """

    phase: Phase
    elapsed: timedelta
    remaining: timedelta | None
    ends_at: datetime | None
    paused: bool
    limit_minutes: int | None
    stopped_at: datetime | None = None


def clock_read(clock: Clock, *, now: datetime) -> Reading:
    """``clock`` at the moment ``now``."""
    if clock.started_at is None:
        limit = clock.limit_minutes
        return Reading(
            Phase.NOT_STARTED, timedelta(0), None if limit is None else timedelta(minutes=limit), None, False, limit
        )
    # a pause still in progress when the series was closed stood the clock first
    standing_since = min((moment for moment in (clock.paused_at, clock.stopped_at) if moment), default=now)
    elapsed = max(standing_since - clock.started_at - clock.paused_total, timedelta(0))
    if clock.limit_minutes is None:
        phase = Phase.STOPPED if clock.stopped_at else Phase.RUNNING
        return Reading(phase, elapsed, None, None, clock.paused, None, clock.stopped_at)
    limit = timedelta(minutes=clock.limit_minutes)
    remaining = max(limit - elapsed, timedelta(0))
    standing = clock.paused or clock.stopped_at is not None
    ends_at = None if standing else clock.started_at + clock.paused_total + limit
    phase = Phase.STOPPED if clock.stopped_at else clock_phase(remaining)
    return Reading(phase, elapsed, remaining, ends_at, clock.paused, clock.limit_minutes, clock.stopped_at)


def clock_phase(remaining: timedelta) -> Phase:
    """The warning that ``remaining`` time left calls for (the browser's countdown mirrors it)."""
    if remaining <= timedelta(0):
        return Phase.TIME_UP
    ten, five = (timedelta(minutes=minutes) for minutes in WARNINGS_MINUTES)
    if remaining <= five:
        return Phase.FIVE_MINUTES
    if remaining <= ten:
        return Phase.TEN_MINUTES
    return Phase.RUNNING


def clock_text(span: timedelta, *, counting_down: bool = True) -> str:
    """A span as the clock shows it, "54:59" or "1:05:00". Counting down, seconds are rounded up,
    so "0:00" appears only when the time is up; counting up, they are rounded down."""
    seconds = span.total_seconds()
    seconds = -int(-seconds // 1) if counting_down else int(seconds)
    hours, rest = divmod(max(seconds, 0), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


@dataclass(frozen=True)
class Face:
    """A clock as a page draws it (tarcza, the clock face): the time shown as of the server's answer, and
    what the browser counts from afterwards (``static/js/hall.js``): the end in ms since the epoch, or,
    without a limit, the moment the playing time began (the start less the pauses); neither while the
    clock stands (not started, paused or stopped). A stopped clock shows the series' final playing time."""

    text: str
    ends_ms: int | None
    counts_from_ms: int | None


def clock_face(reading: Reading, *, now: datetime) -> Face:
    """The face of the clock read as ``reading`` at ``now``."""
    counting_down = reading.remaining is not None and reading.phase != Phase.STOPPED
    text = clock_text(reading.remaining if counting_down else reading.elapsed, counting_down=counting_down)
    ends_ms = int(reading.ends_at.timestamp() * 1000) if reading.ends_at else None
    running_up = reading.phase not in (Phase.NOT_STARTED, Phase.STOPPED) and not counting_down and not reading.paused
    counts_from_ms = int((now - reading.elapsed).timestamp() * 1000) if running_up else None
    return Face(text, ends_ms, counts_from_ms)
