"""A season table shows only what its tournaments publish: a tournament whose
individual (or team) list the organiser keeps unpublished adds nothing to the
season's individual (or team) table, on the season page and the player's page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Season, Tournament
from league.standings.cache import season_rankings, stamps
from league.tournaments.services import tournament_update
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TeamFactory,
    TournamentFactory,
    played_series,
)

pytestmark = pytest.mark.django_db


def team_tournament(season: Season, name: str, **fields) -> Tournament:
    """A puck tournament of the season with one closed series, played by the team
    "Drużyna ``name``" of the players ``name``1 to ``name``4."""
    tournament = TournamentFactory(season=season, **fields)
    members = [PlayerFactory(last_name=f"{name}{seat}") for seat in range(1, 5)]
    team = TeamFactory(name=f"Drużyna {name}", members=members)
    for player in members:
        RegistrationFactory(tournament=tournament, player=player, team=team)
    played_series(tournament, 1, [list(zip(members, (30, 10, -10, -30), strict=True))])
    return tournament


def season_with(**hidden_fields) -> Season:
    """A season of two tournaments: "Jawny" publishing every list, "Ukryty" with ``hidden_fields``."""
    season = SeasonFactory()
    team_tournament(season, "Jawny")
    team_tournament(season, "Ukryty", **hidden_fields)
    return season


def names(rows: list[dict]) -> set[str]:
    return {row["name"].split()[-1] for row in rows}


def season_page(client, season: Season) -> str:
    return client.get(reverse("public:season", args=[season.slug])).content.decode()


def test_a_tournament_with_its_individual_list_unpublished_adds_no_one_to_the_season_table(client):
    season = season_with(publish_individual=False)

    page = season_page(client, season)

    assert "Jawny1" in page and "Ukryty1" not in page
    assert names(season_rankings(season)["individual"]) == {"Jawny1", "Jawny2", "Jawny3", "Jawny4"}


def test_a_tournament_with_its_team_list_unpublished_adds_no_team_to_the_season_table(client):
    season = season_with(publish_teams=False)

    rankings = season_rankings(season)

    assert [row["name"] for row in rankings["teams"]] == ["Drużyna Jawny"]
    # its individual list is published, so its players still count
    assert "Ukryty1" in names(rankings["individual"])
    assert "Ukryty1" in season_page(client, season)


def test_publishing_the_list_later_brings_the_tournament_into_the_season_table(client):
    season = season_with(publish_individual=False)
    assert "Ukryty1" not in season_page(client, season)

    tournament_update(
        tournament=Tournament.objects.get(season=season, publish_individual=False), publish_individual=True
    )

    assert "Ukryty1" in season_page(client, season)


def test_the_players_page_shows_no_season_place_from_an_unpublished_list(client):
    season = season_with(publish_individual=False)
    player = Tournament.objects.get(season=season, publish_individual=False).registrations.first().player

    page = client.get(reverse("public:player", args=[player.pk]))

    assert [row["entry"] for row in page.context["seasons"]] == [None]


def test_a_list_published_by_the_organiser_gives_the_tournament_a_new_stamp():
    tournament = TournamentFactory(publish_individual=False)
    before = stamps(Tournament.objects.filter(pk=tournament.pk))
    tournament_update(tournament=tournament, publish_individual=True)
    assert stamps(Tournament.objects.filter(pk=tournament.pk)) != before
