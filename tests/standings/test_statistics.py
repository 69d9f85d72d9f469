"""A player's deal statistics as the recompute task keeps them after every change (in each
player's kept result, ``league.standings.summaries``) equal the statistics read from the deals
afresh, and the rebuild command gives the same."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Series
from league.results import services
from league.results.models import Protocol
from league.standings.models import PlayerResult
from league.standings.statistics import deal_tallies, empty_tally
from league.standings.tasks import recompute_standings
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeriesFactory,
    TableAssignmentFactory,
    TournamentFactory,
    UserFactory,
    table_protocols,
)

pytestmark = pytest.mark.django_db

SEATS = "ABCD"
SERIES = (1, 2)

deals = st.fixed_dictionaries(
    {
        "contract": st.sampled_from(["zolo", "gran", "mester", "zolo_du"]),
        "old": st.sampled_from(SEATS).map(lambda seat: [seat]),
        "kontras": st.sampled_from([[], ["young"], ["young", "old"]]),
        "old_eyes": st.sampled_from([0, 30, 60, 61, 90, 104]),
    }
)
dealt = st.tuples(st.just("deal"), st.sampled_from(SERIES), deals)
steps = st.lists(
    st.one_of(
        dealt,
        dealt,  # deals are most of an evening
        st.tuples(st.just("correct"), st.sampled_from(SERIES), deals),
        st.tuples(st.just("close"), st.sampled_from(SERIES), st.none()),
        st.tuples(st.just("reopen"), st.sampled_from(SERIES), st.none()),
    ),
    max_size=12,
)


def evening():
    """Four players at one table in each of two series, nothing entered yet."""
    tournament = TournamentFactory(published=True)
    players = PlayerFactory.create_batch(4)
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    for number in SERIES:
        series = SeriesFactory(tournament=tournament, number=number, status="in_play", results_published=True)
        for seat, player in zip(SEATS, reversed(players) if number == 2 else players, strict=True):
            TableAssignmentFactory(series=series, table=1, seat=seat, player=player)
        table_protocols(series)
    return tournament, players


def play(tournament, referee, step) -> None:
    """One change as the referee's pages make it; a change the app refuses changes nothing."""
    kind, number, deal = step
    series = Series.objects.get(tournament=tournament, number=number)
    protocol = Protocol.objects.get(series=series, table=1)
    closed = series.status == Series.Status.CLOSED
    if kind == "close" and not closed:
        Protocol.objects.filter(pk=protocol.pk).update(status=Protocol.Status.CONFIRMED)
        services.series_close(series=series, user=referee)
    elif kind == "reopen" and closed:
        services.series_reopen(series=series, user=referee, reason="Poprawka protokołu")
    elif kind in ("deal", "correct") and not closed:
        count = protocol.rows.count()
        if kind == "correct" and not count:
            return
        number = count if kind == "correct" else count + 1
        try:
            services.protocol_row_save(
                protocol=protocol,
                number=number,
                deal=deal,
                expected_version=protocol.version,
                user=referee,
                reason="Poprawka",
            )
        except Exception as refused:  # a deal this ruleset refuses, as the form would say
            assert refused.__class__.__name__ in ("ValidationError", "PermissionDenied"), refused


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(opening=st.lists(dealt, min_size=2, max_size=6), steps=steps)
def test_the_tallies_kept_after_each_change_equal_the_deals_read_afresh(
    opening, steps, django_capture_on_commit_callbacks
):
    tournament, players = evening()
    referee = UserFactory(is_superuser=True)
    for step in [*opening, *steps]:
        with django_capture_on_commit_callbacks(execute=True):  # the recompute task, after the commit
            play(tournament, referee, step)

    fresh = deal_tallies({tournament.pk: tournament})
    expected = {player.pk: fresh.get((player.pk, tournament.pk), empty_tally()) for player in players}
    # the task after every change saved left each player's tally in their kept result (nothing
    # saved, say every deal refused, ran no task and wrote no result)
    kept = {row.player_id: row.tally for row in PlayerResult.objects.filter(tournament=tournament)}
    assert kept in ({}, expected)
    for player in players:  # and the read of one player alone agrees
        alone = deal_tallies({tournament.pk: tournament}, player)
        assert alone.get((player.pk, tournament.pk), empty_tally()) == expected[player.pk]

    cache.clear()
    PlayerResult.objects.all().delete()
    call_command("rebuild_statistics", stdout=open("/dev/null", "w"))
    assert {row.player_id: row.tally for row in PlayerResult.objects.filter(tournament=tournament)} == expected


def test_a_deal_saved_in_an_open_series_reads_no_deals_for_the_statistics_again(
    django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    tournament, _ = evening()
    referee = UserFactory(is_superuser=True)
    for number in SERIES:
        with django_capture_on_commit_callbacks(execute=True):
            play(tournament, referee, ("deal", number, {"contract": "zolo", "old": ["A"], "old_eyes": 90}))
    with django_capture_on_commit_callbacks(execute=True):
        play(tournament, referee, ("close", 1, None))

    # series 2 is open: its deal leaves the standings' stamp, and so every tally, as it was
    with CaptureQueriesContext(connection) as queries:
        recompute_standings(tournament.pk)
    assert not [q for q in queries.captured_queries if '"results_dealrow"."deal"' in q["sql"]]
    first = tournament.registrations.first().player_id
    assert PlayerResult.objects.get(tournament=tournament, player_id=first).tally["deals"] == 1
