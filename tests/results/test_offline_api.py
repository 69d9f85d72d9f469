"""The table phone's JSON endpoints (issue 15): every answer of the contract, conflicts and their
resolution, the phones' reports for the control room, the value table, and the query budgets."""

from __future__ import annotations

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import scoring
from league.games.baska.shorthand import parse
from league.models import Series
from league.results import services
from league.results.models import DealSubmission, PhoneContact, Protocol
from league.results.table import queue
from tests.factories import TournamentFactory, UserFactory, drawn_series

pytestmark = pytest.mark.django_db


@pytest.fixture
def protocol() -> Protocol:
    """Table 1 of a drawn series of two tables (puck rules, four deals per series)."""
    series = drawn_series(TournamentFactory(deals_per_series=4), tables=2)
    return series.protocols.get(table=1)


@pytest.fixture
def referee(protocol: Protocol):
    user = UserFactory()
    protocol.series.tournament.referees.add(user)
    return user


def url(protocol: Protocol, name: str) -> str:
    series = protocol.series
    return reverse(f"table:{name}", args=[series.tournament.slug, series.number, protocol.table])


def phone(protocol: Protocol, seat: str = "A") -> Client:
    """A phone let in at the protocol's table by its PIN, as the player at ``seat``."""
    client = Client()
    assert client.post(url(protocol, "pin"), {"pin": protocol.pin, "seat": seat}).status_code == 302
    return client


def send(client: Client, protocol: Protocol, number: int, line: str, key: str | None = None, **extra):
    body = {"key": key or str(uuid.uuid4()), "number": number, "deal": parse(line), **extra}
    return client.post(url(protocol, "deals_json"), json.dumps(body), content_type="application/json")


def enter(protocol: Protocol, lines: list[str], user=None) -> Protocol:
    for line in lines:
        protocol.refresh_from_db()
        services.protocol_row_save(
            protocol=protocol,
            number=protocol.rows.count() + 1,
            deal=parse(line),
            expected_version=protocol.version,
            user=user,
            author="" if user else "stolik 1, miejsce B",
        )
    protocol.refresh_from_db()
    return protocol


# --- stored, repeated, key reused ------------------------------------------------------


def test_a_deal_from_the_phone_is_stored_with_its_values_totals_and_new_version(protocol):
    response = send(phone(protocol, "C"), protocol, 1, "ac60")
    assert response.status_code == 201
    assert response.json() == {
        "status": "stored",
        "number": 1,
        "values": {"A": 1, "B": -1, "C": 1, "D": -1},
        "totals": {"A": 1, "B": -1, "C": 1, "D": -1},
        "version": 1,
    }
    version = protocol.history.get()
    assert (version.action, version.author, version.seat) == ("add", "stolik 1 (telefon), miejsce C", "C")


def test_a_repeat_of_the_key_gets_the_same_answer_and_stores_nothing(protocol):
    client = phone(protocol)
    key = str(uuid.uuid4())
    first = send(client, protocol, 1, "ac60", key)
    again = send(client, protocol, 1, "ac60", key)
    assert again.status_code == 200
    assert again.json() == {**first.json(), "repeat": True}
    assert protocol.rows.count() == 1
    assert protocol.history.count() == 1
    protocol.refresh_from_db()
    assert protocol.version == 1


def test_a_key_sent_again_with_another_deal_is_refused_and_changes_nothing(protocol):
    client = phone(protocol)
    key = str(uuid.uuid4())
    send(client, protocol, 1, "ac60", key)
    for number, line in [(1, "bd+"), (2, "bd+")]:
        response = send(client, protocol, number, line, key)
        assert response.status_code == 409
        assert response.json()["status"] == "key_reused"
        assert "already used for another deal" in response.json()["message"]
    assert [row.deal for row in protocol.rows.all()] == [parse("ac60")]


def test_the_refusal_of_a_reused_key_is_in_polish_for_a_polish_phone(protocol):
    client = phone(protocol)
    key = str(uuid.uuid4())
    send(client, protocol, 1, "ac60", key)
    body = {"key": key, "number": 1, "deal": parse("bd+")}
    response = client.post(
        url(protocol, "deals_json"), json.dumps(body), content_type="application/json", HTTP_ACCEPT_LANGUAGE="pl"
    )
    assert "już użyty" in response.json()["message"]


def test_the_same_deal_already_in_the_row_is_not_stored_twice(protocol):
    enter(protocol, ["ac60"])
    response = send(phone(protocol), protocol, 1, "ac60")
    assert response.status_code == 200
    assert response.json()["status"] == "stored" and response.json()["repeat"] is True
    assert protocol.history.count() == 1


