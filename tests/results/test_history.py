"""A protocol's history names every event and every person; after a correction the page says what comes next."""

import pytest
from django.test import Client
from django.urls import reverse

from league.games.baska.shorthand import parse
from league.models import TableAssignment
from league.results import services
from tests.factories import UserFactory, drawn_series, game_settings_set
from tests.results.test_services import enter, finish

pytestmark = pytest.mark.django_db

PAPER = {"A": 31, "B": -11, "C": -9, "D": -11}
LINES = ["ac60", "bd+", "ac+", "zak+"]


@pytest.fixture
def referee(client):
    user = UserFactory(username="jsedzia", first_name="Józef", last_name="Sędzia")
    client.force_login(user)
    return user


@pytest.fixture
def series(referee):
    series = drawn_series(tables=1)
    game_settings_set(series.tournament, deals_per_series=4)
    series.tournament.save()
    series.tournament.referees.add(referee)
    return series


def url(series, name, *args):
    return reverse(f"results:{name}", args=[series.tournament.slug, series.number, *args])


def phone_for(protocol, seat):
    phone = Client()
    args = [protocol.series.tournament.slug, protocol.series.number, protocol.table]
    phone.post(reverse("table:pin", args=args), {"pin": protocol.pin, "seat": seat})
    return phone, args


def test_the_history_lists_every_event_with_full_names_and_the_phones_players(client, series, referee):
    protocol = series.protocols.get()
    players = {a.seat: a.player for a in TableAssignment.objects.filter(series=series)}
    phone, args = phone_for(protocol, "B")
    for number, line in enumerate(LINES, start=1):
        protocol.refresh_from_db()
        phone.post(reverse("table:save", args=args), {"number": number, "version": protocol.version, "line": line})
    protocol.refresh_from_db()
    phone.post(reverse("table:finish", args=args), {"version": protocol.version, **PAPER})
    protocol.refresh_from_db()
    client.post(url(series, "confirm", 1), {"version": protocol.version, "seat": "C"})
    services.protocol_pin_renew(protocol=protocol, user=referee)
    services.series_close(series=series, user=referee)
    services.series_reopen(series=series, user=referee, reason="Spór o rozdanie 2")

    history = client.get(url(series, "history", 1)).content.decode()
    for what in (
        "added",
        "totals on paper entered",
        "marked complete",
        "confirmed",
        "new PIN",
        "series closed",
        "series reopened",
        "Spór o rozdanie 2",
    ):
        assert what in history, what
    assert "Józef Sędzia" in history and "jsedzia" not in history
    assert players["B"].full_name in history  # the phone's seat is named by its player
    assert history.index("added") < history.index("marked complete") < history.index("series reopened")


def test_a_user_without_a_name_is_shown_by_username(client, series):
    nameless = UserFactory(username="sedzia2")
    series.tournament.referees.add(nameless)
    enter(series.protocols.get(), LINES[:1], nameless)
    assert "sedzia2" in client.get(url(series, "history", 1)).content.decode()


def test_a_correction_of_a_complete_protocol_says_what_comes_next(client, series, referee):
    protocol = enter(series.protocols.get(), LINES, referee)
    protocol = services.protocol_totals_set(
        protocol=protocol, totals=PAPER, expected_version=protocol.version, user=referee
    )
    protocol = services.protocol_complete(protocol=protocol, expected_version=protocol.version, seat="A", grant="g")
    client.post(url(series, "correct", 1, 1), {"number": 1, "version": protocol.version, "line": "ac40"})
    page = client.get(url(series, "protocol", 1)).content.decode()
    steps = page[page.index('id="next-steps"') :]
    assert "back to being entered" in steps and "Józef Sędzia" in steps
    assert "enter the new totals" in steps  # ac40 moved the totals away from the paper
    assert "confirms it again" in steps
    history = client.get(url(series, "history", 1)).content.decode()
    assert "back to being entered" in history


def test_a_correction_that_keeps_the_totals_says_they_still_agree(client, series, referee):
    protocol = enter(series.protocols.get(), LINES, referee)
    protocol = services.protocol_totals_set(
        protocol=protocol, totals=PAPER, expected_version=protocol.version, user=referee
    )
    protocol = services.protocol_complete(protocol=protocol, expected_version=protocol.version, seat="A", grant="g")
    # ac60 and ac+ are both worth A +1: the same values, another description
    client.post(url(series, "correct", 1, 1), {"number": 1, "version": protocol.version, "line": "ac+"})
    steps = client.get(url(series, "protocol", 1)).content.decode()
    steps = steps[steps.index('id="next-steps"') :]
    assert "still agree" in steps and "enter the new totals" not in steps


def test_a_correction_after_closing_asks_for_the_new_paper_totals_and_keeps_the_protocol_confirmed(
    client, series, referee
):
    finish(enter(series.protocols.get(), LINES, referee), referee, PAPER)
    services.series_close(series=series, user=referee)
    protocol = series.protocols.get()
    client.post(
        url(series, "correct", 1, 1), {"number": 1, "version": protocol.version, "line": "ac40", "reason": "Paper: 40"}
    )
    page = client.get(url(series, "protocol", 1)).content.decode()
    steps = page[page.index('id="next-steps"') :]
    assert "counts in the public standings" in steps and "enter the new totals" in steps
    assert page.count("Paper minus screen") == 1  # at the top, not again by the totals
    protocol.refresh_from_db()
    new_totals = {"A": 28, "B": -8, "C": -12, "D": -8}
    client.post(url(series, "totals", 1), {"version": protocol.version, **new_totals})
    protocol.refresh_from_db()
    assert protocol.status == "confirmed" and protocol.declared_totals == new_totals
    assert 'id="next-steps"' not in client.get(url(series, "protocol", 1)).content.decode()


def test_an_untouched_protocol_has_no_next_steps(client, series, referee):
    enter(series.protocols.get(), LINES[:2], referee)
    assert 'id="next-steps"' not in client.get(url(series, "protocol", 1)).content.decode()


def test_the_table_s_phone_records_its_seat_in_the_row_history(series, referee):
    protocol = series.protocols.get()
    services.protocol_row_save(protocol=protocol, number=1, deal=parse("ac60"), expected_version=0, seat="D")
    assert protocol.history.get().seat == "D"
