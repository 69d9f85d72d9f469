"""Nobody fills the cache from outside: a query string a visitor makes up, or every sort
order of every list walked through, leaves the shared cache (Redis in production, where
PIN tries are counted too) as it was and the pages kept in each process bounded."""

from __future__ import annotations

import itertools
import secrets

import pytest
from django.urls import reverse

from league.public import page_store
from league.public.page_store import LruStore
from league.ranking_lists import RANKING_LISTS
from tests.caches import cache_size
from tests.factories import UserFactory
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return league_tournament(tables=2, series=2, publish_men=True)


def url(tournament) -> str:
    return reverse("public:standings", args=[tournament.slug])


def shared_entries() -> int:
    return cache_size()


def kept_entries() -> int:
    return len(page_store.pages) + len(page_store.contents)


@pytest.mark.parametrize("logged_in", [False, True], ids=["spectator", "logged-in"])
def test_three_hundred_made_up_parameters_leave_no_entry_behind(client, tournament, logged_in):
    if logged_in:
        client.force_login(UserFactory())
    client.get(url(tournament))
    before = shared_entries(), kept_entries()

    for _ in range(300):
        assert client.get(url(tournament), {"x": secrets.token_hex(8)}).status_code == 200

    assert (shared_entries(), kept_entries()) == before


def test_every_sort_order_walked_through_puts_no_page_into_the_shared_cache(client, tournament):
    client.force_login(UserFactory())
    client.get(url(tournament))
    before = shared_entries()
    orders = ["name", "-name", "small_points", "-small_points"]

    for first, second in itertools.product(orders, repeat=2):
        keys = [ranking_list.key for ranking_list in RANKING_LISTS[:2]]
        page = client.get(url(tournament), {f"{keys[0]}-sort": first, f"{keys[1]}-sort": second})
        assert page.status_code == 200

    assert shared_entries() == before


def test_the_pages_kept_in_a_process_stay_bounded_whatever_the_sort_orders(client, tournament, monkeypatch):
    monkeypatch.setattr(page_store, "pages", LruStore(3))
    monkeypatch.setattr(page_store, "contents", LruStore(3))
    orders = ["name", "-name", "small_points", "-small_points", "label", "-label"]

    for order in orders:
        client.get(url(tournament), {"individual-sort": order})
    client.force_login(UserFactory())
    for order in orders:
        client.get(url(tournament), {"individual-sort": order})

    assert len(page_store.pages) == 3 and len(page_store.contents) == 3
