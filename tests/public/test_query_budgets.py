"""The public series, player and team pages read a fixed number of queries,
whatever the number of tables, series or tournaments (standings cached, as the
recompute task leaves them after every change)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.public import page_store
from league.standings.refresh import standings_touch
from league.standings.tasks import recompute_standings
from tests.factories import LeagueFactory, RegistrationFactory, SeasonFactory
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db

# what each page takes today (the player page was 6 with one tournament and 9 with four, then
# 9 for any number, then 8 once the stamps were read once, then 5 once it read the players' kept
# results, league.standings.summaries; the team page 6, then 5 likewise)
# the series page: with the referee's penalties, 8 once kept ready (the tournament's state: the
# tournament, its standings' stamp and its series; a reload then costs none); the player page: the
# player, registrations, seasons' tournaments, stamps, kept results (and with an empty cache the
# season's players' and teams' kept results); the team page: the team, members, stamps, kept results
# of its players and its own. Kept ready since (a reload within the second then costs none), a
# first visit reads the page's state before building it: the player page 7 (the player, their
# registrations and the stamps of their tournaments and seasons twice over), the team page 8;
# the player page 3 more with the ratings (issue 42: their stamp in the state, the player's rows, each
# player's latest for the place)
SERIES_PAGE, PLAYER_PAGE, TEAM_PAGE = 8, 10, 8
PLAYER_PAGE_COLD = 12


def warmed(*tournaments):
    for tournament in tournaments:
        recompute_standings(tournament.pk)
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
        standings_touch(tournament_id=tournament.pk)  # as registering does
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
        standings_touch(tournament_id=tournament.pk)  # as registering does
    warmed(*tournaments)

    with django_assert_max_num_queries(TEAM_PAGE):
        page = client.get(reverse("public:team", args=[team.pk])).content.decode()

    for tournament in tournaments:
        assert tournament.name in page


@pytest.mark.parametrize("count", [1, 12])
def test_a_regulars_page_takes_the_same_queries_cold_after_one_or_twelve_tournaments(
    client, count, django_assert_max_num_queries
):
    """Nothing in the cache (a restarted Redis, or every stamp just moved): the page reads the
    players' kept results, one row per tournament, and adds up the season from them."""
    season = SeasonFactory()
    tournaments = [league_tournament(season=season, tables=1, series=2) for _ in range(count)]
    player = player_in(tournaments)
    warmed(*tournaments)
    cache.clear()

    # the player, registrations, seasons' tournaments, stamps, kept results, and the season's
    # players' and teams' kept results
    with django_assert_max_num_queries(PLAYER_PAGE_COLD):
        page = client.get(reverse("public:player", args=[player.pk])).content.decode()

    assert page.count('class="card player-tournament"') == min(count, 10)  # ten to a page
    assert str(season) in page


def test_no_public_page_takes_more_queries_after_twenty_tournaments_than_after_one(client):
    """Issue 40: a page's state is the stored stamps of the tournaments it shows, one read, so a
    league's history adds rows to read, never queries. Each page built afresh (nothing kept in the
    process), the standings and the players' kept results current, as the recompute task leaves them."""
    league, season = LeagueFactory(), SeasonFactory()
    first = league_tournament(season=season, league=league, tables=1, series=1)
    player = player_in([first])
    team = first.registrations.exclude(team=None).first().team
    addresses = [
        reverse("public:standings", args=[first.slug]),
        reverse("public:season", args=[season.slug]),
        reverse("public:player", args=[player.pk]),
        reverse("public:team", args=[team.pk]),
        reverse("leagues:page", args=[league.slug]),
        reverse("public:records"),
    ]

    def queries() -> list[int]:
        counts = []
        for address in addresses:
            page_store.forget_all()
            with CaptureQueriesContext(connection) as captured:
                assert client.get(address).status_code == 200, address
            counts.append(len(captured))
        return counts

    warmed(first)
    for address in addresses:
        client.get(address)  # the session and the caches settle
    after_one = queries()
    later = [league_tournament(season=season, league=league, tables=1, series=1) for _ in range(19)]
    player_in([first, *later])
    for tournament in later:
        for member in team.memberships.all():
            if not tournament.registrations.filter(player=member.player).exists():
                RegistrationFactory(tournament=tournament, player=member.player, team=team)
    warmed(first, *later)
    for address in addresses:
        client.get(address)

    after_twenty = queries()
    assert [
        address for address, one, twenty in zip(addresses, after_one, after_twenty, strict=True) if twenty > one
    ] == []
