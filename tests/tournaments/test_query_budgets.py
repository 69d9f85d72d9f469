"""The organiser's screens take as many queries for a big tournament as for a small one."""

import pytest
from django.urls import reverse

from league.tournaments import draws, services
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, register_teams

pytestmark = pytest.mark.django_db

# session, user, tournament and organiser check, the page's own reads (the fixed seats among them), the menu's
# two permission reads
DRAW_PAGE_BUDGET = 14
DETAIL_BUDGET = 9  # with the earlier versions of its exchange file
REGISTRATIONS_BUDGET = 10  # the teams apart from the rows, which a filter may leave out
LIST_BUDGET = 8  # with the invitations to the staff waiting for an answer


def organised(client, **fields):
    user = UserFactory()
    tournament = TournamentFactory(**fields)
    tournament.organisers.add(user)
    client.force_login(user)
    return tournament


@pytest.mark.parametrize(("series", "tables"), [(2, 2), (5, 8)])
def test_the_draw_page_takes_the_same_queries_for_few_and_many_series_and_tables(
    client, series, tables, django_assert_max_num_queries
):
    tournament = organised(client, series_count=series)
    # Two pairs of teammates keep the teammate rule in play; one more player makes a bye in every series.
    register_teams(tournament, teams=2, size=2, individuals=4 * tables - 4 + 1)
    draws.series_draw(tournament=tournament, numbers="all", seed=1)
    with django_assert_max_num_queries(DRAW_PAGE_BUDGET):
        response = client.get(reverse("tournaments:draw", args=[tournament.slug]))
    page = response.content.decode()
    assert page.count('name="swap1-player_a"') == 1
    assert f'id="series-{series}"' in page
    seat = tournament.series.get(number=series).assignments.select_related("player").last()
    assert seat.player.full_name in page
    assert page.count("a bye scores: big points 4, small points 40") == series  # puck pays a lone bye 4 and 40


@pytest.mark.parametrize("series", [2, 8])
def test_the_programme_takes_the_same_queries_for_few_and_many_series(client, series, django_assert_max_num_queries):
    tournament = organised(client, series_count=series)
    register_teams(tournament, teams=1, size=2, individuals=6)
    draws.series_draw(tournament=tournament, numbers=[1], seed=1)
    with django_assert_max_num_queries(DETAIL_BUDGET):
        response = client.get(reverse("tournaments:detail", args=[tournament.slug]))
    assert "8 registered, 8 present" in response.content.decode()


@pytest.mark.parametrize("players", [2, 40])
def test_the_registration_list_takes_the_same_queries_for_few_and_many_players(
    client, players, django_assert_max_num_queries
):
    tournament = organised(client)
    register_teams(tournament, teams=1, size=2)
    RegistrationFactory.create_batch(players - 2, tournament=tournament, fee_paid=True)
    with django_assert_max_num_queries(REGISTRATIONS_BUDGET):
        response = client.get(reverse("tournaments:registrations", args=[tournament.slug]), {"q": "Kowalski"})
    page = response.content.decode()
    assert page.count('name="after_series"') == players


@pytest.mark.parametrize("tournaments", [1, 6])
def test_the_tournament_list_takes_the_same_queries_for_few_and_many(
    client, tournaments, django_assert_max_num_queries
):
    user = UserFactory()
    for _ in range(tournaments):
        tournament = TournamentFactory(series_count=3)
        tournament.organisers.add(user)
        services.series_ensure(tournament=tournament)
    client.force_login(user)
    with django_assert_max_num_queries(LIST_BUDGET):
        response = client.get(reverse("tournaments:list"))
    assert response.content.decode().count("<tr>") == tournaments + 1
