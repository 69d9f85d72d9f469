"""The projector shows the public what the public may see, page by page, and answers an unchanged
screen's poll with a bodiless 304 in a fixed number of queries, however many tables the hall has."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.public.projector import ready_fragments
from league.results import services
from league.standings.cache import refresh
from tests.factories import (
    ByeFactory,
    PlayerFactory,
    RegistrationFactory,
    TableAssignmentFactory,
    TournamentFactory,
    UserFactory,
    drawn_series,
    played_series,
)
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db

DEAL = {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}


@pytest.fixture(autouse=True)
def no_fragment_kept():
    ready_fragments.clear()
    yield
    ready_fragments.clear()


def projector(client, tournament, **query) -> str:
    response = client.get(reverse("public:projector", args=[tournament.slug]), query, HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 200
    return response.content.decode()


def fragment(client, tournament, etag: str = ""):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(reverse("public:projector_pages", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="pl", **headers)


def page_keys(html: str) -> list[str]:
    return re.findall(r'data-page="([^"]+)"', html)


def seating_names(html: str) -> list[str]:
    return re.findall(r'class="projector-who">([^<]+)</span> <b class="projector-where">', html)


def test_the_pages_turn_from_the_clock_through_the_seating_and_each_ranking_to_the_progress(client):
    tournament = league_tournament(tables=3, series=1)
    drawn_series(tournament, tables=3, number=2)

    html = projector(client, tournament)

    assert page_keys(html) == ["clock", "seating-1", "individual-1", "teams-1", "progress"]
    assert 'class="projector-page shown" data-page="clock"' in html
    assert "Seria 2: kto gdzie siedzi" in html and "Seria 2: postęp przy stołach" in html


def test_a_ranking_is_shown_in_pages_of_20(client):
    tournament = league_tournament(tables=12, series=1, publish_teams=False)  # 48 players

    html = projector(client, tournament)

    assert [key for key in page_keys(html) if key.startswith("individual")] == [
        "individual-1",
        "individual-2",
        "individual-3",
    ]
    pages = html.split('data-page="individual-')[1:]
    assert [page.count('class="projector-place"') for page in pages] == [20, 20, 8]
    assert "3 z 3" in pages[2]


def test_without_javascript_each_reload_shows_the_next_page_and_comes_round_again(client):
    tournament = league_tournament(tables=3, series=1)

    first = projector(client, tournament)
    second = projector(client, tournament, strona=2, co=20)
    last = projector(client, tournament, strona=3)

    assert 'url=?strona=2&amp;co=12"' in first
    assert 'class="projector-page shown" data-page="individual-1"' in second
    assert 'content="20;url=?strona=3&amp;co=20"' in second
    assert 'url=?strona=1&amp;co=12"' in last  # clock, individual, teams: then the clock again


@pytest.mark.parametrize(("asked", "seconds"), [("12", 12), ("2", 5), ("600", 120), ("abc", 12), ("-3", 12)])
def test_the_seconds_a_page_stays_are_kept_within_bounds(client, asked, seconds):
    tournament = league_tournament(tables=1, series=1)

    assert f'data-page-seconds="{seconds}"' in projector(client, tournament, co=asked)


def test_the_seating_is_in_polish_alphabetical_order_surname_first_with_the_byes(client):
    tournament = TournamentFactory(draw_published=True, published=True)
    series = drawn_series(tournament, tables=0, number=1)
    surnames = ["Żak", "Łęcka", "Zieliński", "Kwidziński", "Lis", "Kąkol", "Ćwik", "Cebula"]
    players = [PlayerFactory(first_name="Ola", last_name=name) for name in surnames]
    for index, player in enumerate(players[:4]):
        TableAssignmentFactory(series=series, table=1, seat="ABCD"[index], player=player)
    for index, player in enumerate(players[4:7]):
        TableAssignmentFactory(series=series, table=2, seat="ABCD"[index], player=player)
    ByeFactory(series=series, player=players[7])

    html = projector(client, tournament)

    assert seating_names(html) == [
        "Cebula Ola",
        "Ćwik Ola",
        "Kąkol Ola",
        "Kwidziński Ola",
        "Lis Ola",
        "Łęcka Ola",
        "Zieliński Ola",
        "Żak Ola",
    ]
    assert '<span class="projector-who">Cebula Ola</span> <b class="projector-where">wolny los</b>' in html
    assert '<span class="projector-who">Żak Ola</span> <b class="projector-where">1&thinsp;A</b>' in html


def test_a_long_seating_list_takes_as_many_pages_as_it_needs(client):
    tournament = TournamentFactory(draw_published=True, published=True)
    drawn_series(tournament, tables=24, number=1)  # 96 players: 45 + 45 + 6

    html = projector(client, tournament)

    assert [key for key in page_keys(html) if key.startswith("seating")] == ["seating-1", "seating-2", "seating-3"]
    assert len(seating_names(html)) == 96


def test_a_draw_not_yet_published_shows_no_seating_no_progress_and_no_clock(client):
    tournament = league_tournament(tables=2, series=1)
    secret = PlayerFactory(last_name="Niewidoczny")
    series = drawn_series(tournament, tables=1, number=2)
    TableAssignmentFactory(series=series, table=2, seat="A", player=secret)
    tournament.draw_published = False
    tournament.save()

    html = projector(client, tournament)

    assert page_keys(html) == ["clock", "individual-1", "teams-1"]
    assert "Niewidoczny" not in html and "Teraz nie trwa żadna seria." in html


def test_results_not_published_and_lists_not_published_stay_off_the_projector(client):
    tournament = league_tournament(tables=1, series=1, publish_women=False, publish_teams=False)
    hidden = [PlayerFactory(last_name=f"Ukryty{n}") for n in range(4)]
    for player in hidden:
        RegistrationFactory(tournament=tournament, player=player)
    closed = played_series(tournament, 2, [list(zip(hidden, (90, 10, -10, -90), strict=True))])
    closed.results_published = False
    closed.save()

    html = projector(client, tournament)

    rankings = html.split('data-page="individual-1"')[1].split('data-page="progress"')[0]
    assert "Kowalski" in rankings and "Ukryty" not in rankings
    assert "Klasyfikacja drużynowa" not in html and "Klasyfikacja kobiet" not in html


def test_a_draft_tournament_has_no_projector_for_visitors_but_its_organiser_checks_it():
    tournament = league_tournament(tables=1, series=1, published=False)
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    staff = Client()
    staff.force_login(organiser)

    assert fragment(Client(), tournament).status_code == 404
    assert Client().get(reverse("public:projector", args=[tournament.slug])).status_code == 404
    assert fragment(staff, tournament).status_code == 200


def test_an_unchanged_screen_gets_a_304_and_a_saved_deal_a_new_fragment(client, still_clock):
    tournament = TournamentFactory(draw_published=True, published=True)
    series = drawn_series(tournament, tables=4)
    referee = UserFactory()
    first = fragment(client, tournament)
    assert first.status_code == 200 and '<b>3</b> <span class="projector-count">0/40</span>' in first.content.decode()

    again = fragment(client, tournament, first["ETag"])
    assert again.status_code == 304 and again.content == b""

    protocol = series.protocols.get(table=3)
    services.protocol_row_save(protocol=protocol, number=1, deal=DEAL, expected_version=protocol.version, user=referee)
    changed = fragment(client, tournament, first["ETag"])

    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert '<b>3</b> <span class="projector-count">1/40</span>' in changed.content.decode()


def test_the_clock_page_counts_down_to_the_end_and_says_when_time_is_up(client):
    tournament = TournamentFactory(draw_published=True, published=True, time_limit_minutes=55)
    series = drawn_series(tournament, tables=2)
    series.clock_started_at, series.clock_limit_minutes = timezone.now() - timedelta(minutes=50), 55
    series.save()

    running = projector(client, tournament)
    series.clock_started_at = timezone.now() - timedelta(minutes=56)
    series.save()
    over = projector(client, tournament)

    assert "Zostało 5 minut" in running and "data-ends-at=" in running
    assert 'class="hall-time" data-clock-time>0:00<' in over and "phase-over" in over


def test_a_paused_clock_says_so(client):
    tournament = TournamentFactory(draw_published=True, published=True, time_limit_minutes=55)
    series = drawn_series(tournament, tables=1)
    series.clock_started_at, series.clock_limit_minutes = timezone.now() - timedelta(minutes=20), 55
    series.clock_paused_at = timezone.now() - timedelta(minutes=2)
    series.save()

    html = projector(client, tournament)

    assert "Zegar zatrzymany" in html and "data-ends-at=" not in html


# what the projector takes with the standings cached: the stamp, the series, the rankings' lists,
# the room (tables, last deals), the seats and the byes
PROJECTOR_QUERIES = 8


@pytest.mark.parametrize("tables", [8, 64])
def test_the_projector_takes_the_same_queries_for_8_and_64_tables(
    client, tables, django_assert_max_num_queries, still_clock
):
    tournament = league_tournament(tables=2, series=1)
    drawn_series(tournament, tables=tables, number=2)
    refresh(tournament.pk)

    with django_assert_max_num_queries(PROJECTOR_QUERIES):
        html = projector(client, tournament)
    with django_assert_max_num_queries(PROJECTOR_QUERIES):
        etag = fragment(client, tournament)["ETag"]
    with django_assert_max_num_queries(2):  # the stamp, the series: nothing built
        assert fragment(client, tournament, etag).status_code == 304

    assert html.count('class="projector-count"') == tables
