"""The public standings page under a hall full of spectators: compressed,
answered with 304 while nothing changed, and cached per stamp, language and
sort order — never per made-up query parameter."""

from __future__ import annotations

import gzip
import re

import pytest
from django.urls import reverse

from league.public import page_store
from league.tournaments.services import series_results_publication_toggle
from tests.caches import cache_size
from tests.factories import played_series
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return league_tournament(tables=3, series=2)


def url(tournament) -> str:
    return reverse("public:standings", args=[tournament.slug])


def cache_entries() -> int:
    # the shared cache, and the pages kept ready for anonymous visitors
    return cache_size() + len(page_store.pages)


def test_the_page_is_gzip_compressed_for_a_browser_that_accepts_it(client, tournament):
    leader = tournament.registrations.first().player

    response = client.get(url(tournament), HTTP_ACCEPT_ENCODING="gzip, deflate")

    assert response["Content-Encoding"] == "gzip"
    assert leader.last_name in gzip.decompress(response.content).decode()
    assert "Accept-Encoding" in response["Vary"]


def test_a_conditional_get_with_the_etag_gets_304_until_a_series_closes(client, tournament):
    first = client.get(url(tournament))
    assert first.status_code == 200 and first["ETag"]

    again = client.get(url(tournament), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]

    people = [r.player for r in tournament.registrations.order_by("pk")[:4]]
    played_series(tournament, 3, [list(zip(people, (30, 10, -10, -30), strict=True))])
    changed = client.get(url(tournament), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_a_conditional_get_by_date_gets_304_until_the_standings_change(client, tournament):
    first = client.get(url(tournament))

    assert client.get(url(tournament), HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304

    # publishing a series writes no timestamp, yet the page's date moves on
    series_results_publication_toggle(series=tournament.series.get(number=2))
    changed = client.get(url(tournament), HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert changed.status_code == 200 and changed["Last-Modified"] != first["Last-Modified"]


def test_made_up_query_parameters_neither_add_cache_entries_nor_reach_the_page(client, tournament):
    client.get(url(tournament))
    entries = cache_entries()

    for junk in ({"x": "random"}, {"x": "other", "y": "1"}, {"individual-sort": "not_a_column"}):
        links = re.findall(r'href="([^"]*)"', client.get(url(tournament), junk).content.decode())
        assert links and not [link for link in links if "random" in link or "not_a_column" in link]

    assert cache_entries() == entries


def test_each_sort_order_and_language_is_a_page_of_its_own(client, tournament):
    by_name = client.get(url(tournament), {"individual-sort": "name"}).content.decode()
    by_points = client.get(url(tournament), {"individual-sort": "-small_points"}).content.decode()
    entries = cache_entries()

    names = sorted(r.player.full_name for r in tournament.registrations.select_related("player"))
    assert by_name.index(names[0]) < by_name.index(names[-1])
    assert by_name != by_points
    polish = client.get(url(tournament), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Klasyfikacja" in polish or "klasyfikacja" in polish
    assert cache_entries() == entries + 1


def test_a_logged_in_visitor_sees_their_own_head_on_a_cached_page(client, tournament, django_user_model):
    client.get(url(tournament))  # cached for anyone
    user = django_user_model.objects.create_user("sedzia", first_name="Ala", last_name="Sędzia")
    client.force_login(user)

    page = client.get(url(tournament)).content.decode()

    assert "Ala Sędzia" in page
    client.logout()
    assert "Ala Sędzia" not in client.get(url(tournament)).content.decode()


def test_an_unknown_tournament_is_not_found(client):
    assert client.get(reverse("public:standings", args=["nie-ma"])).status_code == 404
