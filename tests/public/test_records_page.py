"""The records page (rekordy) of the installation and of one league: every list with its first ten,
each player linked to their page and each figure to the table behind it; linked from the menu, the
league's page and the player's page; a visit costs the same few queries however long the history."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league.models import Series
from league.standings.summaries import player_results_rebuild
from tests.factories import LeagueFactory, PlayerFactory, RegistrationFactory, TournamentFactory, played_series

pytestmark = pytest.mark.django_db


def evening(league=None, *, name: str = "Puchar Pucka", **fields):
    """Anna Kąkol, Jan Lis, Ewa Łoś and Piotr Mak at one table for two closed, published series;
    Jan wins a zolo in series 2."""
    players = [
        PlayerFactory(first_name=first, last_name=last)
        for first, last in [("Anna", "Kąkol"), ("Jan", "Lis"), ("Ewa", "Łoś"), ("Piotr", "Mak")]
    ]
    tournament = TournamentFactory(name=name, league=league, series_count=2, draw_published=True, **fields)
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    for number, points in ((1, (30, 10, -10, -30)), (2, (20, 10, -10, -20))):
        played_series(tournament, number, [list(zip(players, points, strict=True))])
    Series.objects.filter(tournament=tournament).update(results_published=True)
    tournament.series.get(number=2).protocols.get(table=1).rows.create(
        number=2, deal={"contract": "zolo", "old": ["B"], "old_eyes": 80},
        value_a=-10, value_b=30, value_c=-10, value_d=-10,
    )  # fmt: skip
    return tournament, players


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def card(page: str, ident: str) -> str:
    """The text of one record's card (``record-<game>-<key>``)."""
    return text_of(page.split(f'id="record-baska-{ident}">')[1].split("</section>")[0])


def test_each_record_lists_its_players_with_the_figure_and_a_link_to_the_table(client):
    tournament, (anna, jan, _, _) = evening()

    page = client.get(reverse("public:records")).content.decode()

    assert card(page, "contract-zolo") == (
        "Most zolos won place player Number 1. Jan Lis latest: Puchar Pucka, series 2, table 1 1"
    )
    assert "1. Jan Lis Puchar Pucka, series 2, table 1 +40" in card(page, "best")  # 10 and the zolo's 30 in series 2
    assert "−" not in card(page, "best")  # a series lost is nobody's record
    assert "1. Jan Lis latest: Puchar Pucka 1" in card(page, "wins")  # first on small points, with his zolo
    assert "1–4. Anna Kąkol latest: Puchar Pucka, series 2, table 1 3" in card(page, "deals")
    assert f'href="{reverse("public:player", args=[jan.pk])}"' in page
    assert f'href="{reverse("public:table", args=[tournament.slug, 2, 1])}"' in page
    assert f'href="{reverse("public:standings", args=[tournament.slug])}"' in page


def test_a_leagues_records_leave_other_leagues_out_and_the_installation_names_every_league(client):
    ours, theirs = LeagueFactory(name="Liga Kaszubska"), LeagueFactory(name="Liga Gdańska")
    evening(ours, name="Puchar Pucka")
    evening(theirs, name="Puchar Gdańska")

    page = client.get(reverse("public:records_league", args=[ours.slug])).content.decode()
    everything = client.get(reverse("public:records")).content.decode()

    assert "Records of Liga Kaszubska" in page and "Puchar Pucka" in page and "Puchar Gdańska" not in page
    assert "Puchar Pucka" in everything and "Puchar Gdańska" in everything
    # the leagues in Polish alphabetical order, each a link to its own records
    assert everything.index("Liga Gdańska") < everything.index("Liga Kaszubska")
    assert reverse("public:records_league", args=[theirs.slug]) in everything


def test_a_league_that_does_not_exist_has_no_records_page(client):
    assert client.get(reverse("public:records_league", args=["nie-ma-takiej"])).status_code == 404


def test_a_draft_tournament_and_unpublished_results_stay_off_the_records_page(client):
    evening(name="Puchar Pucka")
    evening(name="Turniej w przygotowaniu", published=False)
    hidden, _ = evening(name="Wyniki niepublikowane")
    Series.objects.filter(tournament=hidden).update(results_published=False)

    page = client.get(reverse("public:records")).content.decode()

    assert "Puchar Pucka" in page
    assert "Turniej w przygotowaniu" not in page and "Wyniki niepublikowane" not in page


def test_before_any_series_is_published_the_page_says_so(client):
    page = client.get(reverse("public:records")).content.decode()

    assert 'id="no-records"' in page


def test_the_page_is_linked_from_the_menu_the_league_page_and_the_player_page(client):
    league = LeagueFactory()
    _, (anna, *_) = evening(league)

    home = client.get(reverse("home")).content.decode()
    league_page = client.get(reverse("leagues:page", args=[league.slug])).content.decode()
    player_page = client.get(reverse("public:player", args=[anna.pk])).content.decode()

    assert f'href="{reverse("public:records")}"' in home
    assert f'href="{reverse("public:records_league", args=[league.slug])}"' in league_page
    assert f'href="{reverse("public:records")}"' in player_page


@pytest.mark.parametrize("tournaments", [1, 6])
def test_a_visit_costs_the_same_few_queries_however_long_the_history(
    client, tournaments, django_assert_max_num_queries
):
    league = LeagueFactory()
    for number in range(tournaments):
        evening(league, name=f"Turniej {number}")
    client.get(reverse("public:records_league", args=[league.slug]))  # the first visitor builds the lists

    # the league, the stamps of its tournaments; the lists come from the cache
    with django_assert_max_num_queries(2):
        assert client.get(reverse("public:records_league", args=[league.slug])).status_code == 200
    # the installation's page: the stamps and the leagues
    client.get(reverse("public:records"))
    with django_assert_max_num_queries(2):
        assert client.get(reverse("public:records")).status_code == 200


def test_building_the_lists_takes_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    league = LeagueFactory()
    for number in range(5):
        evening(league, name=f"Turniej {number}")

    player_results_rebuild()  # the players' rows, as the recompute task leaves them after each change
    # the league, the stamps, the tournaments, their series, the players' rows, the names: never the deals
    with django_assert_max_num_queries(7):
        client.get(reverse("public:records_league", args=[league.slug]))
