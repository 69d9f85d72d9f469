"""The kind of offence ("rodzaj przewinienia", docs/rules.md §4.6): a note on a protocol row, chosen
in the referee's deal form and on the table's phone, shown on the protocol, never valued."""

import pytest
from django.test import Client
from django.urls import reverse

import scoring
from league.games.baska.calculator import CalculatorForm
from league.games.baska.settings import tournament_ruleset
from league.results.models import Protocol
from tests.factories import UserFactory, drawn_series

pytestmark = pytest.mark.django_db

RENEGE = {"contract": "zwykla", "old": ["A", "C"], "misplay": "B", "offence": "renege"}


@pytest.fixture
def series(client):
    referee = UserFactory()
    client.force_login(referee)
    series = drawn_series()
    series.tournament.referees.add(referee)
    return series


def referee_page(series):
    return reverse("results:protocol", args=[series.tournament.slug, series.number, 1])


def misplay_posted(**more):
    """The full deal form's post of deal 1: B misplays the ordinary game of A and C."""
    return {"number": 1, "version": 0, "line": "", "full-contract": "zwykla", "full-old": ["A", "C"], **more}


def test_the_referee_notes_the_kind_of_offence_and_the_protocol_shows_it(client, series):
    page = referee_page(series)
    assert 'name="full-offence"' in client.get(page).content.decode()
    response = client.post(page, misplay_posted(**{"full-misplay": "B", "full-offence": "renege"}))
    assert response.status_code == 302
    row = Protocol.objects.get(series=series, table=1).rows.get()
    assert row.deal == RENEGE
    without_note = scoring.score_deal(
        {k: v for k, v in RENEGE.items() if k != "offence"}, tournament_ruleset(series.tournament)
    )
    assert row.values == without_note.values
    assert "renege (fela not followed)" in client.get(page).content.decode()
    polish = client.get(page, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "nieprzestrzeganie koloru (fela)" in polish and 'title="Rodzaj przewinienia"' in polish


def test_an_offence_may_be_noted_beside_the_outcome_it_led_to(client, series):
    posted = misplay_posted(**{"full-winner": "young", "full-level": "z_wyjsciem", "full-offence": "card_shown"})
    assert client.post(referee_page(series), posted).status_code == 302
    assert Protocol.objects.get(series=series, table=1).rows.get().deal["offence"] == "card_shown"
    assert "cards shown" in client.get(referee_page(series)).content.decode()


def test_an_unknown_offence_is_refused_and_changes_nothing(client, series):
    response = client.post(referee_page(series), misplay_posted(**{"full-misplay": "B", "full-offence": "cheating"}))
    assert response.status_code == 200
    assert not Protocol.objects.get(series=series, table=1).rows.exists()


def test_the_phone_offers_the_offence_beside_the_misplay_and_keeps_it_for_a_correction(series):
    protocol = Protocol.objects.get(series=series, table=1)
    phone = Client()
    args = [series.tournament.slug, series.number, 1]
    assert phone.post(reverse("table:pin", args=args), {"pin": protocol.pin, "seat": "A"}).status_code == 302
    page = phone.get(reverse("table:protocol", args=args)).content.decode()
    assert page.index('name="full-misplay"') < page.index('name="full-offence"')

    posted = {**misplay_posted(**{"full-misplay": "B", "full-offence": "out_of_turn"}), "version": protocol.version}
    del posted["line"]
    assert phone.post(reverse("table:save", args=args), posted).status_code == 302
    assert protocol.rows.get().deal == {**RENEGE, "offence": "out_of_turn"}

    edit = phone.get(reverse("table:edit", args=[*args, 1]))
    assert edit.context["deal_form"]["offence"].value() == "out_of_turn"
    assert "card played out of turn" in edit.content.decode()


def test_the_calculator_values_deals_without_the_protocol_note():
    assert "offence" not in CalculatorForm().fields
