"""A draft tournament stays off every public list, not only its own pages: the API, seasons,
player and team histories."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Tournament
from tests.factories import LeagueFactory
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft():
    tournament = league_tournament(tables=1, series=1, name="Turniej w przygotowaniu")
    Tournament.objects.filter(pk=tournament.pk).update(published=False)
    return tournament


def test_the_api_has_no_standings_of_a_draft(client, draft):
    assert client.get(reverse("public:api_standings", args=[draft.slug])).status_code == 404


def test_the_season_page_neither_lists_nor_counts_a_draft(client, draft):
    player = draft.registrations.first().player
    page = client.get(reverse("public:season", args=[draft.season.slug])).content.decode()
    assert draft.name not in page and player.last_name not in page


def test_player_and_team_pages_leave_a_draft_out(client, draft):
    registration = draft.registrations.select_related("player", "team").first()
    for url in (
        reverse("public:player", args=[registration.player_id]),
        reverse("public:team", args=[registration.team_id]),
    ):
        assert draft.name not in client.get(url).content.decode(), url


def test_a_drafts_deals_and_opponents_reach_no_players_statistics(client, draft):
    registration = draft.registrations.select_related("player").first()

    page = client.get(reverse("public:player", args=[registration.player_id])).content.decode()

    assert 'id="statistics"' not in page and 'id="rivals"' not in page
    Tournament.objects.filter(pk=draft.pk).update(published=True)  # the same player, once it is published
    page = client.get(reverse("public:player", args=[registration.player_id])).content.decode()
    assert 'id="statistics"' in page and 'id="rivals"' in page


def test_the_records_neither_list_nor_count_a_draft(client, draft):
    registration = draft.registrations.select_related("player").first()
    league = LeagueFactory()
    Tournament.objects.filter(pk=draft.pk).update(league=league)

    for url in (reverse("public:records"), reverse("public:records_league", args=[league.slug])):
        page = client.get(url).content.decode()
        assert draft.name not in page and registration.player.last_name not in page, url
        assert 'id="no-records"' in page, url
    Tournament.objects.filter(pk=draft.pk).update(published=True)  # the same tournament, once it is published
    assert draft.name in client.get(reverse("public:records")).content.decode()


def test_the_records_count_no_series_whose_results_are_not_published(client, draft):
    Tournament.objects.filter(pk=draft.pk).update(published=True)
    draft.series.update(results_published=False)

    page = client.get(reverse("public:records")).content.decode()

    assert draft.name not in page and 'id="no-records"' in page
