"""The rating's pages: the list per game with its filters and downloads, the player's rating on
their page, and a table's expected order on its page; each in a fixed number of queries."""

from __future__ import annotations

import io
from datetime import date, timedelta

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone

from league.public import page_store
from league.rating.compute import START
from tests.factories import LeagueFactory, PlayerFactory
from tests.rating.test_services import evening

pytestmark = pytest.mark.django_db

LIST_PAGE, PLAYER_RATING = 6, 10


def names(page) -> list[str]:
    """The names of the list's rows, in order."""
    html = page.content.decode()
    body = html[html.index('id="rating-list"') :]
    return [part.split("</a>")[0].split(">")[-1] for part in body.split('<a href="/zawodnik/')[1:]]


def test_the_list_ranks_by_rating_and_equal_ratings_in_polish_order(client):
    # tied at the table, the two in the middle come out equal: Ślusarz before Tomczak, as Polish sorts
    tomczak, slusarz = PlayerFactory(last_name="Tomczak"), PlayerFactory(last_name="Ślusarz")
    winner, loser = PlayerFactory(last_name="Zieliński"), PlayerFactory(last_name="Adamski")
    evening(date(2026, 3, 1), [winner, tomczak, slusarz, loser], [[30, 0, 0, -30]])

    page = client.get(reverse("rating:list"))

    assert page.status_code == 200
    assert [name.split()[-1] for name in names(page)] == ["Zieliński", "Ślusarz", "Tomczak", "Adamski"]
    html = page.content.decode()
    assert "provisional: fewer than 10 series" in html
    assert html.count('class="badge newcomer"') == 4
    assert f"{START}" in html


def test_the_filters_choose_the_league_the_active_and_women_or_men(client):
    league = LeagueFactory()
    anna, ewa = PlayerFactory(first_name="Anna", gender="F"), PlayerFactory(first_name="Ewa", gender="F")
    jan, piotr = PlayerFactory(first_name="Jan", gender="M"), PlayerFactory(first_name="Piotr", gender="M")
    long_ago = timezone.localdate() - timedelta(days=400)
    evening(long_ago, [anna, ewa, jan, piotr], [[30, 10, -10, -30]])
    evening(timezone.localdate(), [anna, jan, PlayerFactory(), PlayerFactory()], [[5, 0, 0, -5]], league=league)

    def shown(**query) -> set[str]:
        found = {name.split()[0] for name in names(client.get(reverse("rating:list"), query))}
        return found & {"Anna", "Ewa", "Jan", "Piotr"}

    assert shown(liga=league.slug) == {"Anna", "Jan"}
    assert shown(aktywni="1") == {"Anna", "Jan"}
    assert shown(plec="F") == {"Anna", "Ewa"}
    assert shown(plec="M", aktywni="1") == {"Jan"}
    assert client.get(reverse("rating:list"), {"liga": "nie-ma-takiej"}).status_code == 404
    assert client.get(reverse("rating:game", args=["szachy"])).status_code == 404
    # a malformed filter shows the whole list rather than an error
    assert client.get(reverse("rating:list"), {"plec": "X", "aktywni": "tak?"}).status_code == 200


def test_the_other_game_has_its_own_list(client):
    players = PlayerFactory.create_batch(3)
    evening(date(2026, 3, 1), PlayerFactory.create_batch(4), [[30, 10, -10, -30]])

    page = client.get(reverse("rating:game", args=["preferans"]))

    assert page.status_code == 200
    assert names(page) == [] and players
    assert "No rated player yet" in page.content.decode()


def test_the_downloads_carry_what_the_list_shows(client):
    four = PlayerFactory.create_batch(4)
    evening(date(2026, 3, 1), four, [[30, 10, -10, -30]])

    csv = client.get(reverse("rating:list"), {"_export": "csv"})
    xlsx = client.get(reverse("rating:list"), {"_export": "xlsx", "plec": four[0].gender})

    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert lines[1].split(";")[:2] == ["1", four[0].full_name]
    assert len(lines) == 5
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    assert sheet.cell(2, 2).value == four[0].full_name
    assert all(row[1].value in {p.full_name for p in four if p.gender == four[0].gender} for row in sheet.iter_rows(2))


@pytest.mark.parametrize("players", [4, 12])
def test_the_list_takes_the_same_queries_for_few_and_many_players(
    client, clock, players, django_assert_max_num_queries
):
    field = PlayerFactory.create_batch(players)
    for at in range(0, players, 4):
        evening(date(2026, 3, 1), field[at : at + 4], [[30, 10, -10, -30]])
    page_store.forget_all()

    with django_assert_max_num_queries(LIST_PAGE):
        page = client.get(reverse("rating:list"))
    assert len(names(page)) == players

    with django_assert_max_num_queries(0):  # a reload within the second: the page kept ready
        assert client.get(reverse("rating:list")).status_code == 200


def test_a_players_page_shows_the_rating_its_place_its_history_and_the_expected_places(
    client, django_assert_max_num_queries
):
    four = PlayerFactory.create_batch(4)
    evening(date(2026, 3, 1), four, [[30, 10, -10, -30], [30, 10, -10, -30]])
    evening(date(2026, 4, 1), four, [[-30, -10, 10, 30]])
    page_store.forget_all()

    with django_assert_max_num_queries(PLAYER_RATING):
        page = client.get(reverse("public:player", args=[four[0].pk]))

    html = page.content.decode()
    card = html[html.index('id="rating"') :]
    assert ". of 4</a>" in card
    assert 'id="rating-baska"' in card  # the chart of its history
    assert card.count('<tr><th scope="row"><a href="/t/') == 3  # three series, expected and taken
    assert "provisional" in card


def test_a_tables_page_shows_the_order_expected_before_the_series(client):
    four = PlayerFactory.create_batch(4)
    evening(date(2026, 3, 1), four, [[30, 10, -10, -30]])
    second = evening(date(2026, 4, 1), four, [[-30, -10, 10, 30]], draw_published=True)

    page = client.get(reverse("public:table", args=[second.slug, 1, 1]))

    html = page.content.decode()
    expected = html[html.index('id="expected-order"') :]
    order = [expected.index(player.full_name) for player in four]
    assert order == sorted(order)  # the winner of the first evening expected first
