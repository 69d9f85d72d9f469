"""The site's own Polish pages for refusals and errors, and its icon."""

import pytest
from django.contrib.staticfiles import finders
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from league import errors
from tests.factories import TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db

POLISH = {"HTTP_ACCEPT_LANGUAGE": "pl"}
BRAND = "Liga Baśki"


@pytest.fixture
def tournament():
    tournament = TournamentFactory(name="Puchar Wójta")
    for first, last in (("Jan", "Konkel"), ("Maria", "Bigus")):
        tournament.organisers.add(UserFactory(first_name=first, last_name=last))
    return tournament


def logged_in(user=None) -> Client:
    client = Client()
    client.force_login(user or UserFactory())
    return client


def test_a_referee_on_an_organisers_page_is_told_whom_to_ask(tournament):
    referee = UserFactory()
    tournament.referees.add(referee)
    response = logged_in(referee).get(reverse("tournaments:detail", args=[tournament.slug]), **POLISH)
    page = response.content.decode()
    assert response.status_code == 403
    assert "Tylko organizatorzy turnieju Puchar Wójta mogą otworzyć tę stronę." in page
    assert "Maria Bigus, Jan Konkel" in page
    assert BRAND in page


def test_a_stranger_on_a_referees_page_is_told_whom_to_ask(tournament):
    response = logged_in().get(reverse("printing:index", args=[tournament.slug]), **POLISH)
    page = response.content.decode()
    assert response.status_code == 403
    assert "Tylko organizatorzy i sędziowie turnieju Puchar Wójta mogą otworzyć tę stronę." in page
    assert "Maria Bigus, Jan Konkel" in page


def test_a_refusal_without_a_tournament_is_a_styled_polish_page():
    response = logged_in().get(reverse("tournaments:create"), **POLISH)
    assert response.status_code == 403
    page = response.content.decode()
    assert "Brak uprawnień" in page and BRAND in page


def test_a_missing_page_is_a_styled_polish_404():
    response = Client().get("/nie-ma-takiej-strony/", **POLISH)
    assert response.status_code == 404
    page = response.content.decode()
    assert "Nie ma takiej strony" in page and BRAND in page


def test_a_bad_request_is_a_styled_polish_400():
    response = Client().get(reverse("home"), HTTP_HOST="obcy.example", **POLISH)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Nieprawidłowe żądanie" in page and BRAND in page


def test_the_500_page_is_polish_and_asks_nothing_of_the_database(django_assert_num_queries):
    request = RequestFactory().get("/")
    with translation.override("pl"), django_assert_num_queries(0):
        try:
            raise RuntimeError("a bug")
        except RuntimeError:
            response = errors.server_error(request)
    page = response.content.decode()
    assert response.status_code == 500
    assert "Coś poszło nie tak" in page and BRAND in page


def test_every_page_names_the_icon_and_the_icon_exists():
    page = Client().get(reverse("home")).content.decode()
    assert 'rel="icon"' in page and "favicon.svg" in page
    assert finders.find("favicon.svg") and finders.find("favicon.ico")


def test_the_old_icon_address_leads_to_the_icon():
    response = Client().get("/favicon.ico")
    assert response.status_code == 302
    assert response.url.endswith("favicon.ico") and response.url != "/favicon.ico"


def test_a_form_sent_without_its_token_gets_a_styled_polish_page():
    response = Client(enforce_csrf_checks=True).post(reverse("login"), {"username": "a", "password": "b"}, **POLISH)
    assert response.status_code == 403
    page = response.content.decode()
    assert "Formularz wygasł" in page and BRAND in page
