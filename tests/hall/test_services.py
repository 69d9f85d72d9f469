"""The series clock's services: start, pause with a reason, resume; every POST may be repeated."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from league.hall import services
from league.models import Series
from league.results.models import SeriesEvent

pytestmark = pytest.mark.django_db


def events(series):
    return list(SeriesEvent.objects.filter(series=series).values_list("action", "user__username", "reason"))


def test_starting_copies_the_tournaments_limit_and_a_second_start_keeps_the_first(series, referee, organiser):
    first = services.series_clock_start(series=series, user=referee)
    again = services.series_clock_start(series=series, user=organiser)

    assert first.clock_limit_minutes == 55
    assert again.clock_started_at == first.clock_started_at
    assert events(series) == [("started", "sedzia-sali", "")]


def test_a_tournament_without_a_limit_starts_a_clock_that_only_counts_up(series, referee):
    series.tournament.time_limit_minutes = None
    series.tournament.save()
    assert services.series_clock_start(series=series, user=referee).clock_limit_minutes is None


def test_a_closed_series_cannot_be_started(series, referee):
    Series.objects.filter(pk=series.pk).update(status=Series.Status.CLOSED)
    with pytest.raises(ValidationError):
        services.series_clock_start(series=series, user=referee)
    assert Series.objects.get(pk=series.pk).clock_started_at is None


def test_a_pause_needs_a_reason_and_without_one_changes_nothing(series, referee):
    services.series_clock_start(series=series, user=referee)
    with pytest.raises(ValidationError, match="reason"):
        services.series_clock_pause(series=series, user=referee, reason="  ")
    assert Series.objects.get(pk=series.pk).clock_paused_at is None
    assert [action for action, *_ in events(series)] == ["started"]


def test_a_clock_not_started_cannot_be_paused(series, referee):
    with pytest.raises(ValidationError, match="not been started"):
        services.series_clock_pause(series=series, user=referee, reason="spór przy stole 3")


def test_pausing_a_paused_clock_and_resuming_a_running_one_change_nothing(series, referee):
    services.series_clock_start(series=series, user=referee)
    paused = services.series_clock_pause(series=series, user=referee, reason="spór przy stole 3")
    again = services.series_clock_pause(series=series, user=referee, reason="inny powód")
    services.series_clock_resume(series=series, user=referee)
    services.series_clock_resume(series=series, user=referee)

    assert again.clock_paused_at == paused.clock_paused_at
    assert events(series) == [
        ("started", "sedzia-sali", ""),
        ("paused", "sedzia-sali", "spór przy stole 3"),
        ("resumed", "sedzia-sali", ""),
    ]


def test_resuming_adds_the_pause_to_the_time_that_does_not_count(series, referee):
    services.series_clock_start(series=series, user=referee)
    Series.objects.filter(pk=series.pk).update(clock_paused_at=timezone.now() - timedelta(minutes=7))

    resumed = services.series_clock_resume(series=series, user=referee)

    assert resumed.clock_paused_at is None
    assert timedelta(minutes=7) <= resumed.clock_paused_total < timedelta(minutes=7, seconds=5)


def test_the_clocks_events_show_in_every_protocols_history(client, series, referee):
    from league.results.history import protocol_history

    services.series_clock_start(series=series, user=referee)
    services.series_clock_pause(series=series, user=referee, reason="spór przy stole 3")

    history = protocol_history(protocol=series.protocols.get(table=2))
    assert [(entry.action, entry.why) for entry in history] == [
        ("series clock started", ""),
        ("series clock paused", "spór przy stole 3"),
    ]
