"""Redis down: every page works without the cache, a little slower, and /zdrowie/ says so.

The cache points, through the backend production uses (``league.cache_backend``), at a
Redis address where nothing listens (connection refused at once), at one that accepts and
never answers, or at a real ``redis-server`` of the test's own that hangs for a while.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import signal
import socket
import subprocess
import time
from datetime import timedelta

import pytest
from django.core.cache import cache, caches
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from redis.exceptions import RedisError

from league import cache_backend
from league.models import Series
from league.results.table.pin import MAX_WRONG_TRIES
from tests.factories import TournamentFactory, UserFactory, drawn_series
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db

NOBODY_LISTENS = "redis://127.0.0.1:1/0"


@pytest.fixture(autouse=True)
def no_outage_seen_yet(monkeypatch):
    """Each test meets the dead Redis afresh, as a new web process would."""
    monkeypatch.setattr(cache_backend, "_outages", {})


def redis_at(settings, location: str) -> None:
    # changing CACHES makes Django drop the cache objects made so far (django.test.signals)
    settings.CACHES = {"default": {"BACKEND": "league.cache_backend.ForgivingRedisCache", "LOCATION": location}}


@pytest.fixture
def redis_down(settings):
    redis_at(settings, NOBODY_LISTENS)


@pytest.fixture
def tournament():
    return league_tournament(tables=2, series=2)


def leader_name(tournament) -> str:
    return tournament.registrations.select_related("player").first().player.last_name


def test_with_redis_down_the_cache_answers_every_operation_as_a_miss(redis_down):
    assert cache.get("key", "default") == "default"
    assert cache.get_many(["key"]) == {}
    assert cache.add("key", 1) is False
    assert cache.set("key", 1) is False
    assert cache.touch("key") is False
    assert cache.delete("key") is False
    assert cache.has_key("key") is False
    with pytest.raises(ValueError):
        cache.incr("key")
    with pytest.raises(ValueError):
        cache.decr("key")


def test_a_dead_redis_is_logged_once_not_on_every_operation(redis_down, caplog):
    with caplog.at_level(logging.WARNING, logger="league.cache_backend"):
        for _ in range(50):
            cache.get("key")
            cache.set("key", 1)

    assert len(caplog.records) == 1 and NOBODY_LISTENS in caplog.records[0].getMessage()


def test_with_redis_down_the_public_standings_page_is_still_served(redis_down, client, tournament):
    response = client.get(reverse("public:standings", args=[tournament.slug]))

    assert response.status_code == 200
    assert leader_name(tournament) in response.content.decode()


def test_with_redis_down_a_logged_in_visitor_stays_logged_in_and_sees_the_standings(redis_down, client, tournament):
    user = UserFactory(first_name="Ala", last_name="Sędzia")
    client.force_login(user)  # the session lives in the database too (cached_db)

    page = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()

    assert "Ala Sędzia" in page and leader_name(tournament) in page


def test_with_redis_down_the_api_and_the_projector_answer(redis_down, client, tournament):
    api = client.get(reverse("public:api_standings", args=[tournament.slug]))
    projector = client.get(reverse("public:projector", args=[tournament.slug]))

    assert api.status_code == 200 and api.json()["individual"]
    assert projector.status_code == 200 and leader_name(tournament) in projector.content.decode()


def test_with_redis_down_every_public_page_of_a_tournament_opens(redis_down, client, tournament):
    registration = tournament.registrations.first()
    urls = [
        reverse("home"),
        reverse("public:season", args=[tournament.season.slug]),
        reverse("public:tournament", args=[tournament.slug]),
        reverse("public:series", args=[tournament.slug, 1]),
        reverse("public:table", args=[tournament.slug, 1, 1]),
        reverse("public:player", args=[registration.player_id]),
        reverse("public:team", args=[registration.team_id]),
    ]

    assert {url: client.get(url).status_code for url in urls} == dict.fromkeys(urls, 200)


def pin_url(protocol, name: str = "pin") -> str:
    series = protocol.series
    return reverse(f"table:{name}", args=[series.tournament.slug, series.number, protocol.table])


def test_with_redis_down_the_right_pin_still_opens_the_protocol(redis_down):
    protocol = drawn_series(status=Series.Status.IN_PLAY).protocols.get()
    phone = Client()

    response = phone.post(pin_url(protocol), {"pin": protocol.pin, "seat": "A"})

    assert response.status_code == 302
    assert phone.get(pin_url(protocol, "protocol")).status_code == 200


def test_with_redis_down_a_wrong_pin_is_refused_with_the_usual_message(redis_down):
    protocol = drawn_series(status=Series.Status.IN_PLAY).protocols.get()
    wrong = "9999" if protocol.pin != "9999" else "0000"
    phone = Client()

    answers = [phone.post(pin_url(protocol), {"pin": wrong, "seat": "A"}) for _ in range(MAX_WRONG_TRIES)]

    assert [a.status_code for a in answers] == [200] * MAX_WRONG_TRIES
    assert "Wrong PIN" in answers[0].content.decode()


def test_with_redis_down_the_health_check_names_the_cache(redis_down, client):
    response = client.get("/zdrowie/")

    assert response.json()["cache"] == "error: ConnectionError"
    # the app works without the cache, so a load balancer must keep sending it requests
    assert response.status_code == 200


@pytest.fixture
def redis_silent(settings):
    """A Redis address that accepts connections and never answers (a hung or unreachable server)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        redis_at(settings, f"redis://127.0.0.1:{listener.getsockname()[1]}/0")
        yield


