"""The league's public page, its calendar page and the home page: what comes next (no drafts,
nothing past), the current season's top ten, the latest winners, past seasons, the calendar
links, and a query budget that does not grow with the league's seasons and tournaments."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import TableAssignment
from league.signups import services as signup_services
from league.standings.cache import refresh
from tests.factories import LeagueFactory, SeasonFactory, TournamentFactory, UserFactory
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db

# the league page: the league, next tournaments, the season, its counted tournaments and their stamps,
# the finished tournaments and their stamps, past seasons (the standings cached, as after a change)
LEAGUE_PAGE = 8


def days(n: int) -> date:
    return timezone.localdate() + timedelta(days=n)


@pytest.fixture
def league():
    return LeagueFactory(name="Złota Liga", slug="zlota-liga", description="Gramy w Baśkę.")


def test_the_page_lists_the_coming_published_tournaments_with_time_and_place_and_nothing_past_or_draft(client, league):
    TournamentFactory(name="Jutrzejszy", date=days(1), start_time=time(10, 30), venue="Puck", league=league)
    TournamentFactory(name="Zimowy", date=date(2099, 12, 5), league=league)
    TournamentFactory(name="Szkic", date=days(3), published=False, league=league)
    TournamentFactory(name="Wczorajszy", date=days(-1), league=league)
    TournamentFactory(name="Obcy", date=days(2))

    page = client.get(reverse("leagues:page", args=[league.slug])).content.decode()
    coming = page[page.index('id="league-next"') :]
    coming = coming[: coming.index("</section>")]

    assert coming.index("Jutrzejszy") < coming.index("Zimowy")
    assert f"{days(1):%d.%m.%Y}, 10:30" in coming and "Puck" in coming and "05.12.2099" in coming
    assert "Szkic" not in page and "Wczorajszy" not in coming and "Obcy" not in page
    assert "Gramy w Baśkę." in page
    feed = reverse("leagues:calendar_ics", args=[league.slug])
    assert f'<link rel="alternate" type="text/calendar" href="{feed}"' in page


def test_a_coming_tournament_taking_sign_ups_links_its_form_and_one_without_does_not(client, league):
    open_one = TournamentFactory(name="Z zapisami", date=days(10), league=league)
    closed_one = TournamentFactory(name="Bez zapisów", date=days(12), league=league)
    for tournament, closes in ((open_one, days(8)), (closed_one, days(-1))):
        signup_services.signup_window_save(
            tournament=tournament,
            user=UserFactory(),
            page="/test/",
            is_open=True,
            closes_at=timezone.make_aware(datetime.combine(closes, time(20))),
            capacity=None,
            waiting_list=True,
            note="",
        )

    page = client.get(reverse("leagues:page", args=[league.slug])).content.decode()

    assert reverse("signups:signup", args=[open_one.slug]) in page
    assert reverse("signups:signup", args=[closed_one.slug]) not in page


def test_the_page_shows_the_current_seasons_top_ten_the_latest_winner_and_the_past_seasons(client, league):
    past = SeasonFactory(name="Złota Liga", year=2025, league=league)
    season = SeasonFactory(name="Złota Liga", year=2026, league=league)
    tournament = league_tournament(tables=3, series=1, season=season, league=league, date=days(-7))
    refresh(tournament.pk)

    page = client.get(reverse("leagues:page", args=[league.slug])).content.decode()

    table = page[page.index('id="league-season"') : page.index('id="league-results"')]
    assert table.count("<tr>") == 1 + 10  # the head and the top ten of the twelve players
    assert reverse("public:season", args=[season.slug]) in table
    # seat A of the last table took the most, 30 + 2 (tests/public/test_pages.py)
    winner = TableAssignment.objects.get(series__tournament=tournament, table=3, seat="A").player
    results = page[page.index('id="league-results"') :]
    assert tournament.name in results and f"Winner: {winner}" in results
    assert reverse("public:season", args=[past.slug]) in page[page.index('id="league-past-seasons"') :]


@pytest.mark.parametrize("seasons", [1, 4])
def test_the_league_page_takes_the_same_queries_for_few_and_many_seasons_and_tournaments(
    client, league, seasons, django_assert_max_num_queries
):
    for year in range(2026 - seasons + 1, 2027):
        season = SeasonFactory(year=year, league=league)
        for month in (3, 6):
            refresh(league_tournament(tables=1, series=1, season=season, league=league, date=date(year, month, 1)).pk)
    for n in range(seasons):
        TournamentFactory(date=days(n + 1), league=league)
    client.get(reverse("leagues:page", args=[league.slug]))  # the season's table computed once, as after a change

    with django_assert_max_num_queries(LEAGUE_PAGE):
        page = client.get(reverse("leagues:page", args=[league.slug]))

    assert page.status_code == 200


def test_the_calendar_page_lists_coming_and_past_tournaments_with_dates_as_dd_mm_yyyy(client, league):
    TournamentFactory(name="Mikołajkowy", date=date(2099, 12, 5), start_time=time(9, 0), league=league)
    TournamentFactory(name="Wiosenny", date=date(2020, 3, 14), league=league)

    page = client.get(reverse("leagues:calendar", args=[league.slug])).content.decode()

    coming, past = page.split('id="calendar-past"')
    assert "05.12.2099, 09:00" in coming and "Mikołajkowy" in coming and "Wiosenny" not in coming
    assert "14.03.2020" in past and "Wiosenny" in past


def test_the_home_page_lists_each_league_with_its_next_tournament_then_the_tournaments_outside_leagues(client, league):
    TournamentFactory(name="Następny w lidze", date=days(5), league=league)
    TournamentFactory(name="Poza ligą", date=days(6))

    page = client.get(reverse("home")).content.decode()

    leagues = page[page.index('id="home-leagues"') :]
    leagues = leagues[: leagues.index("</section>")]
    assert "Złota Liga" in leagues and "Następny w lidze" in leagues and f"{days(5):%d.%m.%Y}" in leagues
    assert "Poza ligą" in page[page.index("</section>", page.index('id="home-leagues"')) :]
    assert "Następny w lidze" not in page[page.index("</section>", page.index('id="home-leagues"')) :]
    for feed in (reverse("leagues:calendar_ics", args=[league.slug]), reverse("leagues:calendar_all_ics")):
        assert f'<link rel="alternate" type="text/calendar" href="{feed}"' in page


@pytest.mark.parametrize("tournaments", [1, 12])
def test_the_calendar_page_and_feed_take_the_same_queries_for_few_and_many_tournaments(
    client, league, tournaments, django_assert_max_num_queries
):
    for n in range(tournaments):
        TournamentFactory(date=days(n - tournaments // 2), league=league)

    for url in (reverse("leagues:calendar", args=[league.slug]), reverse("leagues:calendar_ics", args=[league.slug])):
        with django_assert_max_num_queries(3):  # the league, its calendar's stamp, its tournaments
            client.get(url)
        with django_assert_max_num_queries(2):  # kept ready: the league and the stamp say it is current
            client.get(url)
    page = client.get(reverse("leagues:calendar", args=[league.slug]))
    feed = client.get(reverse("leagues:calendar_ics", args=[league.slug]))

    assert page.content.decode().count("<li>") == tournaments
    assert feed.content.decode().count("BEGIN:VEVENT") == tournaments


def test_a_tournament_and_a_season_of_the_league_link_to_its_page(client, league):
    season = SeasonFactory(league=league)
    tournament = TournamentFactory(league=league, season=season)
    home = f'href="{reverse("leagues:page", args=[league.slug])}"'

    assert home in client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()
    assert home in client.get(reverse("public:season", args=[season.slug])).content.decode()
