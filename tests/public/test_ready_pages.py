"""The standings page kept ready for anonymous spectators: a reload within the
stamp's second costs no query, results reach the page once it has passed, and
nothing a visitor sends makes the stores grow."""

from __future__ import annotations

import os
import threading

import pytest
from django.test import Client
from django.urls import reverse

from league.public import page_store
from league.public.page_store import LruStore, ReadyPage
from tests.factories import played_series
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return league_tournament(tables=3, series=2)


def url(tournament) -> str:
    return reverse("public:standings", args=[tournament.slug])


def test_a_reload_within_the_second_is_answered_without_a_query(client, tournament, clock, django_assert_num_queries):
    first = client.get(url(tournament), HTTP_ACCEPT_ENCODING="gzip")

    with django_assert_num_queries(0):
        again = client.get(url(tournament), HTTP_ACCEPT_ENCODING="gzip")

    assert again.status_code == 200 and again.content == first.content
    assert again["Content-Encoding"] == "gzip" and again["ETag"] == first["ETag"]


def test_a_closed_series_reaches_the_spectators_once_the_second_has_passed(client, tournament, clock):
    before = client.get(url(tournament)).content.decode()
    newcomer = league_tournament(tables=1, series=0).registrations.first().player
    tournament.registrations.create(player=newcomer, checked_in=True)
    others = [r.player for r in tournament.registrations.exclude(player=newcomer).order_by("pk")[:3]]
    played_series(tournament, 3, [list(zip([newcomer, *others], (90, 10, -40, -60), strict=True))])

    assert newcomer.last_name not in client.get(url(tournament)).content.decode()  # within the second
    clock.now += 1.5
    after = client.get(url(tournament)).content.decode()

    assert newcomer.last_name not in before and newcomer.last_name in after


def test_the_kept_page_carries_no_visitors_token_and_the_language_switch_still_works(tournament, clock):
    browser = Client(enforce_csrf_checks=True)
    page = browser.get(url(tournament)).content.decode()

    assert "csrfmiddlewaretoken" not in page and "X-CSRFToken" not in page
    switched = browser.post(reverse("set_language"), {"language": "pl", "next": url(tournament)})
    assert switched.status_code == 302
    assert "Klasyfikacja" in browser.get(url(tournament)).content.decode()


def test_made_up_addresses_and_parameters_fill_no_store(client, tournament, clock):
    client.get(url(tournament))
    kept = len(page_store.pages), len(page_store._stamps)

    for number in range(20):
        assert client.get(reverse("public:standings", args=[f"nie-ma-{number}"])).status_code == 404
        client.get(url(tournament), {"x": number, "individual-sort": f"bogus{number}"})

    assert (len(page_store.pages), len(page_store._stamps)) == kept


def test_the_store_forgets_the_least_recently_used_pages_beyond_its_size():
    store: LruStore[int] = LruStore(2)
    store.put("a", 1)
    store.put("b", 2)
    store.get("a")
    store.put("c", 3)

    assert (store.get("a"), store.get("b"), store.get("c")) == (1, None, 3)


def test_the_store_forgets_the_oldest_pages_beyond_its_bytes_and_keeps_the_newest_however_big():
    """Issue 40: the store was bounded by a count alone, so 256 long seasons' pages could hold a
    process's memory; it holds at most ``max_bytes`` of pages (their compressed bodies)."""
    store: LruStore[ReadyPage] = LruStore(100, max_bytes=3000, weigh=ReadyPage.weight)

    def page(size: int) -> ReadyPage:
        return ReadyPage.of(etag='"x"', last_modified=0, body=os.urandom(size))  # noise: gzip cannot shrink it

    store.put("season", page(1000))
    store.put("standings", page(1000))
    store.put("player", page(1000))
    assert (len(store), store.get("season") is None) == (2, True)
    assert store.bytes <= 3000
    store.put("huge", page(5000))
    assert (len(store), store.get("huge") is not None) == (1, True)


def test_spectators_missing_the_page_together_build_it_once():
    store: LruStore[str] = LruStore(4)
    builds: list[int] = []
    started, release = threading.Event(), threading.Event()

    def build() -> str:
        builds.append(1)
        started.set()
        release.wait(5)
        return "page"

    first = threading.Thread(target=store.get_or_build, args=("standings", build))
    first.start()
    started.wait(5)
    others = [threading.Thread(target=store.get_or_build, args=("standings", build)) for _ in range(7)]
    for thread in others:
        thread.start()
    release.set()
    for thread in [first, *others]:
        thread.join(5)

    assert len(builds) == 1
    assert store.get_or_build("standings", build) == "page"
    assert store._building == {}  # nothing left behind per key


def test_the_logged_in_visitors_contents_are_bounded_by_their_size_too():
    """Issue 40: the page store is bounded by bytes; the contents kept for logged-in visitors
    were bounded by a count alone, so a few long tables could hold a process's memory."""
    big = "x" * (page_store.CONTENT_BYTES_KEPT // 3)
    for key in range(5):
        page_store.contents.put(key, {"name": "Puchar", "content": big})

    assert page_store.contents.bytes <= page_store.CONTENT_BYTES_KEPT
    assert len(page_store.contents) == 2 and page_store.contents.get(4) is not None
