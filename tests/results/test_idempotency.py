"""Exactly once: a deal sent again (a retry storm from the phone, a double click on a form) is stored
once and answered as the first time; a key reused for another deal changes nothing.

The storms run real threads against the test database (SQLite serialises them through its write
lock and the services' retry, PostgreSQL through the protocol's row lock); run them on both. The
in-memory SQLite test database (shared cache) answers a read of a table being written with "table
is locked" at once, where a database file waits its busy timeout: the page then answers 503, and
the thread sends again, as the phone resends after any failed send.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import Counter

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from league.games.baska.shorthand import parse
from league.results.models import DealRow, DealSubmission, Protocol
from tests.factories import TournamentFactory, UserFactory, drawn_series

STORM = 20


def table_url(protocol: Protocol, name: str) -> str:
    series = protocol.series
    return reverse(f"table:{name}", args=[series.tournament.slug, series.number, protocol.table])


def referee_url(protocol: Protocol, name: str = "protocol", *args: int) -> str:
    series = protocol.series
    return reverse(f"results:{name}", args=[series.tournament.slug, series.number, protocol.table, *args])


def new_protocol() -> Protocol:
    return drawn_series(TournamentFactory(deals_per_series=8)).protocols.get()


def granted_phone(protocol: Protocol) -> Client:
    client = Client()
    assert client.post(table_url(protocol, "pin"), {"pin": protocol.pin, "seat": "B"}).status_code == 302
    return client


def storm(post, times: int = STORM) -> list:
    """Run ``post()`` in ``times`` threads released at once, each sending again after a 503; their answers."""
    start = threading.Barrier(times)
    answers: list = [None] * times

    def run(index: int) -> None:
        try:
            start.wait()
            while (answer := post()).status_code == 503:
                time.sleep(0.01)
            answers[index] = answer
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(index,)) for index in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_posts_of_one_deal_from_the_phone_store_one_row():
    protocol = new_protocol()
    phone = granted_phone(protocol)
    body = json.dumps({"key": str(uuid.uuid4()), "number": 1, "deal": parse("ac60"), "base_version": 0})

    def post():
        client = Client()
        client.cookies = phone.cookies  # the same phone, retrying over twenty connections
        return client.post(table_url(protocol, "deals_json"), body, content_type="application/json")

    answers = storm(post)

    assert Counter(answer.status_code for answer in answers) == {201: 1, 200: STORM - 1}
    first = next(answer.json() for answer in answers if answer.status_code == 201)
    assert all(answer.json() == {**first, "repeat": True} for answer in answers if answer.status_code == 200)
    assert DealRow.objects.filter(protocol=protocol).count() == 1
    assert protocol.history.count() == 1
    assert DealSubmission.objects.count() == 1
    assert Protocol.objects.get(pk=protocol.pk).version == 1


@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_posts_of_the_referees_form_store_one_row():
    protocol = new_protocol()
    referee = UserFactory()
    protocol.series.tournament.referees.add(referee)
    browser = Client()
    browser.force_login(referee)
    key = browser.get(referee_url(protocol)).context["row_form"]["key"].value()
    data = {"number": 1, "version": 0, "key": key, "line": "bd+"}

    def post():
        client = Client()
        client.cookies = browser.cookies
        return client.post(referee_url(protocol), data)

    # every one answered as the first: back to the protocol
    assert [answer.status_code for answer in storm(post)] == [302] * STORM
    assert [row.deal for row in DealRow.objects.filter(protocol=protocol)] == [parse("bd+")]
    assert protocol.history.count() == 1


# --- the forms: a double click stores one row ---------------------------------------------


@pytest.fixture
def referee_client(client):
    protocol = new_protocol()
    referee = UserFactory()
    protocol.series.tournament.referees.add(referee)
    client.force_login(referee)
    client.protocol = protocol
    return client


def form_key(response, form: str = "row_form") -> str:
    key = response.context[form]["key"].value()
    assert key and f'value="{key}"' in response.content.decode()  # the page carries it
    return key


@pytest.mark.django_db
def test_the_referees_shorthand_posted_twice_stores_one_deal_and_answers_as_the_first(referee_client):
    protocol = referee_client.protocol
    data = {"number": 1, "version": 0, "key": form_key(referee_client.get(referee_url(protocol))), "line": "ac60"}
    first = referee_client.post(referee_url(protocol), data)
    again = referee_client.post(referee_url(protocol), data)
    assert (first.status_code, again.status_code) == (302, 302)
    assert again["Location"] == first["Location"]
    assert protocol.rows.count() == 1 and protocol.history.count() == 1


@pytest.mark.django_db
def test_the_referees_full_deal_form_posted_twice_stores_one_deal(referee_client):
    protocol = referee_client.protocol
    key = form_key(referee_client.get(referee_url(protocol)))
    data = {"number": 1, "version": 0, "key": key, "line": "", "full-contract": "zolo", "full-old": ["C"]}
    data |= {"full-winner": "old"}
    for _ in range(2):
        assert referee_client.post(referee_url(protocol), data).status_code == 302
    assert [row.deal for row in protocol.rows.all()] == [{"contract": "zolo", "old": ["C"], "winner": "old"}]


@pytest.mark.django_db
def test_a_new_page_brings_a_new_key(referee_client):
    protocol = referee_client.protocol
    assert form_key(referee_client.get(referee_url(protocol))) != form_key(referee_client.get(referee_url(protocol)))


@pytest.mark.django_db
def test_a_form_key_reused_for_another_deal_is_refused_with_a_message_and_changes_nothing(referee_client):
    protocol = referee_client.protocol
    key = form_key(referee_client.get(referee_url(protocol)))
    referee_client.post(referee_url(protocol), {"number": 1, "version": 0, "key": key, "line": "ac60"})
    # the same page's key sent again for the next deal, as an old tab would
    response = referee_client.post(referee_url(protocol), {"number": 2, "version": 1, "key": key, "line": "bd+"})
    assert response.status_code == 200
    assert "already used for another deal" in response.content.decode()
    assert [row.deal for row in protocol.rows.all()] == [parse("ac60")]
    assert Protocol.objects.get(pk=protocol.pk).version == 1


@pytest.mark.django_db
def test_the_correction_posted_twice_is_one_change(referee_client):
    protocol = referee_client.protocol
    referee_client.post(referee_url(protocol), {"number": 1, "version": 0, "line": "ac60"})
    page = referee_client.get(referee_url(protocol, "correct", 1))
    data = {"number": 1, "version": 1, "key": form_key(page, "form"), "line": "bd+", "reason": "z kartki"}
    for _ in range(2):
        assert referee_client.post(referee_url(protocol, "correct", 1), data).status_code == 302
    assert [version.action for version in protocol.history.all()] == ["add", "change"]
    assert protocol.rows.get().deal == parse("bd+")


@pytest.mark.django_db
def test_the_deletion_posted_twice_is_one_deletion(referee_client):
    protocol = referee_client.protocol
    for number, line in [(1, "ac60"), (2, "bd+")]:
        referee_client.post(referee_url(protocol), {"number": number, "version": number - 1, "line": line})
    page = referee_client.get(referee_url(protocol, "correct", 2))
    data = {"number": 2, "version": 2, "key": form_key(page, "form"), "line": "", "delete": "on"}
    for _ in range(2):
        assert referee_client.post(referee_url(protocol, "correct", 2), data).status_code == 302
    page = referee_client.get(referee_url(protocol)).content.decode()
    assert "Deal 2 deleted." in page and "has been corrected" not in page
    assert [row.number for row in protocol.rows.all()] == [1]
    assert [version.action for version in protocol.history.all()] == ["add", "add", "delete"]


@pytest.mark.django_db
def test_the_phones_form_without_javascript_posted_twice_stores_one_deal():
    protocol = new_protocol()
    phone = granted_phone(protocol)
    key = form_key(phone.get(table_url(protocol, "protocol")))
    data = {"number": 1, "version": 0, "key": key, "line": "ac60"}
    first = phone.post(table_url(protocol, "save"), data)
    again = phone.post(table_url(protocol, "save"), data, follow=True)
    assert first.status_code == 302 and again.redirect_chain[0][0] == first["Location"]
    assert "Deal 1 saved." in again.content.decode()
    assert protocol.rows.count() == 1 and protocol.history.count() == 1


@pytest.mark.django_db
def test_a_form_without_a_key_saves_as_before():
    protocol = new_protocol()
    phone = granted_phone(protocol)
    assert phone.post(table_url(protocol, "save"), {"number": 1, "version": 0, "line": "ac60"}).status_code == 302
    again = phone.post(table_url(protocol, "save"), {"number": 1, "version": 0, "line": "ac60"})
    assert "Someone else changed this protocol" in again.content.decode()  # the version still guards it
    assert protocol.rows.count() == 1
    assert not DealSubmission.objects.exists()
