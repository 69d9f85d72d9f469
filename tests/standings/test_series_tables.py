"""A series as the public pages show it: the tables in seat order and the byes
with the compensation the standings count."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.standings.cache import tournament_rankings
from league.standings.selectors import series_byes
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, game_settings_set, played_series

pytestmark = pytest.mark.django_db


def test_a_bye_shows_the_compensation_of_the_tournaments_ruleset_as_the_standings_count_it(client):
    tournament = TournamentFactory(ruleset_preset="puck", draw_published=True)
    people = [PlayerFactory() for _ in range(5)]
    for player in people:
        RegistrationFactory(tournament=tournament, player=player)
    series = played_series(tournament, 1, [list(zip(people[:4], (30, 10, -10, -30), strict=True))], byes=people[4:])
    # the organiser changes the rules after the draw: gorzów gives a lone bye 3 big points, no small points
    game_settings_set(tournament, ruleset_preset="gorzow")
    tournament.save()

    [bye] = series_byes(series)

    assert (bye.big_points, bye.small_points) == (3, 0)
    counted = next(e for e in tournament_rankings(tournament)["individual"] if e["pk"] == people[4].pk)
    assert (counted["big_points"], counted["small_points"]) == (bye.big_points, bye.small_points)
    page = client.get(reverse("public:series", args=[tournament.slug, 1])).content.decode()
    assert "3 big points, 0 small points" in page


def test_a_series_without_byes_has_none():
    tournament = TournamentFactory()
    people = [PlayerFactory() for _ in range(4)]
    for player in people:
        RegistrationFactory(tournament=tournament, player=player)

    assert series_byes(played_series(tournament, 1, [list(zip(people, (1, 1, -1, -1), strict=True))])) == []
