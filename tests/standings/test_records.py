"""The records (rekordy): who won the most tournaments, the best series ever, who won each contract
the game keeps a record of most often, who played the most; ties in Polish alphabetical order; only
published tournaments' closed series with published results count; built once per stamp."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from league.models import Series, Tournament
from league.results.models import Protocol
from league.standings.models import PlayerResult
from league.standings.records import records
from league.standings.refresh import standings_touch
from league.standings.summaries import player_results_rebuild
from tests.factories import (
    LeagueFactory,
    PlayerFactory,
    PreferansTournamentFactory,
    RegistrationFactory,
    TournamentFactory,
    played_series,
)

pytestmark = pytest.mark.django_db


def people(*names: str) -> list:
    return [PlayerFactory(first_name=first, last_name=last) for first, last in (n.split() for n in names)]


def tournament_of(players, points_per_series, **fields):
    """A tournament of one table: each series a deal of ``points`` by seat A–D, closed and published."""
    tournament = TournamentFactory(series_count=len(points_per_series), draw_published=True, **fields)
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    for number, points in enumerate(points_per_series, start=1):
        series = played_series(tournament, number, [list(zip(players, points, strict=True))])
        Series.objects.filter(pk=series.pk).update(results_published=True)
    return tournament


def zolo(tournament, number: int, seat: str, *, won: bool = True, row: int = 50) -> None:
    """A zolo played by ``seat`` at table 1 of series ``number``: won, or lost."""
    protocol = tournament.series.get(number=number).protocols.get(table=1)
    value = 30 if won else -30
    values = {s: (value if s == seat else -value // 3) for s in "ABCD"}
    protocol.rows.create(
        number=row,
        deal={"contract": "zolo", "old": [seat], "old_eyes": 80 if won else 40},
        **{f"value_{s.lower()}": v for s, v in values.items()},
    )
    Protocol.objects.filter(pk=protocol.pk).update(version=F("version") + 1)  # as every saved row does
    standings_touch(tournament_id=tournament.pk)  # as a correction of a closed series does


def record(key: str, league=None, game: str = "baska") -> list[tuple[str, str, int]]:
    """The record ``key`` as the page lists it: place, name, figure."""
    lists = next(g for g in records(league=league) if g.game == game).lists
    found = next((r for r in lists if r.key == key), None)
    return [(line.place, line.name, line.figure) for line in found.lines] if found else []


def test_the_player_with_the_most_zolos_won_is_first():
    anna, jan, ewa, piotr = people("Anna Kąkol", "Jan Lis", "Ewa Łoś", "Piotr Mak")
    tournament = tournament_of([anna, jan, ewa, piotr], [(30, 10, -10, -30), (20, 10, -10, -20)])
    zolo(tournament, 1, "B", row=50)  # Jan at B
    zolo(tournament, 1, "B", row=51)
    zolo(tournament, 2, "B", row=52)
    zolo(tournament, 1, "A", row=53)  # Anna wins one
    zolo(tournament, 2, "C", won=False, row=54)  # Ewa loses hers: no zolo won

    assert record("contract:zolo") == [("1.", "Jan Lis", 3), ("2.", "Anna Kąkol", 1)]


def test_each_record_links_the_table_where_it_was_made_for_a_count_the_latest():
    players = people("Anna Kąkol", "Jan Lis", "Ewa Łoś", "Piotr Mak")
    tournament = tournament_of(players, [(30, 10, -10, -30), (20, 10, -10, -20)])
    zolo(tournament, 1, "B", row=50)
    zolo(tournament, 2, "B", row=51)

    lists = {r.key: r for r in records()[0].lists}

    line = lists["contract:zolo"].lines[0]
    assert (line.tournament_slug, line.series, line.table) == (tournament.slug, 2, 1)
    best = lists["best"].lines[0]
    assert (best.name, best.figure, best.series, best.table) == ("Jan Lis", 40, 1, 1)  # 10 and his zolo's 30


def test_equal_figures_are_listed_in_polish_alphabetical_order():
    # one table, each series a deal apiece: everybody played as many deals
    players = people("Zenon Żak", "Łucja Łoś", "Jan Lis", "Ewa Zabrocka")
    tournament_of(players, [(10, 0, 0, -10)])

    assert [name for _, name, _ in record("deals")] == ["Jan Lis", "Łucja Łoś", "Ewa Zabrocka", "Zenon Żak"]
    assert {place for place, _, _ in record("deals")} == {"1–4."}


def test_most_tournaments_won_counts_the_first_of_every_finished_tournament():
    anna, jan, ewa, piotr = people("Anna Kąkol", "Jan Lis", "Ewa Łoś", "Piotr Mak")
    tournament_of([anna, jan, ewa, piotr], [(30, 10, -10, -30)], date=date(2026, 1, 10))
    tournament_of([jan, anna, ewa, piotr], [(30, 10, -10, -30)], date=date(2026, 2, 10))
    tournament_of([anna, jan, ewa, piotr], [(30, 10, -10, -30)], date=date(2026, 3, 10))
    # a tournament still going on (one series of two played) has no winner yet
    going_on = tournament_of([jan, anna, ewa, piotr], [(30, 10, -10, -30)], date=date(2026, 4, 10))
    Tournament.objects.filter(pk=going_on.pk).update(series_count=2)

    assert record("wins") == [("1.", "Anna Kąkol", 2), ("2.", "Jan Lis", 1)]


def test_a_draft_an_open_series_and_unpublished_results_never_reach_the_records():
    anna, jan, ewa, piotr = people("Anna Kąkol", "Jan Lis", "Ewa Łoś", "Piotr Mak")
    shown = tournament_of([anna, jan, ewa, piotr], [(30, 10, -10, -30), (20, 10, -10, -20)], name="Puchar Pucka")
    zolo(shown, 1, "B")
    draft = tournament_of([piotr, jan, ewa, anna], [(90, 10, -10, -90)], published=False, name="Szkic")
    zolo(draft, 1, "A", row=60)
    unpublished = tournament_of([ewa, jan, piotr, anna], [(80, 10, -10, -80)])
    Series.objects.filter(tournament=unpublished).update(results_published=False)
    zolo(unpublished, 1, "A", row=61)
    still_open = tournament_of([ewa, jan, piotr, anna], [(70, 10, -10, -70)])
    Series.objects.filter(tournament=still_open).update(status=Series.Status.IN_PLAY)

    assert record("contract:zolo") == [("1.", "Jan Lis", 1)]
    assert record("best")[0] == ("1.", "Jan Lis", 40)
    # two series of a deal each and the zolo, at one table: three deals apiece
    assert record("deals") == [("1–4.", name, 3) for name in ["Anna Kąkol", "Jan Lis", "Ewa Łoś", "Piotr Mak"]]
    assert record("wins") == [("1.", "Jan Lis", 1)]  # his zolo made him first of the Puchar Pucka
    names = {line.tournament_name for g in records() for r in g.lists for line in r.lines}
    assert names == {"Puchar Pucka"}


def test_a_leagues_records_count_its_own_tournaments_only():
    anna, jan, ewa, piotr = people("Anna Kąkol", "Jan Lis", "Ewa Łoś", "Piotr Mak")
    ours, theirs = LeagueFactory(), LeagueFactory()
    tournament_of([anna, jan, ewa, piotr], [(30, 10, -10, -30)], league=ours)
    tournament_of([jan, anna, ewa, piotr], [(50, 10, -10, -50)], league=theirs)

    assert record("wins", league=ours) == [("1.", "Anna Kąkol", 1)]
    assert record("wins", league=theirs) == [("1.", "Jan Lis", 1)]
    assert record("wins") == [("1–2.", "Anna Kąkol", 1), ("1–2.", "Jan Lis", 1)]


def test_a_record_list_holds_the_first_ten():
    players = people("Anna Kąkol", "Jan Lis", "Ewa Łoś", "Piotr Mak")
    tournament_of(players, [(40 - n, 20 - n, -20, -40 + 2 * n) for n in range(6)])  # twelve series won

    assert len(record("best")) == 10
    assert record("best")[0] == ("1.", "Anna Kąkol", 40)
    assert record("best")[-1] == ("10.", "Jan Lis", 17)  # six of Anna's, then Jan's 20 to 17


def test_preferans_keeps_its_own_records_the_pulkas_played_and_the_best_balance():
    anna, jan, ewa, piotr = people("Anna Kąkol", "Jan Lis", "Ewa Łoś", "Piotr Mak")
    tournament_of([anna, jan, ewa, piotr], [(30, 10, -10, -30)])
    evening = PreferansTournamentFactory(series_count=1, draw_published=True)
    for player in (anna, jan, ewa, piotr):
        RegistrationFactory(tournament=evening, player=player)
    series = played_series(evening, 1, [[(ewa, 12), (jan, 4), (anna, -6), (piotr, -10)]])
    Series.objects.filter(pk=series.pk).update(results_published=True)
    protocol = series.protocols.get(table=1)
    protocol.rows.create(  # Ewa makes her six
        number=2, deal={"contract": "6S", "declarer": "A", "tricks": 6}, value_a=0, value_b=0, value_c=0, value_d=0
    )

    games = {g.game: g for g in records()}
    assert set(games) == {"baska", "preferans"}
    assert {r.key for r in games["preferans"].lists} >= {"best", "series", "contract:made"}
    assert record("best", game="preferans")[0] == ("1.", "Ewa Łoś", 12)
    assert record("contract:made", game="preferans") == [("1.", "Ewa Łoś", 1)]
    assert [name for _, name, _ in record("series", game="preferans")][0] == "Anna Kąkol"
    # Baśka's best series is not compared with a pulka's balance
    assert record("best")[0] == ("1.", "Anna Kąkol", 30)


def test_the_records_are_built_once_per_stamp_and_again_after_a_change():
    players = people("Anna Kąkol", "Jan Lis", "Ewa Łoś", "Piotr Mak")
    tournament = tournament_of(players, [(30, 10, -10, -30), (20, 10, -10, -20)])
    records()

    with CaptureQueriesContext(connection) as queries:
        records()
    assert len(queries) == 1  # the stamps; the lists come from the cache

    zolo(tournament, 2, "D")  # a correction moves the stamp

    assert record("contract:zolo") == [("1.", "Piotr Mak", 1)]


def test_the_records_from_the_kept_rows_equal_those_read_from_the_deals_afresh():
    """Issue 40: the records re-read every deal of the history although the players' kept rows
    hold the same figures; read from the rows, they must say exactly what the deals say."""
    anna, jan, ewa, piotr = people("Anna Kąkol", "Jan Lis", "Ewa Łoś", "Piotr Mak")
    first = tournament_of([anna, jan, ewa, piotr], [(30, 10, -10, -30), (5, 5, -5, -5)], date=date(2026, 1, 10))
    second = tournament_of([jan, anna, ewa, piotr], [(40, 10, -10, -40)], date=date(2026, 2, 10))
    zolo(first, 1, "B")
    zolo(first, 2, "B")
    zolo(second, 1, "A")
    player_results_rebuild()  # as the recompute task leaves them after each change
    assert PlayerResult.objects.filter(tournament=first).exists()
    from_rows = records()

    PlayerResult.objects.all().delete()  # nothing kept: every tournament read from its deals
    cache.clear()

    assert records() == from_rows
    assert record("contract:zolo") == [("1.", "Jan Lis", 3)]  # B of the first twice, A of the second


@pytest.mark.parametrize("tournaments", [2, 8])
def test_a_records_build_takes_the_same_queries_for_a_short_and_a_long_history(
    tournaments, django_assert_max_num_queries
):
    players = people("Anna Kąkol", "Jan Lis", "Ewa Łoś", "Piotr Mak")
    for n in range(tournaments):
        tournament_of(players, [(30, 10, -10, -30)], date=date(2026, 1, 1 + n))
    player_results_rebuild()
    cache.clear()
    with django_assert_max_num_queries(6):  # stamps, tournaments, their series, the rows, the names
        assert len(record("deals")) == 4
