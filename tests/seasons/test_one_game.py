"""A season adds up one game: Baśka's small points and Preferans' settled whists do not add."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from league.seasons.services import season_tournament_attach
from tests.factories import PreferansTournamentFactory, SeasonFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="organizator")


def mine(organiser, factory, **fields):
    tournament = factory(**fields)
    tournament.organisers.add(organiser)
    return tournament


def test_a_preferans_tournament_cannot_join_a_season_of_baska_tournaments(organiser):
    season = SeasonFactory(name="Liga Baśki")
    mine(organiser, TournamentFactory, season=season)
    preferans = mine(organiser, PreferansTournamentFactory)

    with translation.override("pl"):
        with pytest.raises(ValidationError) as error:
            season_tournament_attach(season=season, tournament=preferans, user=organiser)
        assert "innej gry" in error.value.messages[0]

    preferans.refresh_from_db()
    assert preferans.season is None and season.history.filter(action="attach").count() == 0


def test_preferans_tournaments_make_a_season_of_their_own(organiser):
    season = SeasonFactory(name="Liga Preferansa")
    first, second = mine(organiser, PreferansTournamentFactory), mine(organiser, PreferansTournamentFactory)

    assert season_tournament_attach(season=season, tournament=first, user=organiser)
    assert season_tournament_attach(season=season, tournament=second, user=organiser)

    assert set(season.tournaments.all()) == {first, second}


def test_the_season_screen_says_why_the_tournament_was_not_added(client, organiser):
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    season = SeasonFactory(name="Liga Baśki", slug="liga-baski")
    season.organisers.add(organiser)
    mine(organiser, TournamentFactory, season=season)
    preferans = mine(organiser, PreferansTournamentFactory)
    client.force_login(organiser)

    response = client.post(
        reverse("seasons:attach", args=[season.slug]),
        {"tournament": preferans.pk},
        HTTP_ACCEPT_LANGUAGE="pl",
        follow=True,
    )

    assert "innej gry" in response.content.decode()
    preferans.refresh_from_db()
    assert preferans.season is None


def test_a_tournament_form_cannot_move_a_tournament_into_a_season_of_the_other_game(organiser):
    season = SeasonFactory()
    mine(organiser, PreferansTournamentFactory, season=season)
    baska = mine(organiser, TournamentFactory)
    baska.season = season

    with pytest.raises(ValidationError) as error:
        baska.full_clean()

    assert "season" in error.value.message_dict
