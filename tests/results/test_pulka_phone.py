"""A Preferans table's phone shows the pulka to read; the referee enters it, and the phone's JSON says so."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from league.results import services
from tests.factories import PreferansTournamentFactory, UserFactory, drawn_series

pytestmark = pytest.mark.django_db

MADE_BY_B = {"contract": "7H", "declarer": "B", "tricks": 7, "whisters": [{"player": "C", "tricks": 3}]}


@pytest.fixture
def protocol():
    return drawn_series(PreferansTournamentFactory(), tables=1).protocols.get()


def url(protocol, name):
    series = protocol.series
    return reverse(f"table:{name}", args=[series.tournament.slug, series.number, protocol.table])


def phone(protocol, seat="A"):
    client = Client(HTTP_ACCEPT_LANGUAGE="pl")
    assert client.post(url(protocol, "pin"), {"pin": protocol.pin, "seat": seat}).status_code == 302
    return client


def test_the_phone_shows_the_pulka_and_says_the_referee_keeps_it(protocol):
    referee = UserFactory()
    protocol.series.tournament.referees.add(referee)
    services.protocol_row_save(protocol=protocol, number=1, deal=MADE_BY_B, expected_version=0, user=referee)
    page = phone(protocol).get(url(protocol, "protocol")).content.decode()
    assert "wpisy prowadzi sędzia" in page and "7 kier ♥" in page and 'name="line"' not in page


def test_the_phone_cannot_post_a_deal_form_to_a_pulka(protocol):
    response = phone(protocol).post(url(protocol, "save"), {"number": 1, "version": 0, "line": "ac60"})
    assert response.status_code == 409 and not protocol.rows.exists()


@pytest.mark.parametrize("name", ["deals_json", "value_table_json"])
def test_the_phones_json_answers_a_pulka_with_a_polish_refusal(protocol, name):
    client = phone(protocol)
    if name == "deals_json":
        body = {"key": "k1", "number": 1, "deal": MADE_BY_B}
        response = client.post(url(protocol, name), json.dumps(body), content_type="application/json")
    else:
        response = client.get(url(protocol, name))
    assert response.status_code == 409
    assert response.json() == {"status": "preferans", "message": "Przy stole preferansa wpisy prowadzi sędzia."}
    assert not protocol.rows.exists()
