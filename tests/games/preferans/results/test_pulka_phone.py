"""The players score their Preferans table's pulka on the table phone behind the PIN, with plain forms:
the next deal, the last entry's correction, closing by agreement, then the paper's totals, "complete"
and a second seat's confirmation. The Baśka forms and the phone's JSON refuse a pulka."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from league.results import selectors, services
from league.results.models import DealRowVersion, ProtocolEvent
from tests.factories import PreferansTournamentFactory, UserFactory, drawn_series, pulka_entered

pytestmark = pytest.mark.django_db

MADE_BY_B = {"contract": "7H", "declarer": "B", "tricks": 7, "whisters": [{"player": "C", "tricks": 3}]}
MADE_BY_B_FORM = {"contract": "7H", "declarer": "B", "tricks": "7", "whist_C": "on", "tricks_C": "3"}
FAILED_BY_C = {"contract": "8S", "declarer": "C", "tricks": 6, "whisters": [{"player": "D", "tricks": 4}]}
UNWHISTED_BY_D = {"contract": "6C", "declarer": "D"}  # the third deal: C deals and sits out


@pytest.fixture
def referee():
    return UserFactory()


def table(referee, **tournament):
    series = drawn_series(PreferansTournamentFactory(**tournament), tables=1)
    series.tournament.referees.add(referee)
    return series.protocols.get()


@pytest.fixture
def protocol(referee):
    return table(referee)


def url(protocol, name, *args):
    series = protocol.series
    return reverse(f"table:{name}", args=[series.tournament.slug, series.number, protocol.table, *args])


def phone(protocol, seat="A"):
    client = Client(HTTP_ACCEPT_LANGUAGE="pl")
    assert client.post(url(protocol, "pin"), {"pin": protocol.pin, "seat": seat}).status_code == 302
    return client


def stamp(protocol, key="k1", number=None):
    protocol.refresh_from_db()
    return {"number": number or protocol.rows.count() + 1, "version": protocol.version, "key": key}


def deal_post(client, protocol, form, key="k1"):
    return client.post(url(protocol, "pulka_deal"), {**stamp(protocol, key), **form})


def small_points(protocol):
    return selectors.sheet_totals(selectors.protocol_sheet(protocol=protocol))


# --- the page and the next deal ----------------------------------------------------------


def test_the_phone_shows_the_sheet_who_deals_and_a_deal_form_naming_the_players_but_no_penalty(protocol):
    page = phone(protocol).get(url(protocol, "protocol")).content.decode()
    names = selectors.table_players(series=protocol.series, table=protocol.table)
    assert f"A – {names['A'].full_name} rozdaje i pauzuje w tym rozdaniu." in page
    assert f'<option value="B">B – {names["B"].full_name}</option>' in page
    assert url(protocol, "pulka_deal") in page and "Zamknij pulkę za porozumieniem" in page
    assert 'name="line"' not in page and 'name="penalty_reason"' not in page and "table-offline.js" not in page


def test_a_deal_saved_on_the_phone_is_stored_under_the_phone_s_seat(protocol):
    client = phone(protocol, seat="C")
    response = deal_post(client, protocol, MADE_BY_B_FORM)
    assert response.status_code == 302 and response["Location"].endswith("#entry")
    row = protocol.rows.get()
    version = DealRowVersion.objects.get(protocol=protocol)
    assert row.deal == MADE_BY_B and row.values == small_points(protocol)
    assert (version.user, version.seat, version.author) == (None, "C", "stolik 1 (telefon), miejsce C")
    assert "Zapisano rozdanie 1." in client.get(url(protocol, "protocol")).content.decode()


def test_a_deal_form_sent_twice_stores_the_deal_once(protocol):
    client = phone(protocol)
    form = {**stamp(protocol, "same-key"), **MADE_BY_B_FORM}
    first = client.post(url(protocol, "pulka_deal"), form)
    second = client.post(url(protocol, "pulka_deal"), form)
    assert (first.status_code, second.status_code) == (302, 302)
    assert protocol.rows.count() == 1 and protocol.history.count() == 1


@pytest.mark.parametrize(
    ("form", "refusal"),
    [
        ({"contract": "6S", "declarer": "A"}, "rozdaje w tym rozdaniu, więc przy czterech graczach w nim pauzuje"),
        (
            {"contract": "7H", "declarer": "B", "tricks": "7", "whist_B": "on", "tricks_B": "3"},
            "rozgrywa to rozdanie i nie może w nim wistować",
        ),
        ({"contract": "7H", "declarer": "B", "whist_C": "on", "tricks_C": "3"}, "Podaj lewy rozgrywającego"),
    ],
)
def test_a_deal_the_pulka_cannot_take_is_refused_in_polish_beside_the_form_and_nothing_is_stored(
    protocol, form, refusal
):
    response = deal_post(phone(protocol), protocol, form)
    page = response.content.decode()
    assert response.status_code == 200 and refusal in page
    assert page.index(refusal) > page.index('id="entry"')  # beside the form, not only at the top
    assert 'value="k1"' in page  # the same key goes back: nothing was stored under it
    assert not protocol.rows.exists()


# --- correcting the last entry ----------------------------------------------------------------


def test_the_phone_corrects_its_last_deal_through_the_deal_form(protocol, referee):
    protocol = pulka_entered(protocol, [MADE_BY_B], referee)
    client = phone(protocol)
    page = client.get(url(protocol, "pulka_entry", 1)).content.decode()
    assert "Popraw wpis 1" in page and 'name="whist_C" id="id_whist_C" checked' in page
    corrected = {**MADE_BY_B_FORM, "tricks": "6", "tricks_C": "4"}
    response = client.post(url(protocol, "pulka_entry", 1), {**stamp(protocol, number=1), **corrected})
    assert response.status_code == 302
    assert protocol.rows.get().deal == {**MADE_BY_B, "tricks": 6, "whisters": [{"player": "C", "tricks": 4}]}
    assert protocol.history.latest("pk").seat == "A"


def test_the_phone_deletes_its_last_deal_once_however_often_the_button_is_sent(protocol, referee):
    protocol = pulka_entered(protocol, [MADE_BY_B, FAILED_BY_C], referee)
    client = phone(protocol)
    form = {**stamp(protocol, "del", number=2), "delete": "on"}
    assert client.post(url(protocol, "pulka_entry", 2), form).status_code == 302
    assert client.post(url(protocol, "pulka_entry", 2), form).status_code == 302
    assert [row.deal for row in protocol.rows.all()] == [MADE_BY_B]
    page = client.get(url(protocol, "protocol")).content.decode()
    assert "Wpis 2 został usunięty." in page and "Przy stole można poprawić tylko" not in page


def test_an_earlier_entry_or_a_referee_s_penalty_is_not_the_table_s_to_correct(protocol, referee):
    penalty = {"penalty": "pulka", "player": "B", "size": 2, "reason": "dopisał 2 za dużo"}
    protocol = pulka_entered(protocol, [MADE_BY_B, FAILED_BY_C, penalty], referee)
    client = phone(protocol)
    page = client.get(url(protocol, "protocol")).content.decode()
    assert url(protocol, "pulka_entry", 2) not in page and url(protocol, "pulka_entry", 3) not in page
    assert "poprawia go sędzia" in page  # the pencil rule
    for number in (1, 3):
        form = {**stamp(protocol, f"k{number}", number=number), **MADE_BY_B_FORM, "delete": "on"}
        response = client.post(url(protocol, "pulka_entry", number), form, follow=True)
        assert "Przy stole można poprawić tylko ostatnie rozdanie" in response.content.decode()
    assert [row.deal for row in protocol.rows.all()] == [MADE_BY_B, FAILED_BY_C, penalty]


# --- closing by agreement, the paper's totals, complete and confirm ------------------------------


def test_the_table_closes_its_pulka_by_agreement_and_the_history_names_the_seat(protocol, referee):
    protocol = pulka_entered(protocol, [MADE_BY_B], referee)
    client = phone(protocol, seat="D")
    response = client.post(url(protocol, "pulka_close"), {"version": protocol.version, "closed": "on"}, follow=True)
    protocol.refresh_from_db()
    event = ProtocolEvent.objects.get(protocol=protocol, action="agreed_close")
    assert protocol.closed_by_agreement and (event.user, event.seat) == (None, "D")
    page = response.content.decode()
    assert "Pulka jest zamknięta za porozumieniem." in page and "Rozliczenie pulki" in page
    assert url(protocol, "pulka_deal") not in page  # closed: no more deals
    assert client.post(url(protocol, "pulka_close"), {"version": protocol.version}).status_code == 302
    protocol.refresh_from_db()
    assert not protocol.closed_by_agreement


@pytest.mark.parametrize(
    ("size", "entries", "seats_shown"),
    [(4, [MADE_BY_B, FAILED_BY_C, UNWHISTED_BY_D], "ABCD"), (3, [MADE_BY_B], "ABC")],
)
def test_one_seat_marks_the_pulka_complete_with_the_paper_s_totals_and_another_seat_confirms(
    referee, size, entries, seats_shown
):
    protocol = pulka_entered(table(referee, table_size=size), entries, referee)
    totals = small_points(protocol)
    first, second, same_seat = phone(protocol, "A"), phone(protocol, "B"), phone(protocol, "A")
    page = first.get(url(protocol, "protocol")).content.decode()
    assert [f'name="{seat}"' in page for seat in "ABCD"] == [seat in seats_shown for seat in "ABCD"]

    protocol.refresh_from_db()
    paper = {seat: totals[seat] for seat in seats_shown}
    response = first.post(url(protocol, "finish"), {"version": protocol.version, "ended_early": "on", **paper})
    assert response.status_code == 302
    protocol.refresh_from_db()
    assert (protocol.status, protocol.completed_by_seat) == ("complete", "A")
    assert "Potwierdza go inny gracz" in first.get(url(protocol, "protocol")).content.decode()
    assert "Wpisz PIN jeszcze raz" in same_seat.get(url(protocol, "protocol")).content.decode()
    assert url(protocol, "pulka_deal") not in second.get(url(protocol, "protocol")).content.decode()

    assert second.post(url(protocol, "confirm"), {"version": protocol.version}).status_code == 302
    protocol.refresh_from_db()
    assert (protocol.status, protocol.confirmed_by_seat) == ("confirmed", "B")


def test_totals_that_differ_from_the_sheet_are_refused_and_the_protocol_stays_open(protocol, referee):
    protocol = pulka_entered(protocol, [MADE_BY_B], referee)
    client = phone(protocol)
    client.post(url(protocol, "pulka_close"), {"version": protocol.version, "closed": "on"})
    protocol.refresh_from_db()
    wrong = dict.fromkeys("ABCD", 0)
    response = client.post(url(protocol, "finish"), {"version": protocol.version, **wrong})
    protocol.refresh_from_db()
    assert response.status_code == 200 and "różnią się" in response.content.decode()
    assert protocol.status == "open"


def test_a_complete_protocol_takes_no_deal_from_the_phone(protocol, referee):
    protocol = pulka_entered(protocol, [MADE_BY_B], referee)
    services.protocol_totals_set(
        protocol=protocol, totals=small_points(protocol), expected_version=protocol.version, user=referee
    )
    protocol.refresh_from_db()
    services.protocol_complete(protocol=protocol, expected_version=protocol.version, ended_early=True, user=referee)
    client = phone(protocol)
    response = deal_post(client, protocol, {"contract": "6S", "declarer": "C"})
    assert response.status_code == 200 and "Kompletny protokół może zmienić tylko sędzia." in response.content.decode()
    close = {"version": stamp(protocol)["version"], "closed": "on"}
    response = client.post(url(protocol, "pulka_close"), close, follow=True)
    assert "Kompletny protokół może zmienić tylko sędzia." in response.content.decode()
    protocol.refresh_from_db()
    assert protocol.rows.count() == 1 and not protocol.closed_by_agreement


# --- the door, and the Baśka forms --------------------------------------------------------------


@pytest.mark.parametrize("name", ["pulka_deal", "pulka_close", "finish", "confirm"])
def test_without_the_pin_or_once_the_series_is_closed_the_phone_s_forms_are_refused(protocol, name):
    form = {**stamp(protocol), **MADE_BY_B_FORM}
    assert Client().post(url(protocol, name), form).status_code == 403
    client = phone(protocol)
    protocol.series.status = "closed"
    protocol.series.save(update_fields=["status"])
    assert client.post(url(protocol, name), form).status_code == 403
    assert not protocol.rows.exists()


@pytest.mark.parametrize(("name", "args"), [("save", ()), ("preview", ()), ("delete", (1,))])
def test_the_baska_deal_forms_refuse_a_pulka(protocol, referee, name, args):
    protocol = pulka_entered(protocol, [MADE_BY_B], referee)
    response = phone(protocol).post(url(protocol, name, *args), {"number": 1, "version": 1, "line": "ac60"})
    assert response.status_code == 409 and protocol.rows.get().deal == MADE_BY_B


def test_a_baska_table_has_no_pulka_forms():
    protocol = drawn_series(tables=1).protocols.get()
    client = phone(protocol)
    assert client.post(url(protocol, "pulka_deal"), {**stamp(protocol), **MADE_BY_B_FORM}).status_code == 404
    assert client.get(url(protocol, "pulka_entry", 1)).status_code == 404


@pytest.mark.parametrize("name", ["deals_json", "value_table_json"])
def test_the_phones_json_answers_a_pulka_with_a_polish_refusal(protocol, name):
    client = phone(protocol)
    if name == "deals_json":
        body = {"key": "k1", "number": 1, "deal": MADE_BY_B}
        response = client.post(url(protocol, name), json.dumps(body), content_type="application/json")
    else:
        response = client.get(url(protocol, name))
    assert response.status_code == 409
    assert response.json()["status"] == "preferans"
    assert not protocol.rows.exists()


def test_the_phone_page_of_a_long_pulka_costs_a_bounded_number_of_queries(
    protocol, referee, django_assert_max_num_queries
):
    # unwhisted sixes, each declared by the player after the dealer (with four, the dealer sits out)
    deals = [{"contract": "6S", "declarer": "ABCD"[number % 4]} for number in range(1, 13)]
    protocol = pulka_entered(protocol, deals, referee)
    client = phone(protocol)
    with django_assert_max_num_queries(20):
        assert client.get(url(protocol, "protocol")).status_code == 200
