"""How many PINs a guesser may try: per phone, per address, per table, also in parallel and with the cache down.

A guesser who rotates addresses or throws the session cookie away ends at the table's cap,
which is kept in the database; the phones behind one trusted proxy are told apart by the
address the proxy names, and a forged X-Forwarded-For from anyone else counts for nothing.
"""

from __future__ import annotations

import importlib
import threading
import time

import pytest
from django.db import connection
from django.db.backends.signals import connection_created
from django.db.migrations.loader import MigrationLoader
from django.test import Client
from django.urls import reverse

from league.net import client_ip
from league.printing import documents
from league.results.models import Protocol
from league.results.table import pin
from tests.factories import UserFactory, drawn_series
from tests.results.test_table_views import enter_pin, url, wrong_pin

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.254"


@pytest.fixture
def protocol() -> Protocol:
    return drawn_series(tables=2).protocols.get(table=1)


def phone(address: str = "127.0.0.1", **headers: str) -> Client:
    return Client(REMOTE_ADDR=address, **headers)


def behind_proxy(address: str) -> Client:
    return phone(PROXY, HTTP_X_FORWARDED_FOR=address)


def locked(response) -> bool:
    return response.context["form"].refused_unheard()


def guess_until_locked(protocol: Protocol, new_phone, limit: int = 100) -> int:
    """Wrong PINs, each from a phone made by ``new_phone(n)``, until one is refused unheard; how many were heard."""
    for tries in range(limit):
        response = enter_pin(new_phone(tries), protocol, wrong_pin(protocol))
        if locked(response):
            return tries
        assert response.context["form"].has_error("pin", "wrong")
    raise AssertionError(f"still guessing after {limit} wrong PINs")


# --- the table's cap, across addresses (item 3) ---------------------------------------------


def test_guesses_from_ever_new_addresses_lock_the_table_until_the_referee_unlocks_it(client, protocol):
    heard = guess_until_locked(protocol, lambda n: phone(f"10.1.{n // 250}.{n % 250 + 1}"))
    assert heard == Protocol.PIN_LOCK_TRIES
    # Now the right PIN is refused too, from any address, and the phone is told whom to ask.
    refused = enter_pin(phone("192.0.2.1"), protocol, seat="B")
    assert refused.status_code == 403 and refused.context["form"].has_error("pin", "table_locked")
    assert "ask the referee" in refused.content.decode()
    polish = enter_pin(phone("192.0.2.2", HTTP_ACCEPT_LANGUAGE="pl"), protocol).content.decode()
    assert "sędziego" in polish
    # The referee sees the alert on the series page and unlocks the table from its protocol page.
    referee = UserFactory()
    protocol.series.tournament.referees.add(referee)
    client.force_login(referee)
    args = [protocol.series.tournament.slug, protocol.series.number]
    series_page = client.get(reverse("results:series", args=args)).content.decode()
    assert "PIN page locked" in series_page
    assert client.post(reverse("results:unlock", args=[*args, protocol.table])).status_code == 302
    assert enter_pin(phone("192.0.2.3"), protocol, seat="B").status_code == 302


def test_the_table_cap_lives_in_the_database_and_holds_with_the_cache_down(settings, protocol):
    # Nothing listens on port 9: every cache call fails, as with a stopped Redis.
    settings.CACHES = {
        "default": {"BACKEND": "league.cache_backend.ForgivingRedisCache", "LOCATION": "redis://127.0.0.1:9/0"}
    }
    one_phone = phone()
    # the phone's own count falls back to the database (league.net): it is locked as usual
    assert guess_until_locked(protocol, lambda n: one_phone) == pin.MAX_WRONG_TRIES
    # a guesser with ever new addresses ends at the table's cap
    heard = guess_until_locked(protocol, lambda n: phone(f"10.2.{n // 250}.{n % 250 + 1}"))
    assert pin.MAX_WRONG_TRIES + heard == Protocol.PIN_LOCK_TRIES
    assert Protocol.objects.get(pk=protocol.pk).wrong_pins == Protocol.PIN_LOCK_TRIES
    assert enter_pin(phone("192.0.2.9"), protocol).status_code == 403


