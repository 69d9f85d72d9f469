"""A kept page's ``Last-Modified`` is the latest write among what it shows (issue 40): the stored
stamps' ``changed`` of its tournaments and its rows' own dates. It used to be the first time a web
process (or its cache) saw a state, kept in the cache under a ``seen`` key for every page: two
processes with caches of their own gave one page two dates, and every state left a key behind."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from django.utils.http import parse_http_date

from league.models import Tournament
from league.public import page_store
from league.standings.models import TournamentStamp
from league.tournaments.services import series_results_publication_toggle, tournament_delete, tournament_update
from tests.caches import cache_keys
from tests.factories import LeagueFactory, SeasonFactory, TournamentFactory
from tests.public.test_kept_pages import addresses
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db

# the pages that show nothing but the tournament's standings: dated by its stamp alone
STANDINGS_ONLY = ("standings", "standings CSV", "standings XLSX", "API")
# and those that show its standings among other things: dated by its stamp at the earliest
SHOWING_STANDINGS = (
    *STANDINGS_ONLY,
    *("tournament", "series", "table", "find my table", "season", "player", "team", "records", "league's records"),
)


@pytest.fixture
def tournament():
    league = LeagueFactory(name="Liga Kaszubska", slug="liga-kaszubska")
    season = SeasonFactory(league=league, name="Sezon Kaszubski", slug="sezon-kaszubski")
    return league_tournament(tables=2, series=2, season=season, league=league, date=timezone.localdate())


def every_address(tournament: Tournament) -> dict[str, str]:
    league = tournament.league.slug
    return addresses(tournament) | {
        "calendar": reverse("leagues:calendar", args=[league]),
        "calendar feed": reverse("leagues:calendar_ics", args=[league]),
        "records": reverse("public:records"),
        "league's records": reverse("public:records_league", args=[league]),
    }


def dates(client, tournament: Tournament) -> dict[str, int]:
    found = {}
    for name, address in every_address(tournament).items():
        response = client.get(address)
        assert response.status_code == 200, name
        found[name] = parse_http_date(response["Last-Modified"])
    return found


def stamp_second(tournament: Tournament) -> int:
    return int(TournamentStamp.objects.get(tournament=tournament).changed.timestamp())


def later(monkeypatch, seconds: int) -> None:
    """The clock moved on by ``seconds``."""
    now = timezone.now() + timedelta(seconds=seconds)
    monkeypatch.setattr(timezone, "now", lambda: now)


def test_every_kept_page_is_dated_by_what_it_shows_and_writes_no_key_to_date_it(client, tournament):
    found = dates(client, tournament)

    assert {name: found[name] for name in STANDINGS_ONLY} == dict.fromkeys(STANDINGS_ONLY, stamp_second(tournament))
    assert all(found[name] >= stamp_second(tournament) for name in SHOWING_STANDINGS)
    assert [key for key in cache_keys() if "seen" in key] == []


def test_another_web_process_asking_later_gives_every_page_the_same_date(client, tournament, monkeypatch):
    first = dates(client, tournament)

    later(monkeypatch, 3)
    page_store.forget_all()  # a process started since, with a cache of its own (the embedded default)
    cache.clear()

    assert dates(client, tournament) == first


def test_a_change_dates_every_page_showing_it_anew_however_soon_after_they_were_read(client, tournament):
    before = dates(client, tournament)

    series_results_publication_toggle(series=tournament.series.get(number=2))  # most likely in the same second
    after = dates(client, tournament)

    assert {name: after[name] > before[name] for name in SHOWING_STANDINGS} == dict.fromkeys(SHOWING_STANDINGS, True)


def test_a_calendar_app_asking_by_date_alone_gets_a_304_until_a_tournament_changes_or_leaves(client, monkeypatch):
    """Calendar apps poll the feed unattended, some with If-Modified-Since alone."""
    league = LeagueFactory(name="Złota Liga", slug="zlota-liga")
    kept = TournamentFactory(league=league, published=True, name="Puchar Pucka")
    leaving = TournamentFactory(league=league, published=True, name="Puchar Helu")
    url = reverse("leagues:calendar_ics", args=[league.slug])
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == "gzip" and first["ETag"] and "max-age" in first["Cache-Control"]
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304

    later(monkeypatch, 2)
    leaving.published = False  # leaves the feed: its date still moves on
    leaving.save()
    gone = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert gone.status_code == 200 and b"Puchar Helu" not in gone.content

    later(monkeypatch, 4)
    tournament_update(tournament=kept, name="Puchar Redy")
    renamed = client.get(url, HTTP_IF_MODIFIED_SINCE=gone["Last-Modified"])
    assert renamed.status_code == 200 and b"Puchar Redy" in renamed.content
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=renamed["Last-Modified"]).status_code == 304


def test_a_calendar_app_asking_by_date_alone_gets_the_feed_without_a_deleted_tournament(client, monkeypatch):
    league = LeagueFactory(name="Złota Liga", slug="zlota-liga")
    TournamentFactory(league=league, published=True, name="Puchar Pucka")
    deleted = TournamentFactory(league=league, published=True, name="Puchar Helu")
    url = reverse("leagues:calendar_ics", args=[league.slug])
    first = client.get(url)
    every_league = client.get(reverse("leagues:calendar_all_ics"))

    later(monkeypatch, 60)  # the feed's date was the latest edit: the deleted tournament's, maybe
    tournament_delete(tournament=deleted)

    gone = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert gone.status_code == 200 and b"Puchar Helu" not in gone.content
    assert (
        client.get(
            reverse("leagues:calendar_all_ics"), HTTP_IF_MODIFIED_SINCE=every_league["Last-Modified"]
        ).status_code
        == 200
    )


def test_a_tournament_no_change_has_stamped_yet_is_dated_by_its_row_and_answers_by_date(client, tournament):
    """After the upgrade that brought the stored stamps, no tournament has one until a change touches
    it: its pages are dated by the tournament's last save, so a browser asking by date gets a 304."""
    TournamentStamp.objects.all().delete()
    page_store.forget_all()
    cache.clear()
    url = reverse("public:standings", args=[tournament.slug])

    first = client.get(url)

    assert parse_http_date(first["Last-Modified"]) == int(Tournament.objects.get(pk=tournament.pk).updated.timestamp())
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304
