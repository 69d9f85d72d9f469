"""A season and its tournaments belong to one league, or to none (issue 41): on a tournament of
league Łódź the settings offered and saved a Kaszuby season, the Kaszuby season's "Dodaj turniej"
attached a Łódź tournament, and the public Kaszuby table gained a Łódź column."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.models import Season
from league.seasons import services
from tests.factories import LeagueFactory, SeasonFactory, TournamentFactory, UserFactory, tournament_form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    """An organiser of two leagues, Kaszuby and Łódź, each with a season and a tournament."""
    user = UserFactory(username="dwie-ligi")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    return user


@pytest.fixture
def leagues(organiser):
    kaszuby = LeagueFactory(name="Liga Baśki Kaszuby", slug="kaszuby")
    lodz = LeagueFactory(name="Liga Łódzka", slug="lodz")
    for league in (kaszuby, lodz):
        league.organisers.add(organiser)
    return kaszuby, lodz


def test_a_leagues_season_offers_and_attaches_only_its_own_leagues_tournaments(client, leagues):
    kaszuby, lodz = leagues
    season = SeasonFactory(name="Sezon Kaszubski", league=kaszuby)
    own = TournamentFactory(name="Puchar Pucka", league=kaszuby)
    foreign = TournamentFactory(name="Puchar Łodzi", league=lodz)

    page = client.get(reverse("seasons:edit", args=[season.slug])).content.decode()
    assert "Puchar Pucka" in page and "Puchar Łodzi" not in page

    client.post(reverse("seasons:attach", args=[season.slug]), {"tournament": foreign.pk})
    foreign.refresh_from_db()
    assert foreign.season is None
    client.post(reverse("seasons:attach", args=[season.slug]), {"tournament": own.pk})
    own.refresh_from_db()
    assert own.season == season


def test_the_service_refuses_another_leagues_tournament_whoever_calls_it(organiser, leagues):
    kaszuby, lodz = leagues
    season = SeasonFactory(name="Sezon Kaszubski", league=kaszuby)
    foreign = TournamentFactory(name="Puchar Łodzi", league=lodz)
    foreign.organisers.add(organiser)
    with pytest.raises(ValidationError) as refused:
        services.season_tournament_attach(season=season, tournament=foreign, user=organiser)
    assert refused.value.code == "other_league"
    assert "Liga Łódzka" in refused.value.messages[0] and "Liga Baśki Kaszuby" in refused.value.messages[0]


def test_a_tournaments_settings_offer_and_save_only_a_season_of_its_league(client, leagues):
    kaszuby, lodz = leagues
    kaszuby_season = SeasonFactory(name="Sezon Kaszubski", league=kaszuby)
    lodz_season = SeasonFactory(name="Sezon Łódzki", league=lodz)
    tournament = TournamentFactory(name="Puchar Łodzi", league=lodz, slug="puchar-lodzi")
    url = reverse("tournaments:update", args=[tournament.slug])

    form = client.get(url).context["form"]
    assert list(form.fields["season"].queryset) == [lodz_season]

    data = tournament_form_data(name="Puchar Łodzi", league=lodz.pk, season=kaszuby_season.pk)
    response = client.post(url, data, headers={"accept-language": "pl"})
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.season is None


def test_a_new_tournament_is_refused_a_season_of_another_league_in_polish(client, leagues):
    kaszuby, lodz = leagues
    season = SeasonFactory(name="Sezon Kaszubski", league=kaszuby)
    data = tournament_form_data(name="Puchar Łodzi", league=lodz.pk, season=season.pk)
    response = client.post(reverse("tournaments:create"), data, headers={"accept-language": "pl"})
    assert response.status_code == 200
    assert "obejmuje tylko turnieje swojej ligi" in response.content.decode()


def test_a_season_moved_to_another_league_is_refused_while_it_holds_this_leagues_tournaments(organiser, leagues):
    kaszuby, lodz = leagues
    season = SeasonFactory(name="Sezon Kaszubski", league=kaszuby)
    season.organisers.add(organiser)
    TournamentFactory(name="Puchar Pucka", league=kaszuby, season=season)
    with pytest.raises(ValidationError) as refused:
        services.season_update(season=season, user=organiser, league=lodz)
    assert "league" in refused.value.message_dict
    assert Season.objects.get(pk=season.pk).league == kaszuby


def test_a_seasons_year_is_written_once_in_its_title_and_address(client, organiser):
    """ "Sezon Łódzki 2027" of the year 2027 was "sezon-lodzki-2027-2027" and "Sezon Łódzki 2027 2027"."""
    season = services.season_create(user=organiser, name="Sezon Łódzki 2027", year=2027)
    assert (season.slug, str(season)) == ("sezon-lodzki-2027", "Sezon Łódzki 2027")
    other = services.season_create(user=organiser, name="Liga Kaszub", year=2026)
    assert (other.slug, str(other)) == ("liga-kaszub-2026", "Liga Kaszub 2026")