def test_right_pins_do_not_count_against_the_table(protocol):
    for seat in "ABCD" * 6:
        assert enter_pin(phone(), protocol, seat=seat).status_code == 302
    assert Protocol.objects.get(pk=protocol.pk).wrong_pins == 0


# --- the referee releases a locked phone (issue 24, item 3) ---------------------------------


@pytest.mark.parametrize("release", ["unlock", "new_pin"])
def test_the_referees_unlock_or_new_pin_lets_a_locked_phone_in_again(client, protocol, release):
    locked_phone = phone()
    assert guess_until_locked(protocol, lambda n: locked_phone) == pin.MAX_WRONG_TRIES
    referee = UserFactory()
    protocol.series.tournament.referees.add(referee)
    client.force_login(referee)
    args = [protocol.series.tournament.slug, protocol.series.number, protocol.table]
    assert client.post(reverse(f"results:{release}", args=args)).status_code == 302
    protocol.refresh_from_db()
    # the same phone, with its cookie, typing the right PIN (the new one after a new PIN)
    assert enter_pin(locked_phone, protocol).status_code == 302


# --- two doors: the QR code's token, and the short address typed by hand (issue 24, item 4) ------


def by_hand(address: str):
    """A guess at the table's short address, without the token, from a new phone at ``address``."""
    return lambda protocol: enter_pin(phone(address), protocol, wrong_pin(protocol), by_hand=True)


def test_guessing_at_the_short_address_never_locks_out_the_phones_from_the_qr_code(client, protocol):
    # An attacker who knows only the sequential address: 50 wrong PINs from ever new addresses.
    for n in range(50):
        by_hand(f"10.3.{n // 250}.{n % 250 + 1}")(protocol)
    protocol.refresh_from_db()
    assert protocol.hand_wrong_pins == Protocol.HAND_LOCK_TRIES and protocol.wrong_pins == 0
    # A player typing the short address by hand is sent to the QR code, in Polish, even with the right PIN.
    refused = enter_pin(phone("192.0.2.1", HTTP_ACCEPT_LANGUAGE="pl"), protocol, by_hand=True)
    assert refused.status_code == 403 and refused.context["form"].has_error("pin", "hand_locked")
    assert "Zeskanuj kod QR" in refused.content.decode()
    assert "Zeskanuj kod QR" in phone(HTTP_ACCEPT_LANGUAGE="pl").get(url(protocol)).content.decode()
    # A phone that scanned the QR code still opens the table with the right PIN, from the attacker's address too.
    assert enter_pin(phone("10.3.0.1"), protocol).status_code == 302
    # The referee's unlock opens the short address again.
    referee = UserFactory()
    protocol.series.tournament.referees.add(referee)
    client.force_login(referee)
    args = [protocol.series.tournament.slug, protocol.series.number, protocol.table]
    assert "only the QR code opens it" in client.get(reverse("printing:pins", args=args[:2])).content.decode()
    assert (
        "phones scanning its QR code still get in"
        in client.get(reverse("results:series", args=args[:2])).content.decode()
    )
    assert client.post(reverse("results:unlock", args=args)).status_code == 302
    assert enter_pin(phone("192.0.2.2"), protocol, by_hand=True).status_code == 302


def test_a_wrong_or_old_token_is_the_short_address(client, protocol):
    forged = Protocol(pk=protocol.pk, series=protocol.series, table=protocol.table, table_token="guessed-token")
    for n in range(Protocol.HAND_LOCK_TRIES):
        enter_pin(phone(f"10.4.0.{n + 1}"), forged, wrong_pin(protocol))
    protocol.refresh_from_db()
    assert protocol.hand_wrong_pins == Protocol.HAND_LOCK_TRIES and protocol.wrong_pins == 0
    # The referee's new PIN draws a new token: the QR code printed before leads to the short address.
    old_token = protocol.table_token
    referee = UserFactory()
    protocol.series.tournament.referees.add(referee)
    client.force_login(referee)
    args = [protocol.series.tournament.slug, protocol.series.number, protocol.table]
    client.post(reverse("results:new_pin", args=args))
    protocol.refresh_from_db()
    assert protocol.table_token != old_token
    assert 'name="t"' not in phone().get(url(protocol) + f"?t={old_token}").content.decode()


