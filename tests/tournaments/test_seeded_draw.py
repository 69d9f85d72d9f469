"""Rozstawienie: a tournament set to seed its draw puts its players' strongest by rating at different
tables in series 1; the setting is off by default and saved from the settings screen."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import DrawLog, Series
from league.rating.selectors import current_ratings
from league.standings.tasks import recompute_standings
from league.tournaments import draws
from tests.factories import RegistrationFactory, TournamentFactory, played_series, register_teams
from tests.tournaments.test_settings import settings_of

pytestmark = pytest.mark.django_db


def rate(players, when: date) -> None:
    """An earlier evening: ``players`` (four) at one table of a closed series, the first winning."""
    evening = TournamentFactory(date=when, published=True)
    for player in players:
        RegistrationFactory(tournament=evening, player=player)
    played_series(evening, 1, [list(zip(players, (30, 10, -10, -30), strict=True))])
    recompute_standings(evening.pk)


def table_of(series: Series) -> dict[int, int]:
    return dict(series.assignments.values_list("player_id", "table"))


@pytest.fixture
def sixteen():
    """16 players in 4 teams, 8 of them rated: the strongest 4 are two pairs of teammates."""
    tournament = TournamentFactory(series_count=3, date=date(2026, 6, 1), seeded_draw=True)
    players = [r.player for r in register_teams(tournament, teams=4)]
    rate([players[0], players[4], players[8], players[12]], date(2026, 5, 1))
    rate([players[1], players[5], players[9], players[13]], date(2026, 5, 2))
    return tournament, players


def test_a_seeded_first_series_puts_the_four_strongest_of_sixteen_at_four_tables(sixteen):
    tournament, players = sixteen
    ratings = current_ratings(game="baska", player_ids=[p.pk for p in players])
    strongest = sorted(ratings, key=ratings.get, reverse=True)[:4]
    assert len(ratings) == 8 and ratings[strongest[3]] > sorted(ratings.values())[3]
    for seed in (1, 2, 3, 4, 5):
        draws.series_draw(tournament=tournament, numbers=[1], seed=seed)
        tables = table_of(tournament.series.get(number=1))
        assert sorted(tables[pk] for pk in strongest) == [1, 2, 3, 4]
        # the next four rated at different tables too, so every table has two of the eight unrated
        assert sorted(tables[pk] for pk in sorted(ratings, key=ratings.get)[:4]) == [1, 2, 3, 4]
    log = DrawLog.objects.filter(series__tournament=tournament).latest("pk")
    assert log.details["seeded_by"] == {str(pk): value for pk, value in ratings.items()}


def test_without_the_setting_the_strongest_may_meet_in_the_first_series(sixteen):
    tournament, players = sixteen
    tournament.seeded_draw = False
    tournament.save()
    ratings = current_ratings(game="baska", player_ids=[p.pk for p in players])
    strongest = sorted(ratings, key=ratings.get, reverse=True)[:4]

    def strongest_meet(seed: int) -> bool:
        draws.series_draw(tournament=tournament, numbers=[1], seed=seed)
        tables = table_of(tournament.series.get(number=1))
        return len({tables[pk] for pk in strongest}) < 4

    assert any(strongest_meet(seed) for seed in range(1, 21))


def test_a_new_tournament_draws_unseeded_and_the_settings_screen_turns_seeding_on(client, tournament):
    assert tournament.seeded_draw is False
    response = client.post(
        reverse("tournaments:update", args=[tournament.slug]), settings_of(tournament, seeded_draw="on")
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.seeded_draw is True
    page = client.get(reverse("tournaments:update", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Rozstawienie według rankingu" in page and "bez rankingu liczą się jako najsłabsi" in page


def test_seeding_reads_the_ratings_in_one_query(sixteen, django_assert_max_num_queries):
    tournament, _players = sixteen
    tournament.seeded_draw = False
    tournament.save()
    draws.series_draw(tournament=tournament, numbers=[1], seed=1)
    with CaptureQueriesContext(connection) as unseeded:  # drawn again, as the seeded draw below
        draws.series_draw(tournament=tournament, numbers=[1], seed=2)
    tournament.seeded_draw = True
    tournament.save()
    with django_assert_max_num_queries(len(unseeded) + 1):
        draws.series_draw(tournament=tournament, numbers=[1], seed=3)
