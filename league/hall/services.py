"""The series clock's changes and the end of time: :func:`series_clock_start`, :func:`series_clock_pause`,
:func:`series_clock_resume` and :func:`series_time_up_stop`.

Each is logged as a :class:`~league.results.models.SeriesEvent` (who, when, and for a pause why), so it
also shows in the history of every protocol of the series. Each is idempotent, as a network retry may
repeat it: starting a started clock keeps the first start, pausing a paused clock or resuming a running
one changes nothing, and stopping the tables a second time finds none left to stop. The caller checked
the role (the control room's doors): a referee or organiser for the clock, the organiser to stop tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from league.models import Series
from league.results.models import Protocol, ProtocolEvent, SeriesEvent

from .clock import Phase, clock_read
from .selectors import series_clock

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

PLAYED = (Series.Status.DRAWN, Series.Status.IN_PLAY)


def _locked(series: Series) -> Series:
    """The series fresh and locked for this transaction, with its tournament (the clock's limit)."""
    return Series.objects.select_for_update().select_related("tournament").get(pk=series.pk)


def _log(series: Series, action: str, user: AbstractBaseUser, reason: str = "") -> None:
    SeriesEvent.objects.create(series=series, action=action, user=user, reason=reason)


@transaction.atomic
def series_clock_start(*, series: Series, user: AbstractBaseUser) -> Series:
    """Start the series' clock now, with the tournament's time limit (none: the clock only counts up)."""
    series = _locked(series)
    if series.clock_started_at is not None:
        return series
    if series.status not in PLAYED:
        raise ValidationError(_("Only a drawn series that is not closed can be started."), code="status")
    series.clock_started_at = timezone.now()
    series.clock_limit_minutes = series.tournament.time_limit_minutes
    series.save(update_fields=["clock_started_at", "clock_limit_minutes"])
    _log(series, SeriesEvent.Action.STARTED, user)
    return series


@transaction.atomic
def series_clock_pause(*, series: Series, user: AbstractBaseUser, reason: str) -> Series:
    """Stop the clock, e.g. for a dispute at a table; the reason is required and logged."""
    if not reason.strip():
        raise ValidationError(_("Give the reason for the pause."), code="reason")
    series = _locked(series)
    if series.clock_started_at is None:
        raise ValidationError(_("The clock has not been started yet."), code="not_started")
    if series.clock_paused_at is not None:
        return series
    series.clock_paused_at = timezone.now()
    series.save(update_fields=["clock_paused_at"])
    _log(series, SeriesEvent.Action.PAUSED, user, reason.strip())
    return series


@transaction.atomic
def series_clock_resume(*, series: Series, user: AbstractBaseUser) -> Series:
    """Let the paused clock run again; the pause no longer counts as playing time."""
    series = _locked(series)
    if series.clock_paused_at is None:
        return series
    series.clock_paused_total += timezone.now() - series.clock_paused_at
    series.clock_paused_at = None
    series.save(update_fields=["clock_paused_total", "clock_paused_at"])
    _log(series, SeriesEvent.Action.RESUMED, user)
    return series


@transaction.atomic
def series_time_up_stop(*, series: Series, user: AbstractBaseUser, tables: Iterable[int]) -> list[int]:
    """Mark the protocols of ``tables`` still being entered as "przerwane z powodu limitu czasu"
    (stopped by the time limit); returns the tables marked, in order.

    ``tables`` are the ones the organiser saw listed and confirmed; a table of them that has been
    completed since is left alone, as is every table not listed. Refused before the time is up.
    Each marked protocol gets a new version (a page opened before must be reloaded) and a
    :class:`~league.results.models.ProtocolEvent`; the table then enters its paper's totals and
    completes the protocol as stopped, with the score at that moment.
    """
    series = _locked(series)
    if clock_read(series_clock(series), now=timezone.now()).phase != Phase.TIME_UP:
        raise ValidationError(_("The time of this series is not up yet."), code="not_up")
    if series.status not in PLAYED:
        raise ValidationError(_("The series is closed: its protocols are accepted already."), code="closed")
    protocols = list(
        series.protocols.select_for_update()
        .filter(table__in=list(tables), status=Protocol.Status.OPEN, ended_early=False)
        .order_by("table")
    )
    if not protocols:
        return []
    Protocol.objects.filter(pk__in=[p.pk for p in protocols]).update(
        ended_early=True, version=F("version") + 1, updated=timezone.now()
    )
    ProtocolEvent.objects.bulk_create(
        ProtocolEvent(protocol=protocol, action=ProtocolEvent.Action.TIME_LIMIT, user=user) for protocol in protocols
    )
    _log(series, SeriesEvent.Action.TIME_UP, user)  # which tables: their protocols' events say
    return [protocol.table for protocol in protocols]
