"""The "PIN-y stolików" page and PDF: every table's link and PIN for the referee, with unlocking and new PINs."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from league.models import Series
from league.results.models import Protocol
from tests.factories import UserFactory
from tests.printing.test_documents import pdf_text, seated_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    tournament, _series = seated_tournament()
    return tournament


@pytest.fixture
def referee(client, tournament):
    user = UserFactory()
    tournament.referees.add(user)
    client.force_login(user)
    return user


def pins_url(tournament, number: int = 1) -> str:
    return reverse("printing:pins", args=[tournament.slug, number])


def table_rows(page: str) -> list[str]:
    """The HTML of each table's row of the PIN page, in table order."""
    return [row.split("</tr>")[0] for row in page.split('<tr id="table-')[1:]]


def test_the_pin_page_lists_every_tables_short_link_and_pin(client, tournament, referee):
    page = strip_tags(client.get(pins_url(tournament)).content.decode())
    for protocol in Protocol.objects.filter(series__number=1):
        assert f"testserver/turnieje/puchar-wojta/stolik/1/{protocol.table}" in page
        assert protocol.pin in page


def test_the_pin_page_offers_new_pins_and_unlocks_a_table_with_wrong_pins(client, tournament, referee):
    Protocol.objects.filter(series__number=1, table=2).update(wrong_pins=3)
    page = client.get(pins_url(tournament)).content.decode()
    assert [reverse("results:unlock", args=[tournament.slug, 1, table]) in page for table in (1, 2)] == [False, True]
    for table in (1, 2):
        assert reverse("results:new_pin", args=[tournament.slug, 1, table]) in page
    assert reverse("results:new_pins", args=[tournament.slug, 1]) in page


def test_the_pin_page_shows_which_table_is_locked(client, tournament, referee):
    Protocol.objects.filter(series__number=1, table=2).update(wrong_pins=Protocol.PIN_LOCK_TRIES)
    page = client.get(pins_url(tournament), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert ["zablokowan" in row for row in table_rows(page)] == [False, True]


def test_unlocking_from_the_pin_page_lets_the_table_try_again(client, tournament, referee):
    Protocol.objects.filter(series__number=1, table=2).update(wrong_pins=Protocol.PIN_LOCK_TRIES)
    client.post(reverse("results:unlock", args=[tournament.slug, 1, 2]))
    assert not Protocol.objects.get(series__number=1, table=2).pin_locked
    page = client.get(pins_url(tournament), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert ["zablokowan" in row for row in table_rows(page)] == [False, False]


def test_a_closed_series_offers_no_pin_buttons(client, tournament, referee):
    Series.objects.filter(tournament=tournament, number=1).update(status=Series.Status.CLOSED)
    page = client.get(pins_url(tournament)).content.decode()
    assert reverse("results:new_pins", args=[tournament.slug, 1]) not in page
    assert reverse("results:unlock", args=[tournament.slug, 1, 1]) not in page


def test_a_closed_series_pin_page_says_no_table_is_open(client, tournament, referee):
    Series.objects.filter(tournament=tournament, number=1).update(status=Series.Status.CLOSED)
    rows = table_rows(client.get(pins_url(tournament), HTTP_ACCEPT_LANGUAGE="pl").content.decode())
    assert rows and all("zamknięty razem z serią" in row and "otwarty" not in row for row in rows)


def test_the_pin_pdf_prints_each_tables_link_and_pin(client, tournament, referee):
    response = client.get(reverse("printing:pins_pdf", args=[tournament.slug, 1]), HTTP_ACCEPT_LANGUAGE="pl")
    assert response["Content-Type"] == "application/pdf"
    text = " ".join(pdf_text(response.content).split())
    assert "PIN-y stolików" in text
    for protocol in Protocol.objects.filter(series__number=1):
        assert f"testserver/turnieje/puchar-wojta/stolik/1/{protocol.table}{protocol.pin}" in unwrapped(text)


def unwrapped(text: str) -> str:
    """A PDF's text with its line breaks taken out, for a link wrapped after one of its slashes."""
    return "".join(text.split())


def test_each_protocol_prints_its_short_link_under_the_qr_code(client, tournament, referee):
    response = client.get(reverse("printing:protocol", args=[tournament.slug, 1, 2]))
    text = pdf_text(response.content)
    assert "testserver/turnieje/puchar-wojta/stolik/1/2" in unwrapped(text)
    assert "puchar-\n" not in text  # wrapped after a slash, never at the hyphen


def test_the_pins_are_for_the_tournaments_referees_only(client, tournament):
    assert client.get(pins_url(tournament)).status_code == 302
    client.force_login(UserFactory())
    assert client.get(pins_url(tournament)).status_code == 403
    assert client.get(reverse("printing:pins_pdf", args=[tournament.slug, 1])).status_code == 403


def test_the_print_page_links_each_drawn_series_pins(client, tournament, referee):
    page = client.get(reverse("printing:index", args=[tournament.slug])).content.decode()
    assert pins_url(tournament) in page


def test_the_polish_sheets_and_print_page_say_stolik_never_stol(client, tournament, referee):
    slug = tournament.slug
    for address in (
        reverse("printing:protocol", args=[slug, 1, 1]),
        reverse("printing:blank_protocol", args=[slug]),
        reverse("printing:table_list", args=[slug, 1]),
    ):
        text = pdf_text(client.get(address, HTTP_ACCEPT_LANGUAGE="pl").content).casefold()
        assert "stolik" in text and "stoł" not in text and "stół" not in text, address
    page = client.get(reverse("printing:index", args=[slug]), HTTP_ACCEPT_LANGUAGE="pl").content.decode().casefold()
    assert "stoł" not in page and "stół" not in page


def test_the_pin_page_s_buttons_come_back_to_the_pin_page_and_nowhere_else(client, referee, tournament):
    pins = pins_url(tournament)
    new_pin = reverse("results:new_pin", args=[tournament.slug, 1, 1])

    assert client.post(new_pin, {"next": pins})["Location"] == pins
    assert client.post(new_pin, {"next": "https://evil.example/"})["Location"] != "https://evil.example/"