def test_the_qr_code_and_the_referees_link_carry_the_token_to_the_pin_form(client, protocol, monkeypatch):
    monkeypatch.setattr(documents, "qr_data_uri", lambda address: address)  # the QR code's text, not its picture
    [sheet] = documents.protocol_sheets(protocol.series, [protocol.table], filled=False, base_url="http://hala/")
    assert sheet.qr == f"http://hala{url(protocol)}?t={protocol.table_token}"
    assert sheet.link == f"hala{url(protocol)}".rstrip("/")  # the short address, for typing by hand
    referee = UserFactory()
    protocol.series.tournament.referees.add(referee)
    client.force_login(referee)
    pins_page = client.get(reverse("printing:pins", args=[protocol.series.tournament.slug, protocol.series.number]))
    assert f"{url(protocol)}?t={protocol.table_token}" in pins_page.content.decode()
    # The page the QR code opens sends the token back with the PIN; the phone keeps it for its next PIN.
    scanned = phone()
    form_page = scanned.get(sheet.qr.removeprefix("http://hala")).content.decode()
    assert f'name="t" value="{protocol.table_token}"' in form_page
    assert enter_pin(scanned, protocol).status_code == 302
    assert f'name="t" value="{protocol.table_token}"' in scanned.get(url(protocol, "pin")).content.decode()


def test_the_migration_gives_each_existing_table_its_own_token():
    series = drawn_series(tables=3)
    series.protocols.update(table_token="")  # as the new column left the rows written before it
    apps = MigrationLoader(connection).project_state(("results", "0012_table_token")).apps
    importlib.import_module("league.results.migrations.0012_table_token").give_each_table_its_own_token(apps, None)
    tokens = set(series.protocols.values_list("table_token", flat=True))
    assert len(tokens) == 3 and "" not in tokens


# --- the guessing phone first, one address next (item 4) --------------------------------------


def test_the_guessing_phone_is_locked_before_its_address(protocol):
    guesser = phone("198.51.100.7")
    assert guess_until_locked(protocol, lambda n: guesser) == pin.MAX_WRONG_TRIES
    # another phone on the same Wi-Fi, i.e. the same public address, still gets in
    assert enter_pin(phone("198.51.100.7"), protocol).status_code == 302


def test_behind_the_trusted_proxy_one_guesser_does_not_lock_out_the_other_phones(settings, protocol):
    settings.TRUSTED_PROXIES = [PROXY]
    heard = guess_until_locked(protocol, lambda n: behind_proxy("203.0.113.5"))  # a new cookie every try
    assert heard < Protocol.PIN_LOCK_TRIES  # the guesser's address was locked, not the table
    assert locked(enter_pin(behind_proxy("203.0.113.5"), protocol))
    assert enter_pin(behind_proxy("203.0.113.6"), protocol).status_code == 302


def test_a_forged_forwarded_for_from_an_untrusted_address_is_ignored(settings, protocol):
    settings.TRUSTED_PROXIES = [PROXY]
    heard = guess_until_locked(protocol, lambda n: phone("198.51.100.7", HTTP_X_FORWARDED_FOR=f"203.0.113.{n + 1}"))
    assert heard < Protocol.PIN_LOCK_TRIES  # counted under 198.51.100.7 whatever the header said
    assert locked(enter_pin(phone("198.51.100.7", HTTP_X_FORWARDED_FOR="192.0.2.77"), protocol))