def test_a_redis_that_never_answers_holds_a_page_up_for_a_moment_only(redis_silent, client, tournament):
    started = time.monotonic()
    response = client.get(reverse("public:standings", args=[tournament.slug]))

    assert response.status_code == 200
    assert time.monotonic() - started < 2


# --- Redis that stops answering for a while, then comes back ------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def redis_server(settings):
    """A real Redis of the test's own, which the test pauses (SIGSTOP) and resumes (SIGCONT) like a hung server."""
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    port = free_port()
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL
    )
    try:
        redis_at(settings, f"redis://127.0.0.1:{port}/0")
        for _ in range(50):
            with contextlib.suppress(RedisError):
                caches["default"].ping()
                break
            time.sleep(0.05)
        yield server
    finally:
        server.send_signal(signal.SIGCONT)
        server.terminate()
        server.wait()


def test_a_logout_while_redis_hangs_holds_once_redis_answers_again(redis_server, client, monkeypatch, settings):
    monkeypatch.setattr(cache_backend, "RETRY_SECONDS", 0.5)
    client.force_login(UserFactory(first_name="Ala", last_name="Sędzia"))
    home = reverse("home")
    assert "Ala Sędzia" in client.get(home).content.decode()  # the session is in Redis now
    # what a thief of the cookie (or the next person at a shared phone) would hold on to
    kept_cookie = client.cookies[settings.SESSION_COOKIE_NAME].value

    redis_server.send_signal(signal.SIGSTOP)
    assert client.post(reverse("logout")).status_code == 302
    redis_server.send_signal(signal.SIGCONT)
    time.sleep(0.6)  # the backend tries Redis again

    thief = Client()
    thief.cookies[settings.SESSION_COOKIE_NAME] = kept_cookie
    assert "Ala Sędzia" not in thief.get(home).content.decode()


def test_once_redis_answers_again_the_cache_is_used_again(redis_server, client, monkeypatch):
    monkeypatch.setattr(cache_backend, "RETRY_SECONDS", 0.3)
    redis_server.send_signal(signal.SIGSTOP)
    assert cache.get("key", "miss") == "miss"
    assert client.get("/zdrowie/").json()["cache"] == "error: TimeoutError"

    redis_server.send_signal(signal.SIGCONT)
    time.sleep(0.35)
    cache.set("key", "stored")

    assert cache.get("key") == "stored"
    assert client.get("/zdrowie/").json()["cache"] == "ok"


# --- what is kept in Redis: JSON, never a pickle ----------------------------------

REAL_REDIS = "redis://127.0.0.1:6379/13"  # a database of its own: the tests empty it
RUN_BY_A_PLANTED_VALUE: list[str] = []


def _run_planted_code() -> str:
    RUN_BY_A_PLANTED_VALUE.append("ran")
    return "planted"


class Planted:
    """What an attacker with write access to Redis would plant: unpickling it runs code."""

    def __reduce__(self):
        return (_run_planted_code, ())


