"""The deal calculator page ("Kalkulator rozdania")."""

import pytest
from django.urls import reverse
from django.utils import translation

from league.games.labels import ERROR_MESSAGES, scoring_error_message
from scoring import MESSAGES, ScoringError

pytestmark = pytest.mark.django_db

# Codes only the command line or the tournament engine raise; a form never shows them.
NOT_SHOWN_IN_FORMS = {"unknown_command", "too_many_byes", "wrong_old_count", "too_many_doublings"}


def calculate(client, **params):
    return client.get(reverse("calculator"), {"ruleset_id": "puck", **params}, HTTP_ACCEPT_LANGUAGE="pl")


def test_calculator_shows_the_four_values_of_a_kontrad_ordinary_game(client):
    response = calculate(client, contract="zwykla", old=["A", "C"], kontras="m s", old_eyes=60)
    assert response.status_code == 200
    assert response.context["result"].values == {"A": 4, "B": -4, "C": 4, "D": -4}


def test_calculator_values_a_lost_gran_under_psb_at_double(client):
    response = calculate(client, ruleset_id="psb", contract="gran", old=["B"], winner="young")
    assert response.context["result"].values == {"A": 10, "B": -30, "C": 10, "D": 10}


def test_declarer_giving_the_first_kontra_is_explained_in_polish(client):
    response = calculate(client, contract="zolo", old=["A"], kontras="s", old_eyes=70)
    assert response.context["result"] is None
    assert "rozgrywający nie może dać pierwszej kontry" in response.content.decode()


def test_an_unknown_kontra_letter_is_refused(client):
    response = calculate(client, contract="zwykla", old=["A", "C"], kontras="mx", old_eyes=60)
    assert response.context["result"] is None
    assert "„x”" in response.content.decode() or "“x”" in response.content.decode()


def test_written_values_that_disagree_with_the_description_are_refused(client):
    response = calculate(
        client, contract="zwykla", old=["A", "C"], old_eyes=60, value_a=2, value_b=-2, value_c=2, value_d=-2
    )
    assert response.context["result"] is None
    assert response.context["form"].non_field_errors()


def test_htmx_request_gets_only_the_result_fragment(client):
    response = client.get(
        reverse("calculator"),
        {"ruleset_id": "gorzow", "contract": "zolo", "old": "D", "old_eyes": 80},
        HTTP_HX_REQUEST="true",
    )
    assert b"<html" not in response.content
    assert response.context["result"].values == {"A": -15, "B": -15, "C": -15, "D": 45}


def test_every_scoring_error_a_form_can_show_has_a_translation():
    assert set(MESSAGES) - NOT_SHOWN_IN_FORMS - set(ERROR_MESSAGES) == set()


@pytest.mark.parametrize("code", ["wrong_old_count", "too_many_doublings"])
def test_plural_errors_are_translated_with_their_numbers(code):
    params = {"contract": "zolo", "expected": 1, "got": 2, "max": 2}
    with translation.override("pl"):
        message = scoring_error_message(ScoringError(code, params))
    assert "zolo" in message and "2" in message


@pytest.mark.parametrize(
    ("deal", "label"),
    [
        ({"contract": "zwykla"}, "Miejsca starych"),
        ({"contract": "zolo"}, "Miejsca starych"),
    ],
)
def test_a_missing_part_of_the_deal_is_named_as_the_form_labels_it(client, deal, label):
    page = calculate(client, **deal).content.decode()
    assert "deal.old" not in page
    assert f"„{label}" in page


@pytest.mark.parametrize("path", ["deal.old", "deals[3].old[1]", "deal.values.B", "deal.kontras[0]", "deal", "x.y"])
def test_no_error_message_shows_the_engine_s_field_path(path):
    with translation.override("pl"):
        for code in ("missing_field", "invalid_input"):
            message = scoring_error_message(ScoringError(code, {"field": path, "expected": "a list"}, path))
            assert path not in message and "%(" not in message, message
