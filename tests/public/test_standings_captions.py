"""Every ranking on the public standings page says what it counts: the series so far of the
tournament's series, how a team's result is made, and what ranks first."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league.models import TeamRanking
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db


def captions(client, tournament) -> dict[str, str]:
    """The caption under each list's title, by the list's key."""
    page = client.get(reverse("public:standings", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    found = re.findall(
        r'<section class="card" id="(\w+)">\s*<h2>[^<]*</h2>\s*<p class="muted counts">(.*?)</p>', page, re.S
    )
    return {key: " ".join(text.split()) for key, text in found}


def test_each_list_counts_the_series_so_far_of_the_tournaments_series(client):
    tournament = league_tournament(tables=2, series=3, series_count=5)

    shown = captions(client, tournament)

    assert shown["individual"] == "po 3 z 5 serii · duże punkty, potem małe"
    assert shown["women"].startswith("po 3 z 5 serii")


@pytest.mark.parametrize(
    ("ranking", "best", "says"),
    [
        (TeamRanking.BEST, 3, "liczą się 3 najlepsze wyniki każdej drużyny"),
        (TeamRanking.BEST, 1, "liczy się 1 najlepszy wynik każdej drużyny"),
        (TeamRanking.BEST, 5, "liczy się 5 najlepszych wyników każdej drużyny"),
        (TeamRanking.SUM, 3, "suma wszystkich zawodników drużyny"),
    ],
)
def test_the_team_list_says_how_a_teams_result_is_made(client, ranking, best, says):
    tournament = league_tournament(tables=2, series=1, series_count=4, team_ranking=ranking, team_best_of=best)

    assert captions(client, tournament)["teams"] == f"po 1 z 4 serii · {says} · duże punkty, potem małe"


def test_without_big_points_the_lists_say_they_rank_by_small_points(client):
    tournament = league_tournament(tables=1, series=1, uses_big_points=False)

    assert captions(client, tournament)["individual"].endswith("· małe punkty")


def test_the_team_list_is_styled_like_the_individual_one(client):
    tournament = league_tournament(tables=2, series=1)
    page = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()

    sections = dict(re.findall(r'<section class="card" id="(\w+)">(.*?)</section>', page, re.S))
    table_class = re.compile(r'<table class="([^"]+)"')
    assert table_class.search(sections["teams"])[1] == table_class.search(sections["individual"])[1] == "data standings"
