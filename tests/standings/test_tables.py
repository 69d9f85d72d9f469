"""A table's result (wynik stolika), read once for the standings and every page: places and big
points by ``scoring``, printed as the standings print places, and one rule for a table with an
empty seat (docs/rules.md §6): it counts for the players seated at it."""

from __future__ import annotations

import pytest
from django.urls import reverse

import scoring
from league.models import Series, TableAssignment
from league.standings.compute import points, tournament_standings
from league.standings.selectors import series_table_seats
from league.standings.tables import SeatResult, table_places, table_totals
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, played_series
from tests.public.test_player_page import rows_of

pytestmark = pytest.mark.django_db


def test_places_and_big_points_at_a_table_come_from_scoring_with_the_standings_labels():
    small = {"A": 20, "B": 20, "C": -5, "D": -35}

    places = table_places(small, scoring.load_ruleset("puck"))

    # puck: 5 / 3 / 1 / 0 and a bonus of 3 shared by the two above zero; the tied pair shares 1st–2nd
    assert places == {
        "A": SeatResult(20, 5.5, "1–2."),
        "B": SeatResult(20, 5.5, "1–2."),
        "C": SeatResult(-5, 1.0, "3."),
        "D": SeatResult(-35, 0.0, "4."),
    }


def evening():
    """Two tables of one series; then the player at 1D leaves the table's seat empty."""
    tournament = TournamentFactory(draw_published=True)
    people = [PlayerFactory() for _ in range(8)]
    for player in people:
        RegistrationFactory(tournament=tournament, player=player)
    series = played_series(
        tournament,
        1,
        [list(zip(people[:4], (30, 10, -10, -30), strict=True)), list(zip(people[4:], (5, 5, -5, -5), strict=True))],
    )
    return tournament, series, people


def test_the_tables_are_read_with_their_seats_and_small_points_in_two_queries(django_assert_num_queries):
    _, series, people = evening()

    with django_assert_num_queries(2):
        tables = table_totals(series=Series.objects.filter(pk=series.pk))

    assert [(t.series_number, t.table, t.small_points) for t in tables] == [
        (1, 1, {"A": 30, "B": 10, "C": -10, "D": -30}),
        (1, 2, {"A": 5, "B": 5, "C": -5, "D": -5}),
    ]
    assert [a.player for a in tables[1].seats.values()] == people[4:]
    [mine] = table_totals(series=Series.objects.filter(pk=series.pk), player=people[5])
    assert mine.table == 2


def test_a_table_with_an_empty_seat_counts_for_the_players_seated_there_on_every_page(client):
    tournament, series, people = evening()
    TableAssignment.objects.filter(series=series, table=1, seat="D").delete()

    standings = {e["pk"]: e for e in tournament_standings(tournament)["individual"]}
    [table, _] = series_table_seats(series, with_results=True)

    # the three seated are placed among themselves: puck 5, 3, 1 and the bonus of 3 for the two above zero
    assert [(s.seat, s.small_points, s.big_points, s.label) for s in table.seats] == [
        ("A", 30, 6.5, "1."),
        ("B", 10, 4.5, "2."),
        ("C", -10, 1, "3."),
    ]
    for seat in table.seats:
        assert (standings[seat.player_id]["small_points"], standings[seat.player_id]["big_points"]) == (
            seat.small_points,
            points(seat.big_points),
        )
    assert people[3].pk not in standings
    page = client.get(reverse("public:player", args=[people[1].pk])).content.decode()
    a, c = people[0].full_name, people[2].full_name
    assert rows_of(page) == [f"1 table 1, B against {a} , {c} +10 2. 4.5"]