# --- conflicts ---------------------------------------------------------------------------


def test_a_referee_edit_made_while_the_phone_was_offline_is_a_conflict_showing_both(protocol, referee):
    client = phone(protocol)
    send(client, protocol, 1, "ac60")
    seen_version = Protocol.objects.get(pk=protocol.pk).version
    # meanwhile the referee types deal 2 from the paper, differently from what the phone queued
    enter(protocol, ["bd+"], referee)
    response = send(client, protocol, 2, "ab70", base_version=seen_version)
    assert response.status_code == 409
    body = response.json()
    assert body["status"] == "conflict" and body["number"] == 2
    assert body["server"] == {"deal": parse("bd+"), "values": {"A": -1, "B": 1, "C": -1, "D": 1}}
    assert body["mine"] == {"deal": parse("ab70")}
    assert body["version"] == protocol.version
    assert "Nothing was overwritten" in body["message"]
    # a new deal, not a correction: the phone offers to store it as the next deal, never over the row
    assert (body["replace"], body["next"]) == (False, 3)
    assert protocol.rows.get(number=2).deal == parse("bd+")


def test_choosing_mine_with_the_fresh_version_stores_it_as_a_correction_by_the_phone(protocol, referee):
    client = phone(protocol, "D")
    enter(protocol, ["ac60", "bd+"], referee)
    key = str(uuid.uuid4())
    conflict = send(client, protocol, 2, "ab70", key).json()
    response = send(client, protocol, 2, "ab70", key, replace=True, base_version=conflict["version"])
    assert response.status_code == 201
    assert response.json()["values"] == {"A": 1, "B": 1, "C": -1, "D": -1}
    assert protocol.rows.get(number=2).deal == parse("ab70")
    change = protocol.history.order_by("-pk").first()
    assert (change.action, change.old_deal, change.new_deal) == ("change", parse("bd+"), parse("ab70"))
    assert (change.author, change.user, change.reason) == ("stolik 1 (telefon), miejsce D", None, change.reason)
    assert change.reason  # why a phone changed a row: the scorer chose their deal after a conflict
    assert send(client, protocol, 2, "ab70", key, replace=True, base_version=conflict["version"]).json()["repeat"]


def test_choosing_mine_after_the_protocol_moved_on_again_is_a_new_conflict(protocol, referee):
    client = phone(protocol)
    enter(protocol, ["ac60", "bd+"], referee)
    conflict = send(client, protocol, 2, "ab70").json()
    enter(protocol, ["cd-"], referee)  # the referee goes on meanwhile
    response = send(client, protocol, 2, "ab70", replace=True, base_version=conflict["version"])
    assert response.status_code == 409
    assert response.json()["status"] == "conflict"
    assert response.json()["server"]["deal"] == parse("bd+")
    assert response.json()["version"] == conflict["version"] + 1
    assert protocol.rows.get(number=2).deal == parse("bd+")


def test_a_number_that_is_no_longer_the_next_row_is_a_conflict_without_a_server_row(protocol, referee):
    enter(protocol, ["ac60"], referee)
    response = send(phone(protocol), protocol, 3, "bd+")
    assert response.status_code == 409
    assert response.json()["server"] is None
    assert "the next deal is 2, not 3" in response.json()["message"]
    assert protocol.rows.count() == 1


def test_replacing_a_row_the_referee_deleted_asks_to_read_the_protocol_again(protocol, referee):
    enter(protocol, ["ac60"], referee)
    response = send(phone(protocol), protocol, 2, "bd+", replace=True, base_version=1)
    assert response.status_code == 409
    assert response.json()["server"] is None


# --- refused ------------------------------------------------------------------------------


def test_a_deal_the_engine_refuses_is_invalid_with_its_code_message_and_path(protocol):
    response = send(phone(protocol), protocol, 1, "ac4")
    assert response.status_code == 422
    error = response.json()["error"]
    assert response.json()["status"] == "invalid"
    assert (error["code"], error["path"]) == ("impossible_eyes", "deal.old_eyes")
    assert error["message"]
    assert not protocol.rows.exists()
    assert not DealSubmission.objects.exists()  # a refused deal may be sent again under its key


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"number": 1, "deal": {"contract": "zwykla"}}, "key"),
        ({"key": "k1", "number": 0, "deal": {}}, "number"),
        ({"key": "k1", "number": True, "deal": {}}, "number"),
        ({"key": "k1", "number": 1, "deal": "ac60"}, "deal"),
        ({"key": "k1", "number": 1, "deal": {}, "replace": True}, "base_version"),
        ({"key": "k1", "number": 1, "deal": {}, "base_version": "3"}, "base_version"),
    ],
)
def test_a_request_not_in_the_contracts_shape_is_invalid_and_names_the_part(protocol, body, path):
    response = phone(protocol).post(url(protocol, "deals_json"), json.dumps(body), content_type="application/json")
    assert response.status_code == 422
    assert response.json()["error"]["path"] == path
    assert not protocol.rows.exists()


