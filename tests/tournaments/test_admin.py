"""The admin shows series, seats and byes but changes them only through the services."""

from __future__ import annotations

import pytest
from django.db.models.fields.files import FieldFile
from django.urls import reverse

from league.models import DrawLog, Series
from league.tournaments import draws
from tests.factories import PlayerFactory, TournamentFactory, UserFactory, register_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def tournament():
    tournament = TournamentFactory(series_count=2)
    register_teams(tournament, teams=2, size=2, individuals=5)  # 9 players: 2 tables and a bye
    draws.series_draw(tournament=tournament, numbers=[1], seed=5)
    return tournament


def as_posted(value) -> object:
    if value is None or isinstance(value, FieldFile):
        return ""  # no logo: a file input posts nothing
    if isinstance(value, list | tuple):
        return [getattr(item, "pk", item) for item in value]
    return getattr(value, "pk", value)


def form_data(form) -> dict:
    """What a form posts when nobody touches it."""
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is False:
            continue
        data[form.add_prefix(name)] = "on" if value is True else as_posted(value)
    return data


def change_form_data(response) -> dict:
    """What the admin's change form would post unchanged: the main form and every inline."""
    data = form_data(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        data.update(form_data(formset.management_form))
        for form in formset.initial_forms:
            data.update(form_data(form))
            data[form.add_prefix("id")] = form.instance.pk
    return data


def seating(series: Series) -> tuple[list, list]:
    return (
        list(series.assignments.order_by("table", "seat").values_list("table", "seat", "player_id")),
        list(series.byes.values_list("player_id", flat=True)),
    )


def test_seats_and_byes_posted_through_the_series_inlines_change_nothing(admin_client, tournament):
    series = tournament.series.get(number=1)
    before = seating(series)
    url = reverse("admin:league_series_change", args=[series.pk])
    data = change_form_data(admin_client.get(url))
    assignment = series.assignments.first()
    data.update(
        {
            "status": "closed",
            "assignments-0-id": assignment.pk,
            "assignments-0-table": 7,
            "assignments-0-seat": "D",
            "assignments-0-player": PlayerFactory().pk,
            "assignments-TOTAL_FORMS": int(data["assignments-TOTAL_FORMS"]) + 1,
            f"assignments-{data['assignments-TOTAL_FORMS']}-table": 9,
            f"assignments-{data['assignments-TOTAL_FORMS']}-seat": "A",
            f"assignments-{data['assignments-TOTAL_FORMS']}-player": PlayerFactory().pk,
            "byes-0-DELETE": "on",
        }
    )
    admin_client.post(url, data)
    series.refresh_from_db()
    assert seating(series) == before
    assert series.status == Series.Status.DRAWN


def test_a_series_status_posted_through_the_tournament_inline_changes_nothing(admin_client, tournament):
    url = reverse("admin:league_tournament_change", args=[tournament.pk])
    data = change_form_data(admin_client.get(url))
    data.update({"series-0-status": "closed", "series-0-results_entered": "on", "series-1-status": "drawn"})
    response = admin_client.post(url, data)
    assert response.status_code == 302  # the tournament itself saved
    assert list(tournament.series.order_by("number").values_list("status", "results_entered")) == [
        ("drawn", False),
        ("planned", False),
    ]


def test_the_draw_again_action_draws_through_the_service_and_logs_who_did_it(admin_client, tournament):
    series = tournament.series.get(number=1)
    response = admin_client.post(
        reverse("admin:league_series_changelist"), {"action": "draw_again", "_selected_action": [series.pk]}
    )
    assert response.status_code == 302
    log = DrawLog.objects.filter(series=series).first()
    assert log.action == DrawLog.Action.REDRAW and log.user.is_superuser
    assert sorted(series.protocols.values_list("table", flat=True)) == [1, 2]


def test_the_draw_again_action_refuses_a_series_with_results_and_says_why(admin_client, tournament):
    series = tournament.series.get(number=1)
    Series.objects.filter(pk=series.pk).update(results_entered=True)
    before = seating(series)
    response = admin_client.post(
        reverse("admin:league_series_changelist"),
        {"action": "draw_again", "_selected_action": [series.pk]},
        follow=True,
    )
    assert "already has results" in response.content.decode()
    assert seating(series) == before
    assert not DrawLog.objects.filter(action=DrawLog.Action.REDRAW).exists()


def test_the_plan_action_plans_the_missing_series(admin_client):
    tournament = TournamentFactory(series_count=3)
    admin_client.post(
        reverse("admin:league_tournament_changelist"),
        {"action": "plan_missing_series", "_selected_action": [tournament.pk]},
    )
    assert list(tournament.series.values_list("number", "status")) == [(1, "planned"), (2, "planned"), (3, "planned")]
