"""The Django admin is for superusers: an organiser with every model permission gets nothing there."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from league.models import Series, Tournament
from league.tournaments import draws
from tests.factories import TournamentFactory, UserFactory, register_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_organiser(client):
    """The organiser of tournament B, staff and holding every model permission, as the old README advised."""
    user = UserFactory(is_staff=True)
    user.user_permissions.set(Permission.objects.all())
    TournamentFactory(name="B").organisers.add(user)
    client.force_login(user)
    return user


@pytest.fixture
def tournament_a():
    tournament = TournamentFactory(name="A", series_count=2)
    register_teams(tournament, teams=2, size=2, individuals=4)
    draws.series_draw(tournament=tournament, numbers=[1], seed=3)
    tournament.series.update(results_published=False)  # held back by the organiser
    return tournament


def test_an_organiser_is_sent_to_the_login_page_instead_of_the_admin(client, other_organiser, tournament_a):
    for url in (
        reverse("admin:index"),
        reverse("admin:league_tournament_changelist"),
        reverse("admin:league_tournament_change", args=[tournament_a.pk]),
        reverse("admin:auth_user_changelist"),
    ):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login")), url


def test_an_organiser_cannot_take_over_or_delete_another_organisers_tournament(client, other_organiser, tournament_a):
    change = reverse("admin:league_tournament_change", args=[tournament_a.pk])
    client.post(change, {"name": "Mine now", "organisers": [other_organiser.pk]})
    client.post(reverse("admin:league_tournament_delete", args=[tournament_a.pk]), {"post": "yes"})

    tournament_a.refresh_from_db()
    assert tournament_a.name == "A"
    assert other_organiser not in tournament_a.organisers.all()


def test_an_organiser_cannot_publish_a_series_in_play(client, other_organiser, tournament_a):
    series = tournament_a.series.get(number=1)
    client.post(reverse("admin:league_series_change", args=[series.pk]), {"results_published": "on"})
    series.refresh_from_db()
    assert not series.results_published


def test_the_superuser_still_has_the_admin(client, tournament_a):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.get(reverse("admin:league_tournament_change", args=[tournament_a.pk]))
    assert response.status_code == 200


def test_not_even_the_superuser_publishes_a_series_in_play_through_the_admin(client, tournament_a):
    """Publishing goes through the organiser's screen; the admin form only shows the flag."""
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    series = tournament_a.series.get(number=1)
    response = client.get(reverse("admin:league_series_change", args=[series.pk]))
    assert "results_published" not in response.context["adminform"].form.fields
    client.post(reverse("admin:league_series_change", args=[series.pk]), {"results_published": "on"})
    assert not Series.objects.get(pk=series.pk).results_published
    assert Tournament.objects.filter(pk=tournament_a.pk).exists()


def test_the_admin_checks_a_logo_by_its_content_as_the_organisers_screen_does(rf, tournament_a):
    from django.contrib.admin.sites import site
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.forms.models import model_to_dict

    request = rf.get("/")
    request.user = UserFactory(is_staff=True, is_superuser=True)
    form_class = site._registry[Tournament].get_form(request, tournament_a)
    data = {key: value for key, value in model_to_dict(tournament_a).items() if value is not None}
    data["organisers"] = [user.pk for user in data["organisers"]]
    data["referees"] = [user.pk for user in data["referees"]]
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><image href="http://127.0.0.1:9/x.png"/></svg>'

    form = form_class(data, {"organiser_logo": SimpleUploadedFile("logo.png", svg)}, instance=tournament_a)

    assert not form.is_valid() and "organiser_logo" in form.errors


def test_an_overlong_username_at_the_admins_login_is_a_wrong_login_not_a_server_error(client):
    """django-axes logs a failed login's username in a varchar(255): PostgreSQL refused 256 characters."""
    response = client.post(reverse("admin:login"), {"username": "x" * 256, "password": "whatever"})
    assert response.status_code == 200
    assert response.context["form"].errors