@pytest.mark.parametrize("name", ["deals_json", "contact_json"])
@pytest.mark.parametrize(
    "body",
    [
        '{"key": "k1", "waiting": 1, "x": ' + "[" * 100_000 + "]" * 100_000 + "}",  # deeper than the parser goes
        # a valid deal or report, but padded past any honest body's size
        json.dumps({"key": "k1", "number": 1, "waiting": 1, "deal": parse("ac60")}) + " " * 20_000,
    ],
    ids=["nested", "too-large"],
)
def test_a_hostile_body_is_refused_as_invalid_and_costs_nothing(protocol, name, body):
    response = phone(protocol).post(url(protocol, name), body, content_type="application/json")
    assert response.status_code == 422
    assert not protocol.rows.exists() and not protocol.contacts.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"key": "k\u0000", "number": 1, "deal": parse("ac60")},  # a NUL in the phone's key
        {"key": "k\ud800", "number": 1, "deal": parse("ac60")},  # a lone surrogate: half of a character
        {"key": "k1", "number": 1, "deal": {**parse("ac60"), "note\udc00": 1}},  # in a key of the deal
        {"key": "k1", "number": 1, "deal": {**parse("ac60"), "contract": "zwykla\u0000"}},  # in a value
    ],
    ids=["nul-key", "surrogate-key", "surrogate-in-deal-key", "nul-in-deal-value"],
)
def test_text_that_cannot_be_stored_is_refused_with_a_clear_message_and_stores_nothing(protocol, body):
    client = phone(protocol)
    sent = json.dumps(body)  # escaped as \u0000 and \ud800, as a hostile client would write them
    response = client.post(
        url(protocol, "deals_json"), sent, content_type="application/json", HTTP_ACCEPT_LANGUAGE="pl"
    )
    assert response.status_code == 400
    assert response.json()["status"] == "invalid"
    assert "nie można zapisać" in response.json()["error"]["message"]
    assert not protocol.rows.exists() and not DealSubmission.objects.exists()


def test_without_the_pin_grant_the_phone_is_asked_for_the_pin_and_nothing_is_stored(protocol, client):
    assert send(client, protocol, 1, "ac60").json() == {"status": "pin_required"}
    assert send(client, protocol, 1, "ac60").status_code == 403
    assert client.get(url(protocol, "state_json")).status_code == 403
    assert client.post(url(protocol, "contact_json"), "{}", content_type="application/json").status_code == 403
    other_table = protocol.series.protocols.get(table=2)
    assert send(phone(other_table), protocol, 1, "ac60").status_code == 403  # a grant opens its own table only
    assert not protocol.rows.exists()


def test_a_complete_protocol_is_closed_to_the_phone(protocol):
    client = phone(protocol)
    enter(protocol, ["ac60", "bd+", "ab70", "cd-"])
    services.protocol_totals_set(protocol=protocol, totals={"A": 3, "B": 3, "C": -3, "D": -3}, expected_version=4)
    services.protocol_complete(protocol=protocol, expected_version=5)
    response = send(client, protocol, 4, "ac60", replace=True, base_version=6)
    assert response.status_code == 409
    assert response.json()["status"] == "closed"
    assert response.json()["message"]


def test_the_grant_ends_when_the_series_closes(protocol, referee):
    client = phone(protocol)
    key = str(uuid.uuid4())
    stored = send(client, protocol, 1, "ac60", key).json()
    Series.objects.filter(pk=protocol.series_id).update(status=Series.Status.CLOSED)
    response = send(client, protocol, 2, "bd+")
    assert (response.status_code, response.json()["status"]) == (409, "closed")
    assert (client.get(url(protocol, "state_json")).json()["status"]) == "closed"
    assert send(Client(), protocol, 2, "bd+").json()["status"] == "closed"  # no PIN opens it any more
    # the answer of a deal stored before closing, lost on the way, is still given
    assert send(client, protocol, 1, "ac60", key).json() == {**stored, "repeat": True}
    assert protocol.rows.count() == 1


# --- the state, the reports, the value table -------------------------------------------


