"""Issue 40: a tournament's standings stamp is stored, written anew by every writer in its own
transaction (``league.standings.refresh``), so a page's state is one read instead of a scan of
every row. It must move whenever the scan it replaced (``scanned_stamps``) would: then no page
can show an old state after a change."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from league.models import Series, Tournament
from league.privacy.services import player_anonymise
from league.results import services as results
from league.results.penalties.services import penalty_add
from league.seasons.services import season_tournament_count
from league.standings.cache import stamps
from league.tournaments import services as tournaments
from league.tournaments.registrations import registration_create, registration_team_change, registration_withdraw
from players.models import Club
from players.services import club_update, player_merge, player_update, team_update
from tests.factories import PlayerFactory, UserFactory
from tests.public.test_pages import league_tournament
from tests.standings.scanned_stamps import scanned_stamp

Write = Callable[[Tournament], object]


def stored(tournament: Tournament) -> str:
    return stamps(Tournament.objects.filter(pk=tournament.pk))[tournament.pk]


def evening() -> Tournament:
    """Two closed series of two tables of teams, and a third still to be played."""
    tournament = league_tournament(tables=2, series=2, series_count=3)
    tournaments.series_ensure(tournament=tournament)
    return tournament


def superuser():
    return UserFactory(is_superuser=True)


def closed_series(tournament: Tournament) -> Series:
    return tournament.series.filter(status=Series.Status.CLOSED).order_by("number").first()


def correct_a_deal(tournament: Tournament) -> None:
    series = closed_series(tournament)
    # A deal deleted earlier in the same example may have left a table's protocol without rows.
    protocol = series and series.protocols.filter(rows__isnull=False).order_by("table").first()
    if protocol is None:
        return
    row = protocol.rows.order_by("number").first()
    values = row.deal["values"]
    results.protocol_row_save(
        protocol=protocol,
        number=row.number,
        deal={"values": {"A": values["B"], "B": values["A"], "C": values["C"], "D": values["D"]}},
        expected_version=protocol.version,
        user=superuser(),
        reason="A and B swapped on paper",
    )


def delete_a_deal(tournament: Tournament) -> None:
    series = closed_series(tournament)
    protocol = series and series.protocols.filter(rows__isnull=False).order_by("table").first()
    if protocol is not None:
        last = protocol.rows.order_by("-number").first()
        results.protocol_row_delete(
            protocol=protocol,
            number=last.number,
            expected_version=protocol.version,
            user=superuser(),
            reason="written twice",
        )


def penalise(tournament: Tournament) -> None:
    series = closed_series(tournament)
    if series is not None:
        player = series.assignments.order_by("pk").first().player
        penalty_add(series=series, player=player, small_points=-5, reason="late", user=superuser())


def reopen_or_close(tournament: Tournament) -> None:
    series = tournament.series.exclude(status=Series.Status.PLANNED).order_by("-number").first()
    if series.status == Series.Status.CLOSED:
        results.series_reopen(series=series, user=superuser(), reason="a table's paper disagrees")
    else:
        results.series_close(series=series, user=superuser())


def toggle_publication(tournament: Tournament) -> None:
    tournaments.series_results_publication_toggle(series=tournament.series.order_by("number").first())


def rename(tournament: Tournament) -> None:
    tournaments.tournament_update(tournament=tournament, name=f"{tournament.name}!")


def publish(tournament: Tournament) -> None:
    tournaments.tournament_publish(tournament=Tournament.objects.get(pk=tournament.pk))


def archive(tournament: Tournament) -> None:
    tournaments.tournament_archive_toggle(tournament=Tournament.objects.get(pk=tournament.pk))


def register(tournament: Tournament) -> None:
    registration_create(tournament=tournament, player=PlayerFactory(), individual=True)


def move_to_another_team(tournament: Tournament) -> None:
    first, *others = tournament.registrations.exclude(team=None).order_by("pk")
    other = next((r for r in others if r.team_id != first.team_id), None)
    registration_team_change(registration=first, team=other.team if other else None)


def withdraw(tournament: Tournament) -> None:
    registration = tournament.registrations.order_by("pk").first()
    registration_withdraw(registration=registration, number=None if registration.withdrawn_after_series else 1)


def rename_player(tournament: Tournament) -> None:
    player = tournament.registrations.order_by("pk").first().player
    fields = ("first_name", "gender", "club", "licence", "active")
    player_update(
        player=player, user=superuser(), last_name=f"{player.last_name}x", **{f: getattr(player, f) for f in fields}
    )


def rename_team(tournament: Tournament) -> None:
    team = tournament.registrations.exclude(team=None).order_by("pk").first().team
    members = [member.player for member in team.memberships.all()]
    team_update(
        team=team,
        user=superuser(),
        name=f"{team.name}x",
        members=members,
        captain=team.captain,
        club=team.club,
        active=True,
    )


def rename_club(tournament: Tournament) -> None:
    player = tournament.registrations.order_by("pk").first().player
    if player.club is None:
        player.club = Club.objects.create(name=f"Klub {player.pk}")
        player.save(update_fields=["club"])  # no writer of the register: the stamp stays
    club_update(club=player.club, name=f"{player.club.name}x")


def merge_a_double_entry(tournament: Tournament) -> None:
    kept = tournament.registrations.order_by("pk").first().player
    player_merge(kept=kept, merged=PlayerFactory(), user=superuser(), reason="entered twice")


def anonymise(tournament: Tournament) -> None:
    player = tournament.registrations.filter(player__anonymisation=None).order_by("pk").first().player
    player_anonymise(player=player, user=superuser(), reason="the player's request")


def count_for_season(tournament: Tournament) -> None:
    fresh = Tournament.objects.get(pk=tournament.pk)
    season_tournament_count(season=fresh.season, tournament=fresh, counts=not fresh.counts_for_season, user=superuser())


WRITERS: list[Write] = [
    correct_a_deal,
    delete_a_deal,
    penalise,
    reopen_or_close,
    toggle_publication,
    rename,
    publish,
    archive,
    register,
    move_to_another_team,
    withdraw,
    rename_player,
    rename_team,
    rename_club,
    merge_a_double_entry,
    anonymise,
    count_for_season,
]


@pytest.mark.django_db
@pytest.mark.parametrize("write", WRITERS, ids=lambda write: write.__name__)
def test_every_writer_gives_the_tournament_a_new_stamp_in_its_own_transaction(write):
    tournament = evening()
    before = stored(tournament)

    with transaction.atomic():
        write(tournament)
        assert stored(tournament) != before  # before the commit: a page never reads new rows under the old stamp


@pytest.mark.django_db
def test_a_write_rolled_back_leaves_the_stamp_as_it_was():
    tournament = evening()
    before = stored(tournament)

    with pytest.raises(RuntimeError), transaction.atomic():
        rename(tournament)
        raise RuntimeError

    assert stored(tournament) == before


@pytest.mark.django_db
def test_a_stamp_is_read_in_one_query_however_many_tournaments(django_assert_num_queries):
    many = [league_tournament(tables=1, series=1) for _ in range(5)]

    with django_assert_num_queries(1):
        assert len(stamps(Tournament.objects.filter(pk__in=[t.pk for t in many]))) == 5


class TestTheStoredStampMovesWheneverTheScanWould(TestCase):
    """After any sequence of writes, whenever the full scan's stamp moved, so did the stored one."""

    @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.sampled_from(WRITERS), min_size=1, max_size=6))
    @example([delete_a_deal, correct_a_deal])  # a table's only deal gone, then a correction asked of it
    def test_random_writes(self, writes):
        tournament = evening()
        for write in writes:
            scanned, kept = scanned_stamp(tournament), stored(tournament)
            write(tournament)
            if scanned_stamp(tournament) != scanned:
                assert stored(tournament) != kept, write.__name__
