"""The public series, player and team pages read a fixed number of queries,
whatever the number of tables, series or tournaments (standings cached, as the
recompute task leaves them after every change)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.standings.cache import refresh
from tests.factories import RegistrationFactory, SeasonFactory
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db

# what each page takes today (the player page was 6 with one tournament and 9 with four, then
# 9 for any number, then 8 once the stamps were read once; the team page 6, then 5 likewise)
# the series page: with the referee's penalties; the player page: with the series one by one
# (seats, totals, byes, penalties, stamps; tests/public/test_player_page.py); the team page:
# with which members counted (stamps, registrations)
SERIES_PAGE, PLAYER_PAGE, TEAM_PAGE = 6, 8, 5


def warmed(*tournaments):
    for tournament in tournaments:
        refresh(tournament.pk)
    return tournaments


@pytest.mark.parametrize("tables", [2, 8])
def test_the_series_page_takes_the_same_queries_for_few_and_many_tables(client, tables, django_assert_max_num_queries):
    tournament = league_tournament(tables=tables, series=1)

    with django_assert_max_num_queries(SERIES_PAGE):
        page = client.get(reverse("public:series", args=[tournament.slug, 1]))

    assert page.status_code == 200
    assert page.content.decode().count(reverse("public:table", args=[tournament.slug, 1, 1])[:-2]) == tables


def player_in(tournaments):
    """One player registered in every tournament (the first player of the first, re-registered)."""
    player = tournaments[0].registrations.first().player
    for tournament in tournaments[1:]:
        RegistrationFactory(tournament=tournament, player=player)
    return player


@pytest.mark.parametrize("count", [1, 4])
def test_the_player_page_takes_the_same_queries_for_one_and_many_tournaments(
    client, count, django_assert_max_num_queries
):
    season = SeasonFactory()
    tournaments = warmed(*[league_tournament(season=season) for _ in range(count)])
    player = player_in(tournaments)
    other_season = league_tournament(season=SeasonFactory())  # a second season the player played in
    player_in([tournaments[0], other_season])
    warmed(*tournaments, other_season)

    with django_assert_max_num_queries(PLAYER_PAGE):
        page = client.get(reverse("public:player", args=[player.pk])).content.decode()

    for tournament in (*tournaments, other_season):
        assert tournament.name in page
    assert str(season) in page and str(other_season.season) in page


@pytest.mark.parametrize("count", [1, 4])
def test_the_team_page_takes_the_same_queries_for_one_and_many_tournaments(
    client, count, django_assert_max_num_queries
):
    tournaments = warmed(*[league_tournament() for _ in range(count)])
    registration = tournaments[0].registrations.select_related("team").first()
    team = registration.team
    for tournament in tournaments[1:]:
        for member in team.memberships.all():
            RegistrationFactory(tournament=tournament, player=member.player, team=team)
    warmed(*tournaments)

    with django_assert_max_num_queries(TEAM_PAGE):
        page = client.get(reverse("public:team", args=[team.pk])).content.decode()

    for tournament in tournaments:
        assert tournament.name in page