@pytest.mark.parametrize(
    ("remote", "forwarded", "expected"),
    [
        ("198.51.100.7", "203.0.113.5", "198.51.100.7"),  # not a proxy of ours: the header is the client's own claim
        (PROXY, "203.0.113.5", "203.0.113.5"),
        (PROXY, "192.0.2.1, 203.0.113.5", "203.0.113.5"),  # the client may prepend anything; the proxy appends
        (PROXY, "not-an-address", PROXY),
        (PROXY, "", PROXY),
    ],
)
def test_the_client_address_is_read_through_trusted_proxies_only(rf, settings, remote, forwarded, expected):
    settings.TRUSTED_PROXIES = [PROXY]
    assert client_ip(rf.get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)) == expected


def test_the_login_lockout_counts_the_address_the_trusted_proxy_names(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    UserFactory(username="sedzia")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        behind_proxy("203.0.113.5").post(reverse("login"), {"username": "sedzia", "password": "wrong"})
    refused = behind_proxy("203.0.113.5").post(reverse("login"), {"username": "sedzia", "password": "test-password"})
    assert refused.status_code == 429  # django-axes' lockout
    colleague = behind_proxy("203.0.113.6").post(reverse("login"), {"username": "sedzia", "password": "test-password"})
    assert colleague.status_code == 302


# --- parallel guesses (item 16) --------------------------------------------------------------


def readers_do_not_wait(sender, connection, **kwargs) -> None:
    """The test database is SQLite in memory with a shared cache, where a read during another
    connection's write fails at once ("table is locked") instead of waiting as a file database
    or PostgreSQL does; reading uncommitted rows lets the tries' reads through (the counting
    itself is a conditional UPDATE, which still takes the write lock)."""
    if connection.vendor == "sqlite":
        connection.cursor().execute("PRAGMA read_uncommitted = 1")


def parallel_wrong_pins(protocol: Protocol, monkeypatch, clients: list[Client]) -> list:
    """Every client sends a wrong PIN at the same moment; comparing a PIN is slowed down so that
    all of them are inside the PIN check together, as with many workers."""
    compare = pin.constant_time_compare

    def slow_compare(*args):
        time.sleep(0.2)
        return compare(*args)

    monkeypatch.setattr(pin, "constant_time_compare", slow_compare)
    connection_created.connect(readers_do_not_wait)
    for client in clients:
        client.session.save()  # each phone has its session before the race (a GET would give it one too)
    start = threading.Barrier(len(clients))
    responses: list = []

    def guess(client: Client) -> None:
        try:
            start.wait()
            responses.append(enter_pin(client, protocol, wrong_pin(protocol)))
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    connection_created.disconnect(readers_do_not_wait)
    return responses


def heard(responses: list) -> int:
    """How many were compared and found wrong (200); the others were refused unheard (403).
    Read from the status: the test client's captured contexts mix across threads."""
    assert all(response.status_code in (200, 403) for response in responses)
    return sum(response.status_code == 200 and "Wrong PIN" in response.content.decode() for response in responses)


@pytest.mark.django_db(transaction=True)
def test_parallel_guesses_from_one_address_are_heard_only_up_to_the_address_limit(monkeypatch):
    protocol = drawn_series().protocols.get()
    responses = parallel_wrong_pins(protocol, monkeypatch, [phone("198.51.100.7") for _ in range(30)])
    assert len(responses) == 30
    assert heard(responses) == pin.ADDRESS_MAX_WRONG_TRIES


@pytest.mark.django_db(transaction=True)
def test_parallel_guesses_from_many_addresses_are_heard_only_up_to_the_table_cap(monkeypatch):
    protocol = drawn_series().protocols.get()
    responses = parallel_wrong_pins(protocol, monkeypatch, [phone(f"10.2.0.{n + 1}") for n in range(30)])
    assert heard(responses) == Protocol.PIN_LOCK_TRIES
    assert Protocol.objects.get(pk=protocol.pk).wrong_pins == Protocol.PIN_LOCK_TRIES