@pytest.fixture
def real_redis(settings):
    redis_at(settings, REAL_REDIS)
    try:
        cache.clear()
    except RedisError:
        pytest.skip("no Redis at 127.0.0.1:6379")
    yield
    cache.clear()


def test_a_pickle_planted_in_redis_is_not_unpickled_and_reads_as_nothing(real_redis):
    import pickle

    client = cache._cache.get_client(write=True)
    client.set(cache.make_key("standings:seen:1"), pickle.dumps(Planted()))

    assert cache.get("standings:seen:1") is None
    assert RUN_BY_A_PLANTED_VALUE == []


def test_what_the_league_caches_comes_back_from_redis_as_it_went_in(real_redis):
    from league.public.page_store import SHARED_PAGE, ReadyPage
    from league.standings.cache import PROGRESS, TOURNAMENT_RANKINGS

    page = ("stamp", ReadyPage.of(etag='"e"', last_modified=1_780_000_000, body=b"<p>Puchar</p>"))
    progress = ("stamp", [(1, {7: (1, "1."), 8: (2, "2–3.")})])
    entry = {"place": 1, "label": "1.", "name": "Anna Nowak", "pk": 7, "team": None}
    rankings = ("stamp", {"individual": [entry | {"big_points": 12.5, "small_points": 3.5}], "teams": []})
    for kind, value in ((SHARED_PAGE, page), (PROGRESS, progress), (TOURNAMENT_RANKINGS, rankings)):
        kind.set(kind.name, value)
        assert kind.get(kind.name) == value

    assert cache.add("pin-tries", 0) and cache.incr("pin-tries") == 1  # counters stay Redis integers
    raw = cache._cache.get_client().get(cache.make_key(TOURNAMENT_RANKINGS.name))
    assert raw.startswith(b'["stamp",')  # JSON, readable by anyone, runnable by no one


def test_no_value_over_a_megabyte_is_kept_in_redis_and_the_rest_still_is(real_redis, caplog):
    huge = {
        "individual": [{"name": "Żaneta Wójcik-Łęcka", "results": list(range(40))}] * 10_000
    }  # about 1.6 MB of JSON
    cache.set("rankings:season:1:old", {"individual": []})

    with caplog.at_level(logging.WARNING, logger="league.cache_backend"):
        cache.set("rankings:season:1:old", huge)
        not_stored = cache.set_many({"rankings:season:1:new": huge, "standings:seen:1": ("stamp", 1)})

    assert cache.get("rankings:season:1:old") is None  # neither the huge value nor the one it replaced
    assert not_stored == ["rankings:season:1:new"]
    assert cache.get("standings:seen:1") == ["stamp", 1]  # plain JSON: the kinds give it its type
    assert cache.add("rankings:season:1:new", huge) is False
    assert "too large" in caplog.text


def test_with_redis_down_one_address_still_sends_only_so_many_sign_up_forms(redis_down, client, monkeypatch):
    """The counts fall back to the database: 35 of 35 forms from one address were accepted."""
    from league.signups import limits
    from league.signups.models import SignUp
    from tests.signups.test_signups import form_data, open_window

    monkeypatch.setattr(limits, "SENDS_PER_WINDOW", 3)
    tournament = TournamentFactory(date=timezone.localdate() + timedelta(days=10))
    open_window(tournament)
    url = reverse("signups:signup", args=[tournament.slug])
    answers = [
        client.post(url, form_data(form_token=f"t{n}", first_name="Jan", last_name=f"Bork{'a' * n}")).status_code
        for n in range(5)
    ]
    assert answers == [302, 302, 302, 429, 429]
    assert SignUp.objects.count() == 3
    assert client.post(url, form_data(form_token="other"), REMOTE_ADDR="10.0.0.9").status_code == 302


def test_with_redis_down_a_phones_wrong_pins_are_still_counted_and_lock_it(redis_down):
    """The phone's count falls back to the database: with Redis down it was never locked."""
    protocol = drawn_series(status=Series.Status.IN_PLAY).protocols.get()
    wrong = "9999" if protocol.pin != "9999" else "0000"
    phone = Client()
    for _ in range(MAX_WRONG_TRIES):
        phone.post(pin_url(protocol), {"pin": wrong, "seat": "A"})

    refused = phone.post(pin_url(protocol), {"pin": protocol.pin, "seat": "A"})

    assert refused.status_code != 302, "the phone was let in after its tries were used up"
