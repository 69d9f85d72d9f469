"""The referee enters a Preferans table's pulka: its sheet, deals and penalties, corrections, closing by agreement."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league.games.preferans.services import protocol_pulka_close
from league.models import Series
from league.results import services
from league.results.models import DealRow, Protocol, ProtocolEvent
from scoring.preferans import keep_sheet, load_variant, settle
from tests.factories import PreferansTournamentFactory, UserFactory, drawn_series

pytestmark = pytest.mark.django_db

MADE_BY_B = {"contract": "7H", "declarer": "B", "tricks": 7, "whisters": [{"player": "C", "tricks": 3}]}
FAILED_BY_C = {"contract": "8S", "declarer": "C", "tricks": 6, "whisters": [{"player": "D", "tricks": 4}]}
MADE_BY_B_FORM = {"contract": "7H", "declarer": "B", "tricks": "7", "whist_C": "on", "tricks_C": "3"}


@pytest.fixture
def referee(client):
    user = UserFactory()
    client.force_login(user)
    return user


def pulka_protocol(referee, **tournament):
    series = drawn_series(PreferansTournamentFactory(**tournament), tables=1)
    series.tournament.referees.add(referee)
    return series.protocols.get()


@pytest.fixture
def protocol(referee):
    return pulka_protocol(referee)


def url(protocol, name, *args):
    series = protocol.series
    return reverse(f"results:{name}", args=[series.tournament.slug, series.number, protocol.table, *args])


def stamp(protocol, key="k1"):
    protocol.refresh_from_db()
    return {"number": protocol.rows.count() + 1, "version": protocol.version, "key": key}


def balance(entries, closed=True, players=("A", "B", "C", "D")):
    sheet = keep_sheet(players=players, variant=load_variant("sochi"), total=10, entries=entries, closed=closed)
    return settle(sheet).balance


def test_a_referee_adds_a_deal_and_a_penalty_and_the_page_shows_the_small_points(client, protocol):
    assert client.post(url(protocol, "pulka_deal"), {**stamp(protocol), **MADE_BY_B_FORM}).status_code == 302
    penalty = {"column": "pulka", "player": "B", "size": "2", "penalty_reason": "dopisał 2 za dużo"}
    assert client.post(url(protocol, "pulka_penalty"), {**stamp(protocol, "k2"), **penalty}).status_code == 302

    rows = list(protocol.rows.order_by("number"))
    assert [row.deal for row in rows] == [
        MADE_BY_B,
        {"penalty": "pulka", "player": "B", "size": 2, "reason": "dopisał 2 za dużo"},
    ]
    expected = balance([row.deal for row in rows])
    assert {seat: sum(row.values[seat] for row in rows) for seat in "ABCD"} == expected
    page = client.get(url(protocol, "protocol")).content.decode()
    assert "dopisał 2 za dużo" in page and "provisional" in page
    assert f"{expected['B']:+d}".replace("-", "−") in page


def test_an_impossible_deal_is_refused_in_polish_and_nothing_is_stored(client, protocol, settings):
    settings.LANGUAGE_CODE = "pl"
    dealer_plays = {"contract": "6S", "declarer": "A"}  # A deals the first deal and sits it out
    with translation.override("pl"):
        response = client.post(
            url(protocol, "pulka_deal"), {**stamp(protocol), **dealer_plays}, headers={"accept-language": "pl"}
        )
    assert response.status_code == 200
    assert "rozdaje" in response.content.decode()
    assert not protocol.rows.exists()


def test_the_same_form_posted_twice_stores_the_deal_once(client, protocol):
    data = {**stamp(protocol), **MADE_BY_B_FORM}
    assert client.post(url(protocol, "pulka_deal"), data).status_code == 302
    assert client.post(url(protocol, "pulka_deal"), data).status_code == 302
    assert protocol.rows.count() == 1


def test_a_deal_on_a_confirmed_pulka_asks_for_the_reason_and_undoes_the_confirmation(client, referee, protocol):
    Protocol.objects.filter(pk=protocol.pk).update(status=Protocol.Status.CONFIRMED)
    page = client.get(url(protocol, "protocol")).content.decode()
    assert "The protocol is confirmed — saving the deal undoes the confirmation." in page

    refused = client.post(url(protocol, "pulka_deal"), {**stamp(protocol), **MADE_BY_B_FORM})
    assert "give the reason for the change" in refused.content.decode()
    protocol.refresh_from_db()
    assert (protocol.status, protocol.rows.count()) == (Protocol.Status.CONFIRMED, 0)

    data = {**stamp(protocol, "k2"), **MADE_BY_B_FORM, "reason": "A deal left off the paper"}
    assert client.post(url(protocol, "pulka_deal"), data).status_code == 302
    protocol.refresh_from_db()
    assert (protocol.status, protocol.history.get().reason) == (Protocol.Status.OPEN, "A deal left off the paper")


def test_a_correction_after_the_series_is_closed_needs_a_reason(client, referee, protocol):
    services.protocol_row_save(protocol=protocol, number=1, deal=MADE_BY_B, expected_version=0, user=referee)
    Series.objects.filter(pk=protocol.series_id).update(status=Series.Status.CLOSED)
    corrected = {**MADE_BY_B_FORM, "tricks": "8", "tricks_C": "2"}
    page = url(protocol, "correct", 1)
    assert 'value="7H" selected' in client.get(page).content.decode()  # the form shows the stored deal

    refused = client.post(page, {**stamp(protocol), "number": 1, **corrected})
    assert refused.status_code == 200 and "reason" in refused.content.decode()
    assert protocol.rows.get().deal == MADE_BY_B

    done = client.post(page, {**stamp(protocol, "k2"), "number": 1, **corrected, "reason": "8 lew"})
    assert done.status_code == 302
    assert protocol.rows.get().deal == {**MADE_BY_B, "tricks": 8, "whisters": [{"player": "C", "tricks": 2}]}


def test_the_last_entry_is_deleted_from_its_correction_page(client, referee, protocol):
    services.protocol_row_save(protocol=protocol, number=1, deal=MADE_BY_B, expected_version=0, user=referee)
    data = {**stamp(protocol), "number": 1, **MADE_BY_B_FORM, "delete": "on"}
    assert client.post(url(protocol, "correct", 1), data).status_code == 302
    assert not protocol.rows.exists()


def test_closing_by_agreement_settles_the_pulka_and_takes_no_more_deals(client, referee, protocol):
    services.protocol_row_save(protocol=protocol, number=1, deal=MADE_BY_B, expected_version=0, user=referee)
    protocol.refresh_from_db()
    close = {"version": protocol.version, "closed": "on"}
    assert client.post(url(protocol, "pulka_close"), close).status_code == 302
    assert client.post(url(protocol, "pulka_close"), close).status_code == 302  # a double click: one change

    protocol.refresh_from_db()
    assert protocol.closed_by_agreement and ProtocolEvent.objects.filter(action="agreed_close").count() == 1
    page = client.get(url(protocol, "protocol")).content.decode()
    assert "Settlement of the pulka" in page and 'name="whist_C"' not in page
    assert "Open the pulka again" in page
    refused = client.post(url(protocol, "pulka_deal"), {**stamp(protocol), **MADE_BY_B_FORM})
    assert refused.status_code == 200 and protocol.rows.count() == 1


def test_the_history_names_the_pulka_closed_by_agreement_and_opened_again_with_the_reasons(client, referee, protocol):
    services.protocol_row_save(protocol=protocol, number=1, deal=MADE_BY_B, expected_version=0, user=referee)
    for closed, reason in ((True, "koniec"), (False, "gramy")):
        protocol.refresh_from_db()
        protocol_pulka_close(
            protocol=protocol, closed=closed, expected_version=protocol.version, user=referee, reason=reason
        )
    with translation.override("pl"):
        page = client.get(url(protocol, "history"), headers={"accept-language": "pl"}).content.decode()
    assert "pulka zamknięta za porozumieniem" in page and "pulka otwarta ponownie" in page
    assert "koniec" in page and "gramy" in page


def test_the_history_describes_pulka_entries_in_words(client, referee, protocol):
    services.protocol_row_save(protocol=protocol, number=1, deal=MADE_BY_B, expected_version=0, user=referee)
    penalty = {"penalty": "whists", "player": "C", "wronged": "D", "size": 4, "reason": "4 wisty za dużo"}
    services.protocol_row_save(protocol=protocol, number=2, deal=penalty, expected_version=1, user=referee)
    name = protocol.series.assignments.get(seat="B").player.full_name
    with translation.override("pl"):
        page = client.get(url(protocol, "history"), headers={"accept-language": "pl"}).content.decode()
    assert f"7 kier ♥, rozgrywa B – {name}" in page and "wisty: C 3 lewy" in page
    assert "4 wisty za dużo" in page


def test_the_series_page_shows_each_pulka_filled(client, referee, protocol):
    services.protocol_row_save(protocol=protocol, number=1, deal=MADE_BY_B, expected_version=0, user=referee)
    series = protocol.series
    page = client.get(reverse("results:series", args=[series.tournament.slug, series.number])).content.decode()
    assert "pulka 4 / 40" in page and "deals entered" not in page


def test_a_table_of_three_asks_the_paper_for_three_totals(client, referee):
    protocol = pulka_protocol(referee, table_size=3)
    deal = {"contract": "6NT", "declarer": "A", "tricks": 6, "whisters": [{"player": "B", "tricks": 4}]}
    services.protocol_row_save(protocol=protocol, number=1, deal=deal, expected_version=0, user=referee)
    page = client.get(url(protocol, "protocol")).content.decode()
    assert 'name="A"' in page and 'name="D"' not in page
    totals = balance([deal], players=("A", "B", "C"))
    client.post(url(protocol, "totals"), {"version": 1, **totals, "ended_early": "on"})
    protocol.refresh_from_db()
    assert protocol.declared_totals == {**totals, "D": 0}
    assert protocol.status == Protocol.Status.COMPLETE


def test_another_organisers_referee_cannot_enter_the_pulka(protocol):
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(url(protocol, "protocol")).status_code == 403
    assert stranger.post(url(protocol, "pulka_deal"), {**stamp(protocol), **MADE_BY_B_FORM}).status_code == 403
    assert not DealRow.objects.exists()


def test_the_pulka_page_of_40_entries_costs_a_bounded_number_of_queries(
    client, referee, protocol, django_assert_max_num_queries
):
    penalty = {"penalty": "whists", "player": "C", "wronged": "D", "size": 1, "reason": "za dużo"}
    entries = [MADE_BY_B] + [penalty] * 39
    DealRow.objects.bulk_create(
        DealRow(protocol=protocol, number=number, deal=entry, value_a=0, value_b=0, value_c=0, value_d=0)
        for number, entry in enumerate(entries, start=1)
    )
    Protocol.objects.filter(pk=protocol.pk).update(declared_totals=dict.fromkeys("ABCD", 0))  # compared with the rows
    with django_assert_max_num_queries(9):  # as for one entry: none read per entry
        assert client.get(url(protocol, "protocol")).status_code == 200
