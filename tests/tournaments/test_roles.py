"""Roles: anonymous → login, others → 403, referees and organisers → 200, on every results page."""

import pytest
from django.urls import reverse

from league.tournaments.roles import is_organiser, is_referee
from tests.factories import UserFactory, drawn_series

pytestmark = pytest.mark.django_db

PAGES = [("series", ()), ("protocol", (1,)), ("history", (1,))]
POSTS = [("close", ()), ("preview", (1,)), ("totals", (1,)), ("confirm", (1,))]


@pytest.fixture
def series():
    series = drawn_series()
    return series


def test_role_checks():
    tournament = drawn_series().tournament
    organiser, referee, other = UserFactory(), UserFactory(), UserFactory()
    tournament.organisers.add(organiser)
    tournament.referees.add(referee)
    assert is_organiser(organiser, tournament) and is_referee(organiser, tournament)
    assert is_referee(referee, tournament) and not is_organiser(referee, tournament)
    assert not is_referee(other, tournament)
    assert is_organiser(UserFactory(username="root", is_superuser=True), tournament)


def all_urls(series):
    args = [series.tournament.slug, series.number]
    return [("get", reverse(f"results:{n}", args=[*args, *a])) for n, a in PAGES] + [
        ("post", reverse(f"results:{n}", args=[*args, *a])) for n, a in POSTS
    ]


def test_anonymous_users_are_sent_to_log_in(client, series):
    for method, address in all_urls(series):
        response = getattr(client, method)(address)
        assert response.status_code == 302 and "logowanie" in response.url, address


def test_other_users_are_refused(client, series):
    client.force_login(UserFactory())
    for method, address in all_urls(series):
        assert getattr(client, method)(address).status_code == 403, address


@pytest.mark.parametrize("role", ["referees", "organisers"])
def test_referees_and_organisers_get_in(client, series, role):
    user = UserFactory()
    getattr(series.tournament, role).add(user)
    client.force_login(user)
    for name, args in PAGES:
        address = reverse(f"results:{name}", args=[series.tournament.slug, series.number, *args])
        assert client.get(address).status_code == 200, address
    from league.games.baska.shorthand import parse
    from league.results.services import protocol_row_save

    protocol = series.protocols.get()
    protocol_row_save(protocol=protocol, number=1, deal=parse("ac60"), expected_version=0, user=user)
    address = reverse("results:correct", args=[series.tournament.slug, series.number, 1, 1])
    assert client.get(address).status_code == 200
