"""The draw history (historia losowań) of a series: every version of its draw with who, when and
why, the printed one marked; any of them can be restored, with its PINs, once and only while no
deal of the series is entered."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.models import DrawLog, Series
from league.printing.models import PrintJob
from league.tournaments import draw_history, draws, selectors
from tests.factories import UserFactory, register_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def series(tournament):
    """Series 1 of 4 teams drawn with seed 111111, printed, then drawn again twice and swapped."""
    register_teams(tournament, teams=4)
    draws.series_draw(tournament=tournament, numbers=[1], seed=111111)
    series = tournament.series.get(number=1)
    PrintJob.objects.create(series=series, kind=PrintJob.Kind.PROTOCOLS)
    draws.series_draw(tournament=tournament, numbers=[1], seed=222222)
    draws.series_draw(tournament=tournament, numbers=[1], seed=333333)
    a, b = (seat.player for seat in series.assignments.filter(table=1).select_related("player")[:2])
    draws.series_swap(series=series, player_a=a, player_b=b, reason="wózek", allow_repeats=True)
    return series


def state(series):
    return selectors.series_seating(series=series), sorted(series.protocols.values_list("table", "pin", "table_token"))


def test_the_history_lists_every_draw_newest_first_with_the_printed_one_marked(series):
    versions = draw_history.series_draw_history(series=series)
    assert [(v.entry.action, v.draw["seed"], v.printed, v.current) for v in versions] == [
        ("swap", 333333, False, True),
        ("redraw", 333333, False, False),
        ("redraw", 222222, False, False),
        ("draw", 111111, True, False),
    ]
    assert versions[0].reason == "wózek"


def test_restoring_the_first_draw_brings_back_its_tables_and_pins_once_and_logs_who_and_why(series):
    first = draw_history.series_draw_history(series=series)[-1]
    organiser = UserFactory()

    assert draw_history.series_draw_restore(series=series, entry_id=first.entry.pk, user=organiser, reason="druk")
    restored = state(series)
    assert [list(t) for t in restored[0].tables] == first.draw["tables"]
    assert [list(p) for p in restored[1]] == [list(p) for p in first.draw["protocols"]]
    series.refresh_from_db()
    assert series.seed == 111111
    log = series.draw_logs.first()
    assert (log.action, log.user, log.details["reason"], log.details["restored_seed"]) == (
        DrawLog.Action.UNDO,
        organiser,
        "druk",
        111111,
    )

    # the same press again: nothing changes, nothing is logged
    count = series.draw_logs.count()
    assert not draw_history.series_draw_restore(series=series, entry_id=first.entry.pk, user=organiser)
    assert series.draw_logs.count() == count
    assert state(series) == restored
    versions = draw_history.series_draw_history(series=series)
    # the restored draw is the printed one: its sheets are right again, and the first draw is the same
    assert (versions[0].current, versions[0].printed, versions[0].draw["seed"]) == (True, True, 111111)
    assert versions[-1].in_force and not versions[1].in_force


def test_restoring_is_refused_once_a_deal_is_entered_and_for_an_unknown_entry(series):
    first = draw_history.series_draw_history(series=series)[-1]
    with pytest.raises(ValidationError, match="no such draw"):
        draw_history.series_draw_restore(series=series, entry_id=999999)
    Series.objects.filter(pk=series.pk).update(results_entered=True)
    before = state(series)
    with pytest.raises(ValidationError, match="already has results"):
        draw_history.series_draw_restore(series=series, entry_id=first.entry.pk)
    assert state(series) == before


def test_the_history_page_restores_a_draw_and_a_repeated_post_says_nothing_changed(client, series):
    url = reverse("tournaments:draw_history", args=[series.tournament.slug, 1])
    second = draw_history.series_draw_history(series=series)[-2]
    page = client.get(url).content.decode()
    assert "Restore this draw (seed 111111)" in page
    assert "printed" in page
    restore = reverse("tournaments:draw_restore", args=[series.tournament.slug, 1, second.entry.pk])

    client.post(restore, {"reason": "pomyłka"})
    page = client.get(url).content.decode()
    assert "Series 1 has its earlier draw again (seed 222222), with its PINs." in page
    client.post(restore, {"reason": "pomyłka"})
    assert "Series 1 already has this draw (seed 222222); nothing changed." in client.get(url).content.decode()
    assert series.draw_logs.filter(action=DrawLog.Action.UNDO).count() == 1


def test_the_history_page_reads_a_few_queries_whatever_the_number_of_versions(
    client, series, django_assert_max_num_queries
):
    for seed in (444444, 555555, 666666):
        draws.series_draw(tournament=series.tournament, numbers=[1], seed=seed)
    with django_assert_max_num_queries(12):
        client.get(reverse("tournaments:draw_history", args=[series.tournament.slug, 1]))


def test_the_draw_log_says_which_draw_was_restored_and_why(client, series):
    first = draw_history.series_draw_history(series=series)[-1]
    draw_history.series_draw_restore(series=series, entry_id=first.entry.pk, reason="druk")
    log = client.get(reverse("tournaments:draw_log", args=[series.tournament.slug])).content.decode()
    assert "Restored the draw with seed 111111 from the history. — druk" in log
