"""The draw of a Preferans tournament at tables of three: seats A–C, protocols that take pulka entries."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from league.games.preferans.pulka import protocol_seats
from league.models import DrawLog
from league.results import services
from league.tournaments import draws
from league.tournaments.services import series_ensure
from tests.factories import PreferansTournamentFactory, RegistrationFactory, UserFactory

pytestmark = pytest.mark.django_db

# The draw page's budget of tests/tournaments/test_query_budgets.py: counting who plays next fits in it.
DRAW_PAGE_BUDGET = 14
MADE_BY_B = {"contract": "7H", "declarer": "B", "tricks": 7, "whisters": [{"player": "C", "tricks": 3}]}


def tables_of_three(players: int, **fields):
    """A Preferans tournament at tables of three with its series and ``players`` present players."""
    tournament = PreferansTournamentFactory(table_size=3, **fields)
    series_ensure(tournament=tournament)
    RegistrationFactory.create_batch(players, tournament=tournament)
    return tournament


def seats_by_table(series) -> dict[int, list[str]]:
    tables: dict[int, list[str]] = {}
    for table, seat in series.assignments.order_by("table", "seat").values_list("table", "seat"):
        tables.setdefault(table, []).append(seat)
    return tables


def test_thirteen_players_sit_at_four_tables_of_three_with_one_bye():
    tournament = tables_of_three(13)
    draws.series_draw(tournament=tournament, numbers=[1], seed=123456)

    series = tournament.series.get(number=1)
    assert seats_by_table(series) == {table: ["A", "B", "C"] for table in (1, 2, 3, 4)}
    assert series.byes.count() == 1
    assert sorted(series.protocols.values_list("table", flat=True)) == [1, 2, 3, 4]
    seated = set(series.assignments.values_list("player_id", flat=True))
    assert len(seated) == 12 and series.byes.get().player_id not in seated


def test_a_drawn_table_of_three_takes_a_pulka_entry_by_its_seats():
    tournament = tables_of_three(13)
    referee = UserFactory()
    tournament.referees.add(referee)
    [series] = draws.series_draw(tournament=tournament, numbers=[1], seed=7)
    protocol = series.protocols.get(table=1)
    assert protocol_seats(protocol) == ("A", "B", "C")

    protocol = services.protocol_row_save(
        protocol=protocol, number=1, deal=MADE_BY_B, expected_version=protocol.version, user=referee
    )
    row = protocol.rows.get()
    assert row.value_d == 0
    assert row.value_a + row.value_b + row.value_c == 0
    assert row.value_b > 0  # the declarer made his seven


def test_every_series_at_tables_of_three_keeps_one_bye_per_player():
    tournament = tables_of_three(13, series_count=4)
    draws.series_draw(tournament=tournament, numbers="all", seed=99)
    byes = [bye for series in tournament.series.all() for bye in series.byes.values_list("player_id", flat=True)]
    assert len(byes) == 4 == len(set(byes))


def test_a_swap_at_tables_of_three_trades_a_seat_for_the_bye_and_keeps_seats_a_to_c():
    tournament = tables_of_three(13)
    [series] = draws.series_draw(tournament=tournament, numbers=[1], seed=5)
    seated = series.assignments.get(table=2, seat="C").player
    resting = series.byes.get().player
    draws.series_swap(series=series, player_a=seated, player_b=resting, reason="late bus")

    assert series.assignments.get(table=2, seat="C").player == resting
    assert series.byes.get().player == seated
    assert seats_by_table(series) == {table: ["A", "B", "C"] for table in (1, 2, 3, 4)}
    assert DrawLog.objects.filter(series=series, action=DrawLog.Action.SWAP).exists()


def test_two_present_players_are_too_few_for_a_table_of_three():
    tournament = tables_of_three(2)
    with translation.override("pl"):
        with pytest.raises(ValidationError) as error:
            draws.series_draw(tournament=tournament, numbers=[1], seed=1)
        assert error.value.messages == ["Do losowania potrzeba co najmniej 3 obecnych zawodników; obecnych jest 2."]


@pytest.mark.parametrize(
    ("language", "before", "after"),
    [
        ("en", "13 players: 4 tables of 3, 1 bye", "13 players: 4 tables of 3, 1 bye"),
        ("pl", "13 zawodników: 4 stoliki po 3, 1 wolny los", "13 zawodników: 4 stoliki po 3, 1 wolny los"),
    ],
)
def test_the_draw_page_says_how_the_players_sit_before_and_after_the_draw(
    client, language, before, after, django_assert_max_num_queries
):
    organiser = UserFactory()
    tournament = tables_of_three(13, series_count=2)
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    url = reverse("tournaments:draw", args=[tournament.slug])

    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert before in page
    draws.series_draw(tournament=tournament, numbers=[1], seed=3)
    with django_assert_max_num_queries(DRAW_PAGE_BUDGET):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert page.count(after) == 2  # series 1 as drawn, series 2 to draw
    assert 'rowspan="3"' in page


def test_the_draw_page_of_tables_of_four_counts_by_four(client):
    organiser = UserFactory()
    tournament = PreferansTournamentFactory(table_size=4)
    series_ensure(tournament=tournament)
    RegistrationFactory.create_batch(12, tournament=tournament)
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:draw", args=[tournament.slug])).content.decode()
    assert "12 players: 3 tables of 4, no byes" in page
