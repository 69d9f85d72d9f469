"""A league's writes: its address from a Polish name, every change in its history, organisers
added and taken off (never the last), a taken address refused with nothing changed."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from league.leagues.services import league_create, league_organiser_add, league_organiser_remove, league_update
from league.models import League, LeagueVersion
from league.seasons.services import season_create
from league.tournaments.services import tournament_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_address_folds_polish_letters_and_the_creation_is_kept_in_the_history():
    ewa = UserFactory(username="ewa")
    league = league_create(user=ewa, name="Złota Liga Baśki Łeba", description="Raz w miesiącu.")

    assert league.slug == "zlota-liga-baski-leba"
    assert list(league.organisers.all()) == [ewa]
    (version,) = league.history.all()
    assert (version.action, version.user, version.old) == (LeagueVersion.Action.CREATE, ewa, None)
    assert version.new["name"] == "Złota Liga Baśki Łeba"


def test_a_resent_form_gets_the_league_it_made_and_another_organiser_is_refused_its_address():
    ewa, jan = UserFactory(username="ewa"), UserFactory(username="jan")
    league = league_create(user=ewa, name="Liga Pucka")

    assert league_create(user=ewa, name="Liga Pucka") == league
    with pytest.raises(ValidationError) as refused:
        league_create(user=jan, name="Liga Pucka")
    assert refused.value.message_dict["slug"] == ["Another league already has this short name; choose another one."]
    assert League.objects.count() == 1 and LeagueVersion.objects.count() == 1


def test_a_change_keeps_the_settings_before_and_after_with_the_reason_and_no_change_writes_nothing():
    ewa = UserFactory(username="ewa")
    league = league_create(user=ewa, name="Liga Pucka")

    league_update(league=league, user=ewa, name="Pucka Liga Baśki", description="", reason="nowa nazwa")
    league_update(league=league, user=ewa, name="Pucka Liga Baśki")

    change = league.history.get(action=LeagueVersion.Action.CHANGE)
    assert (change.old, change.new, change.reason) == (
        {"name": "Liga Pucka"},
        {"name": "Pucka Liga Baśki"},
        "nowa nazwa",
    )
    assert League.objects.get().name == "Pucka Liga Baśki"


def test_organisers_come_and_go_each_change_logged_but_the_last_one_stays():
    ewa, jan = UserFactory(username="ewa"), UserFactory(username="jan")
    league = league_create(user=ewa, name="Liga Pucka")

    assert league_organiser_add(league=league, organiser=jan, user=ewa)
    assert not league_organiser_add(league=league, organiser=jan, user=ewa)
    assert league_organiser_remove(league=league, organiser=ewa, user=jan)
    with pytest.raises(ValidationError, match="A league needs an organiser"):
        league_organiser_remove(league=league, organiser=jan, user=jan)

    assert list(league.organisers.all()) == [jan]
    actions = list(league.history.order_by("pk").values_list("action", "user__username"))
    assert actions == [("create", "ewa"), ("add", "ewa"), ("remove", "jan")]


@pytest.mark.parametrize(
    ("make", "slug"),
    [
        (
            lambda user: tournament_create(
                user=user, name="Złoty Turniej Mikołajkowy", ruleset_preset="puck", date="2026-12-05"
            ),
            "zloty-turniej-mikolajkowy",
        ),
        (lambda user: season_create(user=user, name="Łebska Liga Baśki", year=2027), "lebska-liga-baski-2027"),
    ],
)
def test_tournament_and_season_addresses_keep_the_polish_letters_as_their_base_letters(make, slug):
    assert make(UserFactory()).slug == slug
