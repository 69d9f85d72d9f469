"""Reads of the control room ("sala"): every table of a series at a glance, and the validator
that lets a poll of an unchanged room be answered with a bodiless 304.

Words used here:

- **stan stołu** (table state): not started (no deal yet), playing, stopped by the time limit,
  complete (awaiting confirmation), confirmed, or **niezgodne sumy** (paper-totals mismatch: the
  totals typed from the paper's last line differ from the sum of the rows, as
  :func:`league.results.selectors.totals_difference` decides); a table whose game reads its own
  progress also **over** (its game ended before the count) or **closed** by the players' agreement.
- **postęp** (progress): a table's rows entered of the series' count, or the game's own steps
  (``GameRules.series_progress``, a ``TableProgress``), as the referees' overview reads it
  (:func:`league.results.selectors.series_tables`).
- **offline**: a table whose phone reported deals waiting to be sent (issue 15's offline table
  scoring), or whose phones' heartbeat went quiet (:func:`league.results.table.queue.protocol_contacts`).
- **spóźniony stół** (late table): a table still being entered that is more than N minutes
  behind the median progress. Precisely: the median table has entered *m* deals (the median
  of every table's count) in the clock's playing time *t* (pauses left out), so the median pace
  is *t / m* minutes a deal; a table with *k* deals is *(m − k) · t / m* minutes behind, and
  late when that is more than N. Before the clock is started, or while the median table has
  no deal yet, there is no pace and no table is late. A game's own steps stand for the deals
  (every table counts to the same), and a table closed by agreement counts as over.
"""

from __future__ import annotations

import dataclasses
import enum
import statistics
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Max, OuterRef, Subquery, Sum
from django.utils.translation import gettext_lazy as _

from league.games import game_of
from league.games.base import GameWords, TableProgress
from league.models import Series, Tournament
from league.results.models import PhoneContact, Protocol, SeriesEvent
from league.results.selectors import series_closed_at, series_tables
from league.results.table.queue import Contact, protocol_contacts
from scoring import SEATS

from .clock import Clock, Reading, clock_read

DEFAULT_LATE_MINUTES = 5


class TableState(enum.Enum):
    NOT_STARTED = "not_started"
    PLAYING = "playing"
    OVER = "over"  # the game ended before the count (TableProgress.finished), not yet completed
    CLOSED = "closed"  # closed by the players' agreement (TableProgress.closed), not yet completed
    STOPPED = "stopped"  # by the time limit, not yet completed
    COMPLETE = "complete"
    CONFIRMED = "confirmed"
    MISMATCH = "mismatch"

    def label(self, words: GameWords) -> str:
        """The state in words; a game's own states (over, closed) in its ``words``."""
        own = {TableState.OVER: words.over, TableState.CLOSED: words.closed}
        return str(own.get(self) or STATE_LABELS[self])


STATE_LABELS = {
    TableState.NOT_STARTED: _("not started"),
    TableState.PLAYING: _("playing"),
    TableState.OVER: _("played out"),
    TableState.CLOSED: _("closed by agreement"),
    TableState.STOPPED: _("stopped by the time limit"),
    TableState.COMPLETE: _("complete, awaiting confirmation"),
    TableState.CONFIRMED: _("confirmed"),
    TableState.MISMATCH: _("paper totals differ"),
}


def series_clock(series: Series) -> Clock:
    """The series' clock; before the start it shows the tournament's limit, which the start copies."""
    started = series.clock_started_at is not None
    return Clock(
        started_at=series.clock_started_at,
        limit_minutes=series.clock_limit_minutes if started else series.tournament.time_limit_minutes,
        paused_at=series.clock_paused_at,
        paused_total=series.clock_paused_total,
        stopped_at=series_closed_at(series),
    )


def room_figures() -> dict[str, Any]:
    """Annotations of a series with the figures that move whenever a table changes: every write of
    a protocol bumps its version and its ``updated`` (``league.results.services``), every phone's
    report its time, closing the series stops its clock; what :func:`room_validator` reads."""
    # the phones' reports in subqueries: joined, they would multiply the sum of versions
    reports = PhoneContact.objects.filter(protocol__series=OuterRef("pk")).order_by().values("protocol__series")
    closings = SeriesEvent.objects.filter(series=OuterRef("pk"), action=SeriesEvent.Action.CLOSED)
    closings = closings.order_by().values("series")
    return {
        "protocol_count": Count("protocols"),
        "protocol_versions": Sum("protocols__version"),
        "protocols_updated": Max("protocols__updated"),
        "phones_seen": Subquery(reports.annotate(last=Max("seen_at")).values("last")),
        "phones_waiting": Subquery(reports.annotate(waiting=Sum("waiting")).values("waiting")),
        "closed_at": Subquery(closings.annotate(last=Max("created")).values("last")),
    }


def room_series(*, tournament: Tournament, number: int) -> Series | None:
    """The series with, in the same query, the figures of :func:`room_figures`."""
    series = Series.objects.filter(tournament=tournament, number=number).annotate(**room_figures()).first()
    if series is not None:
        series.tournament = tournament
    return series


