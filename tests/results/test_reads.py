"""Reading results writes nothing, and a saved deal costs one scoring and a fixed number of queries.

The budgets are asserted at two sizes of series with the same number, so the
cost provably does not grow with the tables.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import scoring
from league.printing.models import PrintJob
from league.results.models import DealRow, DealRowVersion, Protocol
from tests.factories import UserFactory, drawn_series
from tests.results.test_services import enter

pytestmark = pytest.mark.django_db

ONE_DEAL_REFEREE = 15
"""One Enter on the referee's page: the POST (9) and its redirected page (6).

Each request pays 2 before the view runs: the user (the session comes from the
cache) and the protocol with its series, tournament and the referee's roles
(one query, ``referee_protocol``). The POST claims the protocol (version bump,
fresh locked copy), reads the rows once, inserts the row and its history, between
BEGIN and COMMIT (both counted); the page
reads the rows, the players, the referee's penalties of the table and the menu's one permission question."""

ONE_DEAL_PHONE = 11
"""One save on the table's phone and its redirected page: no account and no role check, the PIN's
grant is in the session; the same writes as the referee's, and the page reads protocol, rows and players."""

SERIES_PAGE = 8
"""The referee's series page, whatever the number of tables: the user, the tournament with the
referee's roles, the menu's permission question, the series, the tables' protocols with their deal
counts and totals (one aggregate query), the byes, the referee's penalties and the players who may
be penalised (one query for seats and byes)."""


def url(series, name, *args):
    return reverse(f"results:{name}", args=[series.tournament.slug, series.number, *args])


def table_url(protocol, name="protocol"):
    series = protocol.series
    return reverse(f"table:{name}", args=[series.tournament.slug, series.number, protocol.table])


def refereed_series(client: Client, tables: int):
    referee = UserFactory()
    series = drawn_series(tables=tables)
    series.tournament.referees.add(referee)
    client.force_login(referee)
    return series, referee


@pytest.fixture
def scorings(monkeypatch) -> list[int]:
    """How many times a request scored a whole protocol."""
    calls: list[int] = []
    score_protocol = scoring.score_protocol

    def counted(*args, **kwargs):
        calls.append(1)
        return score_protocol(*args, **kwargs)

    monkeypatch.setattr(scoring, "score_protocol", counted)
    return calls


@contextmanager
def writes_nothing():
    """Fails if anything but the visitor's own session was inserted, updated or deleted."""
    models = (Protocol, DealRow, DealRowVersion, PrintJob)
    before = [model.objects.count() for model in models]
    with CaptureQueriesContext(connection) as queries:
        yield
    writes = [
        query["sql"]
        for query in queries.captured_queries
        if query["sql"].split()[0].upper() in {"INSERT", "UPDATE", "DELETE"} and "django_session" not in query["sql"]
    ]
    assert writes == []
    assert [model.objects.count() for model in models] == before


# --- a GET writes nothing --------------------------------------------------------


def test_the_referee_pages_only_read(client):
    series, referee = refereed_series(client, tables=2)
    enter(series.protocols.get(table=1), ["ac60", "bd+"], referee)
    with writes_nothing():
        for address in (
            url(series, "series"),
            url(series, "protocol", 1),
            url(series, "protocol", 2),
            url(series, "correct", 1, 2),
            url(series, "history", 1),
        ):
            assert client.get(address).status_code == 200, address


def test_a_table_the_draw_did_not_make_is_not_found_and_not_created(client):
    series, _referee = refereed_series(client, tables=1)
    with writes_nothing():
        assert client.get(url(series, "protocol", 2)).status_code == 404
        assert client.get(reverse("table:protocol", args=[series.tournament.slug, 1, 2])).status_code == 404


def test_the_phone_pages_only_read(client):
    series, referee = refereed_series(client, tables=1)
    protocol = enter(series.protocols.get(), ["ac60"], referee)
    phone = Client()
    with writes_nothing():
        assert 'name="pin"' in phone.get(table_url(protocol)).content.decode()
    assert phone.post(table_url(protocol, "pin"), {"pin": protocol.pin, "seat": "A"}).status_code == 302
    with writes_nothing():
        assert phone.get(table_url(protocol)).status_code == 200
        assert phone.get(reverse("table:edit", args=[series.tournament.slug, 1, 1, 1])).status_code == 200


# --- the cost of a deal -------------------------------------------------------------


# Outside the test's own transaction, as in production: the save's transaction is then its own
# BEGIN and COMMIT, not a savepoint inside the test's transaction.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("tables", [2, 8])
def test_one_enter_on_the_referee_page_scores_once_in_a_fixed_number_of_queries(
    client, tables, scorings, django_assert_max_num_queries
):
    series, referee = refereed_series(client, tables)
    enter(series.protocols.get(table=1), ["ac60", "bd+"], referee)
    scorings.clear()
    with django_assert_max_num_queries(ONE_DEAL_REFEREE):
        response = client.post(url(series, "protocol", 1), {"number": 3, "version": 2, "line": "zak+"}, follow=True)
    assert response.redirect_chain and response.status_code == 200
    assert [row.number for row in response.context["rows"]] == [1, 2, 3]
    assert response.context["totals"] == {"A": 30, "B": -10, "C": -10, "D": -10}  # ac60 and bd+ cancel out
    assert len(scorings) == 1


@pytest.mark.parametrize("tables", [2, 8])
def test_one_save_on_the_phone_scores_once_in_a_fixed_number_of_queries(
    client, tables, scorings, django_assert_max_num_queries
):
    series, referee = refereed_series(client, tables)
    protocol = enter(series.protocols.get(table=1), ["ac60", "bd+"], referee)
    phone = Client()
    phone.post(table_url(protocol, "pin"), {"pin": protocol.pin, "seat": "A"})
    scorings.clear()
    with django_assert_max_num_queries(ONE_DEAL_PHONE):
        response = phone.post(table_url(protocol, "save"), {"number": 3, "version": 2, "line": "zak+"}, follow=True)
    assert response.redirect_chain and "Deal 3 saved." in response.content.decode()
    assert [seat_total for _seat, _player, seat_total in response.context["seats"]] == [30, -10, -10, -10]
    assert len(scorings) == 1


@pytest.mark.parametrize("tables", [2, 8])
def test_the_series_page_costs_the_same_for_any_number_of_tables(
    client, tables, scorings, django_assert_max_num_queries
):
    series, referee = refereed_series(client, tables)
    for protocol in series.protocols.all():
        enter(protocol, ["ac60", "zak+"], referee)
    scorings.clear()
    with django_assert_max_num_queries(SERIES_PAGE):
        response = client.get(url(series, "series"))
    assert [(t.protocol.table, t.count) for t in response.context["tables"]] == [(n, 2) for n in range(1, tables + 1)]
    assert response.context["tables"][0].totals == {"A": 31, "B": -11, "C": -9, "D": -11}
    assert scorings == []
