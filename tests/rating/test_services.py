"""The kept ratings (``league.rating.services``): written after a series closes, rewritten from a
reopened or corrected series on and after a merge, never from an open or unpublished series or a
bye, and the same whether kept step by step or rebuilt at once (``manage.py rebuild_ratings``)."""

from __future__ import annotations

import io
import json
from datetime import date

import pytest
from django.core.management import call_command

from league.exchange import export_tournament
from league.models import Series
from league.rating.models import RatedTournament, Rating
from league.rating.selectors import player_ratings, rating_list
from league.rating.services import ratings_recompute, ratings_refresh
from league.results.services import series_reopen
from league.standings.tasks import recompute_standings
from players import services as player_services
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory, played_series

pytestmark = pytest.mark.django_db


def evening(when: date, players, results, **fields):
    """A published tournament on ``when``: each of ``results`` one closed series of one table,
    the four ``players``' small points in seat order."""
    tournament = TournamentFactory(date=when, **({"published": True} | fields))
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    for number, points in enumerate(results, start=1):
        played_series(tournament, number, [list(zip(players, points, strict=True))])
    recompute_standings(tournament.pk)
    return tournament


def kept() -> dict:
    return {
        (row.player_id, row.series_id): (row.mu, row.sigma, row.series_count, row.place, row.expected_place, row.latest)
        for row in Rating.objects.all()
    }


@pytest.fixture
def four():
    return PlayerFactory.create_batch(4)


def test_a_closed_series_rates_its_players_and_the_winner_leads_the_list(four):
    evening(date(2026, 3, 1), four, [[30, 10, -10, -30]])
    listed = rating_list(game="baska")
    assert [line.player_id for line in listed] == [p.pk for p in four]
    assert all(line.provisional and line.series == 1 for line in listed)
    assert Rating.objects.filter(latest=True).count() == 4


def test_an_open_series_an_unpublished_one_and_a_draft_count_nothing(four):
    tournament = evening(date(2026, 3, 1), four, [[30, 10, -10, -30]])
    played_series(tournament, 2, [list(zip(four, [-30, -10, 10, 30], strict=True))], status="in_play")
    hidden = played_series(tournament, 3, [list(zip(four, [-30, -10, 10, 30], strict=True))])
    Series.objects.filter(pk=hidden.pk).update(results_published=False)
    evening(date(2026, 3, 2), four, [[-30, -10, 10, 30]], published=False)
    recompute_standings(tournament.pk)
    assert Rating.objects.filter(player=four[0]).count() == 1


def test_a_bye_is_no_match(four):
    tournament = TournamentFactory(date=date(2026, 3, 1), published=True)
    fifth = PlayerFactory()
    for player in [*four, fifth]:
        RegistrationFactory(tournament=tournament, player=player)
    played_series(tournament, 1, [list(zip(four, [30, 10, -10, -30], strict=True))], byes=[fifth])
    recompute_standings(tournament.pk)
    assert not Rating.objects.filter(player=fifth).exists()
    assert Rating.objects.count() == 4


def test_a_reopened_series_a_year_back_rewrites_the_ratings_from_there_on_only(
    four, django_capture_on_commit_callbacks
):
    old = evening(date(2025, 3, 1), four, [[30, 10, -10, -30]])
    evening(date(2025, 1, 1), four, [[0, 0, 0, 0]])
    evening(date(2026, 3, 1), four, [[5, -5, 5, -5]])
    untouched = {k: v for k, v in kept().items() if Series.objects.get(pk=k[1]).tournament.date < old.date}
    before = kept()

    with django_capture_on_commit_callbacks(execute=True):
        series_reopen(series=old.series.get(number=1), user=UserFactory(), reason="błąd w protokole")

    after = kept()
    assert len(after) == len(before) - 4
    assert {k: v for k, v in after.items() if k in untouched} == untouched
    assert after != {k: v for k, v in before.items() if k in after}  # the later tournament moved
    assert {row.player_id for row in Rating.objects.filter(latest=True)} == {p.pk for p in four}


def test_kept_step_by_step_equals_rebuilt_at_once_and_again(four):
    others = PlayerFactory.create_batch(2)
    evening(date(2026, 1, 5), four, [[30, 10, -10, -30], [0, 10, -10, 0]])
    evening(date(2026, 2, 5), [four[0], four[1], *others], [[-20, 40, 0, -20]])
    evening(date(2026, 1, 20), four, [[-30, -10, 10, 30]])  # entered late, rated in its place in time
    step_by_step = kept()

    call_command("rebuild_ratings", stdout=None)
    assert kept() == step_by_step
    ratings_recompute()
    assert kept() == step_by_step


def test_a_refresh_with_nothing_changed_writes_nothing(four):
    tournament = evening(date(2026, 1, 5), four, [[30, 10, -10, -30]])
    assert not ratings_refresh(tournament_id=tournament.pk)
    assert RatedTournament.objects.get(tournament=tournament).date == date(2026, 1, 5)


def test_a_moved_date_moves_the_tournament_in_time(four):
    first = evening(date(2026, 1, 5), four, [[30, 10, -10, -30]])
    evening(date(2026, 2, 5), four, [[-30, -10, 10, 30]])
    first.date = date(2026, 3, 5)
    first.save()
    assert ratings_refresh(tournament_id=first.pk)
    latest = Rating.objects.get(player=four[0], latest=True)
    assert latest.tournament_id == first.pk


def test_after_a_merge_the_person_has_one_history(four, django_capture_on_commit_callbacks):
    twin = PlayerFactory(first_name=four[0].first_name, last_name=four[0].last_name)
    evening(date(2026, 1, 5), four, [[30, 10, -10, -30]])
    evening(date(2026, 2, 5), [twin, *four[1:]], [[30, 10, -10, -30]])
    user = UserFactory(is_superuser=True)

    with django_capture_on_commit_callbacks(execute=True):
        player_services.player_merge(kept=four[0], merged=twin, user=user, reason="ta sama osoba")

    [rating] = player_ratings(four[0])
    assert [row.series_count for row in rating.history] == [1, 2]
    assert Rating.objects.filter(player=four[0], latest=True).count() == 1
    assert rating.place == 1


def test_the_exchange_file_carries_no_rating(four):
    tournament = evening(date(2026, 1, 5), four, [[30, 10, -10, -30]])
    assert Rating.objects.exists()

    exported = json.dumps(export_tournament(tournament))

    assert "rating" not in exported and "mu" not in json.loads(exported)


def test_an_installation_upgraded_to_the_rating_is_rated_on_start_and_a_second_start_writes_nothing(four):
    """docker/entrypoint.sh runs ``rebuild_ratings --stale`` on every start of the web service."""
    evening(date(2026, 1, 5), four, [[30, 10, -10, -30]])
    evening(date(2026, 2, 5), four, [[-20, 40, 0, -20]])
    rated = kept()
    Rating.objects.all().delete()  # as before the upgrade: results, no ratings
    RatedTournament.objects.all().delete()

    out = io.StringIO()
    call_command("rebuild_ratings", "--stale", stdout=out)
    assert kept() == rated and out.getvalue().startswith("1 ")  # the first tournament rated all after it
    call_command("rebuild_ratings", "--stale", stdout=out)
    assert out.getvalue().splitlines()[-1].startswith("0 ")
