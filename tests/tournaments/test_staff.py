"""The organiser gives referees and co-organisers their roles from the tournament page."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from league.models import StaffInvitation
from league.tournaments.selectors import SEARCH_LIMIT
from tests.factories import UserFactory, drawn_series

pytestmark = pytest.mark.django_db


def found(client, tournament, query: str) -> list:
    return list(client.get(reverse("tournaments:staff", args=[tournament.slug]), {"q": query}).context["found"])


def post(client, tournament, action: str, *, role: str, user) -> object:
    return client.post(
        reverse(f"tournaments:staff_{action}", args=[tournament.slug]), {"role": role, "user": user.pk}, follow=True
    )


def test_the_tournament_page_names_its_staff_and_leads_to_their_screen(client, organiser, tournament):
    organiser.first_name, organiser.last_name = "Jan", "Konkel"
    organiser.save()
    page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    assert "Jan Konkel" in page
    assert reverse("tournaments:staff", args=[tournament.slug]) in page


@pytest.mark.parametrize("query", ["zkakol", "ZKakol", " zofia.kakol@example.org ", "Zofia.Kakol@EXAMPLE.org"])
def test_a_user_is_found_by_the_exact_username_or_e_mail_address_in_any_case(client, tournament, query):
    wanted = UserFactory(username="zkakol", email="zofia.kakol@example.org", first_name="Zofia", last_name="Kąkol")
    UserFactory(username="other", first_name="Jan", last_name="Pobłocki")
    assert found(client, tournament, query) == [wanted]


@pytest.mark.parametrize("query", ["zk", "kakol", "Zofia", "Kąkol", "example.org"])
def test_a_part_of_a_name_or_address_lists_nobody(client, tournament, query):
    UserFactory(username="zkakol", email="zofia.kakol@example.org", first_name="Zofia", last_name="Kąkol")
    response = client.get(reverse("tournaments:staff", args=[tournament.slug]), {"q": query})
    assert list(response.context["found"]) == []
    assert "Nobody has this username or e-mail address." in response.content.decode()


def test_a_superuser_is_never_offered_even_by_exact_username(client, tournament):
    UserFactory(username="admin", email="admin@example.org", is_staff=True, is_superuser=True)
    assert found(client, tournament, "admin") == []
    assert found(client, tournament, "admin@example.org") == []


def test_the_staff_screen_lists_no_username_without_a_search(client, tournament):
    stranger = UserFactory(username="nieznajomy")
    assert stranger.username not in client.get(reverse("tournaments:staff", args=[tournament.slug])).content.decode()


def test_a_search_shows_at_most_the_limit(client, tournament):
    UserFactory.create_batch(SEARCH_LIMIT + 5, email="klub@example.org")  # a club's shared address
    assert len(found(client, tournament, "klub@example.org")) == SEARCH_LIMIT


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def answer(client, invitation, answer: str):
    return client.post(reverse("tournaments:invitation_answer", args=[invitation.pk]), {"answer": answer}, follow=True)


def test_an_added_referee_sees_nothing_until_accepting_the_invitation(client, tournament):
    drawn_series(tournament)
    referee = UserFactory(first_name="Zofia", last_name="Kąkol")
    post(client, tournament, "add", role="referees", user=referee)
    as_referee = logged_in(referee)
    results = reverse("results:series", args=[tournament.slug, 1])

    assert as_referee.get(results).status_code == 403
    staff_page = client.get(reverse("tournaments:staff", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="pl")
    assert "zaproszony" in staff_page.content.decode()  # the organiser sees who has not answered yet
    my_list = as_referee.get(reverse("tournaments:list"), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert tournament.name in my_list and "Przyjmij" in my_list

    invitation = StaffInvitation.objects.get()
    assert as_referee.get(reverse("tournaments:invitation_answer", args=[invitation.pk])).status_code == 405
    answer(as_referee, invitation, "accept")

    assert as_referee.get(results).status_code == 200
    assert not StaffInvitation.objects.exists() and list(tournament.referees.all()) == [referee]


def test_a_co_organiser_opens_the_tournament_once_accepted(client, tournament):
    co_organiser = UserFactory()
    post(client, tournament, "add", role="organisers", user=co_organiser)
    as_co_organiser = logged_in(co_organiser)
    detail = reverse("tournaments:detail", args=[tournament.slug])
    assert as_co_organiser.get(detail).status_code == 403

    answer(as_co_organiser, StaffInvitation.objects.get(), "accept")
    assert as_co_organiser.get(detail).status_code == 200


def test_a_declined_invitation_gives_nothing_and_is_gone(client, tournament):
    drawn_series(tournament)
    referee = UserFactory()
    post(client, tournament, "add", role="referees", user=referee)
    as_referee = logged_in(referee)

    answer(as_referee, StaffInvitation.objects.get(), "decline")

    assert as_referee.get(reverse("results:series", args=[tournament.slug, 1])).status_code == 403
    assert not StaffInvitation.objects.exists() and not tournament.referees.exists()


def test_nobody_answers_another_persons_invitation(client, tournament):
    referee, intruder = UserFactory(), UserFactory()
    post(client, tournament, "add", role="referees", user=referee)

    answer(logged_in(intruder), StaffInvitation.objects.get(), "accept")

    assert not tournament.referees.exists() and StaffInvitation.objects.filter(user=referee).exists()


def test_the_organiser_withdraws_an_invitation(client, organiser, tournament):
    referee = UserFactory()
    post(client, tournament, "add", role="organisers", user=referee)
    post(client, tournament, "remove", role="organisers", user=referee)
    assert not StaffInvitation.objects.exists() and list(tournament.organisers.all()) == [organiser]


def test_a_removed_referee_is_refused(client, tournament):
    drawn_series(tournament)
    referee = UserFactory()
    tournament.referees.add(referee)
    post(client, tournament, "remove", role="referees", user=referee)

    as_referee = Client()
    as_referee.force_login(referee)
    assert as_referee.get(reverse("results:series", args=[tournament.slug, 1])).status_code == 403


def test_the_last_organiser_cannot_be_removed(client, organiser, tournament):
    response = post(client, tournament, "remove", role="organisers", user=organiser)
    assert "A tournament needs an organiser" in response.content.decode()
    assert list(tournament.organisers.all()) == [organiser]


def test_an_organiser_may_step_down_once_there_is_another(client, organiser, tournament):
    other = UserFactory()
    tournament.organisers.add(other)
    response = post(client, tournament, "remove", role="organisers", user=organiser)
    assert response.redirect_chain[-1][0] == reverse("tournaments:list")
    assert list(tournament.organisers.all()) == [other]


def test_a_referee_cannot_change_the_staff(tournament):
    referee = UserFactory()
    tournament.referees.add(referee)
    as_referee = Client()
    as_referee.force_login(referee)
    response = post(as_referee, tournament, "add", role="organisers", user=referee)
    assert response.status_code == 403
    assert not tournament.organisers.filter(pk=referee.pk).exists()


def test_adding_is_a_post(client, tournament):
    referee = UserFactory()
    response = client.get(
        reverse("tournaments:staff_add", args=[tournament.slug]), {"role": "referees", "user": referee.pk}
    )
    assert response.status_code == 405
    assert not tournament.referees.exists()


def test_a_referee_reaches_every_tables_link_and_qr_code_from_the_series_page_and_meets_no_closed_door(tournament):
    drawn_series(tournament, tables=2, status="in_play")
    referee = UserFactory()
    tournament.referees.add(referee)
    as_referee = logged_in(referee)
    series_page = as_referee.get(reverse("results:series", args=[tournament.slug, 1])).content.decode()
    pins = reverse("printing:pins", args=[tournament.slug, 1])
    for table in (1, 2):
        assert f"{pins}#table-{table}" in series_page
        assert reverse("printing:protocol", args=[tournament.slug, 1, table]) in series_page

    pins_page = as_referee.get(pins)
    links = re.findall(r'href="(/[^"#?]*)', pins_page.content.decode())
    refused = [url for url in links if as_referee.get(url).status_code == 403]
    assert refused == []


@pytest.mark.parametrize(
    ("role", "drawn", "landing"),
    [
        ("referees", True, "results:series"),
        ("referees", False, "tournaments:list"),
        ("organisers", True, "tournaments:detail"),
        ("organisers", False, "tournaments:detail"),
    ],
)
def test_accepting_an_invitation_lands_where_the_role_works(client, tournament, role, drawn, landing):
    """Issue 41: a referee who accepted was sent to the organiser's page and read "Brak uprawnień"."""
    if drawn:
        drawn_series(tournament)
    person = UserFactory()
    post(client, tournament, "add", role=role, user=person)
    response = answer(logged_in(person), StaffInvitation.objects.get(), "accept")
    assert response.status_code == 200
    assert response.resolver_match.view_name == landing
    assert tournament.name in response.content.decode()