def room_validator(*, series: Series, now: datetime) -> tuple[object, ...]:
    """What the control room shows depends on, for its ETag: the tables' writes and the clock as read
    by :func:`room_series`, the tournament's settings (the limit before the start, the deals of a
    series), the clock's phase (a warning appears without any write), the minute (the time since
    each table's last deal and who is late move with it) and the heartbeat (a silent phone turns offline)."""
    reading = clock_read(series_clock(series), now=now)
    return (
        series.pk,
        series.tournament.updated,
        series.status,
        series.protocol_count,
        series.protocol_versions,
        series.protocols_updated,
        series.phones_seen,
        series.phones_waiting,
        series.clock_started_at,
        series.clock_limit_minutes,
        series.clock_paused_at,
        series.clock_paused_total,
        series.closed_at,
        reading.phase.value,
        int(now.timestamp() // 60),
        # a phone's silence becomes "offline" between two reports: looked at once a heartbeat
        int(now.timestamp() // settings.TABLE_HEARTBEAT_SECONDS),
    )


@dataclass(frozen=True)
class RoomTable:
    """One table on the control room; ``deals`` counts its rows (whatever the game's rows are)."""

    protocol: Protocol
    deals: int
    progress: TableProgress
    state: TableState
    state_label: str  # the state in words, the game's own where it has them
    last_deal_at: datetime | None
    since_last_deal: timedelta | None
    behind_minutes: float | None  # at the median pace; None without a pace
    late: bool
    contact: Contact | None = None  # what the table's phone last reported, if it did

    @property
    def table(self) -> int:
        return self.protocol.table

    @property
    def minutes_since_last_deal(self) -> int | None:
        return None if self.since_last_deal is None else int(self.since_last_deal.total_seconds() // 60)

    @property
    def playing(self) -> bool:
        """Still being played: what the end of time stops (a table over or closed is played out)."""
        return (
            self.protocol.status == Protocol.Status.OPEN
            and not self.protocol.ended_early
            and self.state not in (TableState.OVER, TableState.CLOSED)
        )


@dataclass(frozen=True)
class Room:
    """The control room of one series: its clock, every table in table order, and the late filter.

    ``median`` is the median table's progress (deals, or the game's own steps), ``None`` without tables;
    ``late_minutes`` is N of the late filter; ``only_late`` shows the late tables alone;
    ``pause_reason`` says why the clock stands, while it does.
    """

    series: Series
    clock: Reading
    tables: list[RoomTable]
    median: float | None
    late_minutes: int
    only_late: bool
    pause_reason: str = ""

    @property
    def shown(self) -> list[RoomTable]:
        return [t for t in self.tables if t.late] if self.only_late else self.tables

    @property
    def progress_of(self) -> int | None:
        """What every table's progress counts to (a series' deals, or the game's own steps); None without tables."""
        return self.tables[0].progress.of if self.tables else None

    @property
    def open_count(self) -> int:
        """Tables still being entered (not started or playing, with or without a mismatch)."""
        return sum(t.protocol.status == Protocol.Status.OPEN for t in self.tables)

    @property
    def late_count(self) -> int:
        return sum(t.late for t in self.tables)

    @property
    def playing_tables(self) -> list[RoomTable]:
        """The tables the end of time would stop: still being played and not stopped yet."""
        return [t for t in self.tables if t.playing]


def _state(protocol: Protocol, deals: int, totals: dict[str, int] | None, progress: TableProgress) -> TableState:
    if protocol.declared_totals is not None:
        computed = totals or dict.fromkeys(SEATS, 0)
        if any(protocol.declared_totals.get(seat, 0) != computed.get(seat, 0) for seat in SEATS):
            return TableState.MISMATCH
    if protocol.status == Protocol.Status.CONFIRMED:
        return TableState.CONFIRMED
    if protocol.status == Protocol.Status.COMPLETE:
        return TableState.COMPLETE
    if protocol.ended_early:
        return TableState.STOPPED
    if progress.closed:
        return TableState.CLOSED
    if progress.finished:
        return TableState.OVER
    return TableState.PLAYING if deals else TableState.NOT_STARTED


def _shown(progress: TableProgress) -> TableProgress:
    """The progress the room shows: steps past the count (a game's own steps over its total) do not count."""
    return dataclasses.replace(progress, done=min(progress.done, progress.of))


def _paced(progress: TableProgress) -> int:
    """The table's progress for the pace: a game closed by agreement takes no more deals, so it counts as full."""
    return progress.of if progress.closed else progress.done


def series_room(*, series: Series, now: datetime, late_minutes: int, only_late: bool = False) -> Room:
    """The control room of ``series`` at ``now``, in three queries (four while paused) whatever the number of tables;
    a game with its own progress adds what :func:`league.results.selectors.series_tables` reads of it."""
    reading = clock_read(series_clock(series), now=now)
    summaries = series_tables(series=series)
    contacts = protocol_contacts(series=series, now=now)
    progress = {s.protocol.pk: _shown(s.progress) for s in summaries}
    paced = {s.protocol.pk: _paced(progress[s.protocol.pk]) for s in summaries}
    median = statistics.median(paced.values()) if summaries else None
    minutes_per_step = reading.elapsed.total_seconds() / 60 / median if reading.elapsed and median else None
    words = game_of(series.tournament).words
    tables = []
    for summary in summaries:
        protocol = summary.protocol
        last = summary.last_row
        behind = None if minutes_per_step is None else (median - paced[protocol.pk]) * minutes_per_step
        state = _state(protocol, summary.count, summary.totals, summary.progress)
        tables.append(
            RoomTable(
                protocol=protocol,
                deals=summary.count,
                progress=progress[protocol.pk],
                state=state,
                state_label=state.label(words),
                last_deal_at=last,
                since_last_deal=None if last is None else max(now - last, timedelta(0)),
                behind_minutes=behind,
                late=protocol.status == Protocol.Status.OPEN and behind is not None and behind > late_minutes,
                contact=contacts.get(protocol.table),
            )
        )
    pause_reason = ""
    if reading.paused:  # a third query, only while paused
        pause = series.closing_events.filter(action=SeriesEvent.Action.PAUSED).order_by("-created", "-pk").first()
        pause_reason = pause.reason if pause else ""
    return Room(series, reading, tables, median, late_minutes, only_late, pause_reason)