def test_the_state_lists_the_rows_as_stored_and_writes_nothing(protocol):
    enter(protocol, ["ac60", "bd+"])
    client = phone(protocol)
    response = client.get(url(protocol, "state_json"))
    assert response.status_code == 200
    assert response.json() == {
        "version": 2,
        "status": "open",
        "rows": [
            {"number": 1, "deal": parse("ac60"), "values": {"A": 1, "B": -1, "C": 1, "D": -1}, "doubled": False},
            {"number": 2, "deal": parse("bd+"), "values": {"A": -1, "B": 1, "C": -1, "D": 1}, "doubled": False},
        ],
        "totals": {"A": 0, "B": 0, "C": 0, "D": 0},
        "deals_per_series": 4,
    }
    assert "no-cache" in response["Cache-Control"]
    assert client.post(url(protocol, "state_json")).status_code == 405
    assert Protocol.objects.get(pk=protocol.pk).version == 2
    assert not PhoneContact.objects.exists()


def test_phones_report_their_waiting_deals_and_the_control_room_reads_them_per_table(protocol):
    one, two = phone(protocol, "A"), phone(protocol, "B")
    report = {"waiting": 3, "online": True}
    response = one.post(url(protocol, "contact_json"), json.dumps(report), content_type="application/json")
    assert response.status_code == 204
    two.post(
        url(protocol, "contact_json"), json.dumps({"waiting": 1, "online": False}), content_type="application/json"
    )
    one.post(url(protocol, "contact_json"), json.dumps(report), content_type="application/json")  # a repeat

    contacts = queue.protocol_contacts(series=protocol.series, now=timezone.now())
    assert list(contacts) == [1]  # table 2 never reported
    assert contacts[1].waiting == 4 and contacts[1].offline
    assert PhoneContact.objects.count() == 2

    one.post(url(protocol, "contact_json"), json.dumps({"waiting": 0}), content_type="application/json")
    two.post(url(protocol, "contact_json"), json.dumps({"waiting": 0}), content_type="application/json")
    contact = queue.protocol_contacts(series=protocol.series, now=timezone.now())[1]
    assert (contact.waiting, contact.offline, contact.online) == (0, False, True)


@pytest.mark.parametrize("report", [{}, {"waiting": -1}, {"waiting": "3"}, {"waiting": 1, "online": "yes"}])
def test_a_report_without_a_count_of_waiting_deals_is_refused(protocol, report):
    client = phone(protocol)
    response = client.post(url(protocol, "contact_json"), json.dumps(report), content_type="application/json")
    assert response.status_code == 422
    assert not PhoneContact.objects.exists()


def test_the_control_room_reads_the_reports_of_a_series_in_one_query(protocol, django_assert_num_queries):
    for table in (1, 2):
        queue.phone_contact_report(
            protocol=protocol.series.protocols.get(table=table), grant=f"g{table}", seat="A", waiting=table, online=True
        )
    with django_assert_num_queries(1):
        contacts = queue.protocol_contacts(series=protocol.series, now=timezone.now())
    assert {table: contact.waiting for table, contact in contacts.items()} == {1: 1, 2: 2}


def test_the_value_table_is_the_engines_for_the_tournaments_rules(protocol):
    response = phone(protocol).get(url(protocol, "value_table_json"))
    assert response.status_code == 200
    assert response.json() == scoring.value_table(scoring.load_ruleset("puck"))
    assert response.json()["values"]["zwykla|AC|0|old:z_wyjsciem|0"] == [1, -1, 1, -1]


# --- query budgets --------------------------------------------------------------------------

DEAL_JSON = 17
"""One deal through rozdania.json, whatever the protocol holds: the protocol with its tournament,
the transaction (2), the lock and the fresh copy, the key, the rows' count and the row; the services'
savepoint (2), claim, fresh copy, rows and two inserts; the answer's rows and the stored key."""


@pytest.mark.parametrize("rows", [1, 3])  # from the second deal: the first also marks the series as in play
def test_a_deal_costs_the_same_queries_for_any_number_of_rows(protocol, rows, django_assert_max_num_queries):
    enter(protocol, ["ac60", "bd+", "ab70"][:rows])
    client = phone(protocol)
    with django_assert_max_num_queries(DEAL_JSON):
        assert send(client, protocol, rows + 1, "cd-").status_code == 201


@pytest.mark.parametrize("rows", [0, 3])
def test_the_state_costs_the_same_queries_for_any_number_of_rows(protocol, rows, django_assert_max_num_queries):
    enter(protocol, ["ac60", "bd+", "ab70"][:rows])
    client = phone(protocol)
    with django_assert_max_num_queries(3):
        assert len(client.get(url(protocol, "state_json")).json()["rows"]) == rows
