"""The player page (issue 14): every tournament with its series one by one — table and seat,
opponents, small points, place at the table, big points, the referee's penalties — the totals,
the final place, and a chart of the place after each series; nothing a draft or an unpublished
series holds."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.urls import reverse

from league.models import Bye, Series
from league.results.models import Penalty
from league.standings.tasks import recompute_standings
from league.tournaments.services import series_results_publication_toggle
from players.models import Player
from tests.factories import PlayerFactory, RegistrationFactory, SeasonFactory, TournamentFactory, played_series

pytestmark = pytest.mark.django_db

PLACE_CHART = '<figure class="chart-figure" id="places-'  # a tournament's chart of places


def evening(**fields):
    """Anna's three series: 1st at table 1, 1st–2nd shared at table 1, then a bye."""
    tournament = TournamentFactory(name="Puchar Pucka", draw_published=True, **fields)
    anna = PlayerFactory(first_name="Anna", last_name="Kąkol")
    jan, ewa, piotr, ola = (
        PlayerFactory(first_name=first, last_name=last)
        for first, last in [("Jan", "Lis"), ("Ewa", "Łoś"), ("Piotr", "Mak"), ("Ola", "Nowak")]
    )
    for player in (anna, jan, ewa, piotr, ola):
        RegistrationFactory(tournament=tournament, player=player)
    played_series(tournament, 1, [[(anna, 30), (jan, 10), (ewa, -10), (piotr, -30)]], byes=[ola])
    played_series(tournament, 2, [[(jan, 20), (anna, 20), (ola, -5), (ewa, -35)]], byes=[piotr])
    played_series(tournament, 3, [[(jan, 15), (ewa, 5), (piotr, -5), (ola, -15)]], byes=[anna])
    return tournament, anna


def open_page(client, player) -> str:
    return client.get(reverse("public:player", args=[player.pk])).content.decode()


def rows_of(page: str, table: str = "series-rows") -> list[str]:
    """The rows of the page's table of ``table`` (its class) as text, one string each."""
    body = page.split(f'class="data {table}"')[1].split("<tbody>")[1].split("</tbody>")[0]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", "<tr" + row)).strip() for row in body.split("<tr")[1:]]


def test_each_series_shows_table_seat_opponents_points_and_place_at_the_table(client):
    tournament, anna = evening()

    page = open_page(client, anna)

    # big points: 5 for 1st and half the bonus of 3 (two above zero); 5.5 for a shared 1st–2nd; a bye's 4
    assert rows_of(page) == [
        "1 table 1, A against Jan Lis , Ewa Łoś , Piotr Mak +30 1. 6.5",
        "2 table 1, B against Jan Lis , Ola Nowak , Ewa Łoś +20 1–2. 5.5",
        "3 bye +40 4",
    ]
    assert reverse("public:table", args=[tournament.slug, 1, 1]) in page
    ola = Player.objects.get(last_name="Nowak")
    assert f'<a href="{reverse("public:player", args=[ola.pk])}">Ola Nowak</a>' in page


def test_big_points_are_printed_with_a_decimal_comma_in_polish(client):
    _, anna = evening()

    page = client.get(reverse("public:player", args=[anna.pk]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    assert "5,5" in page and "5.5" not in page


def test_the_totals_and_the_final_place_in_the_individual_ranking_close_the_tournament(client):
    _, anna = evening()

    page = open_page(client, anna)

    totals = page.split("<tfoot>")[1].split("</tfoot>")[0]
    assert "+90" in totals and "16" in totals  # 30 + 20 + 40 small, 6.5 + 5.5 + 4 big
    assert re.search(r'class="final-place">2\.<', page)  # Jan Lis has 16.5


def test_a_referees_penalty_shows_under_its_series_with_its_reason(client):
    tournament, anna = evening()
    Penalty.objects.create(
        series=Series.objects.get(tournament=tournament, number=2), player=anna, small_points=-10, reason="Spóźnienie"
    )

    page = open_page(client, anna)

    assert "Referee's penalty: −10 small points — Spóźnienie" in page
    assert "+80" in page.split("<tfoot>")[1]  # the total counts it


def test_the_chart_shows_the_place_after_each_series_with_first_place_on_top(client):
    _, anna = evening()

    page = open_page(client, anna)

    places = page.split(PLACE_CHART)[1]  # the rating's chart (league.rating) is another
    svg = places.split("<svg")[1].split("</svg>")[0]
    assert "<title" in svg and "<desc" in svg
    assert svg.count('class="line"') == 1
    assert "series 1: 1., series 2: 1., series 3: 2." in svg  # Jan overtakes her in series 3
    numbers = places.split('class="chart-data"')[1]
    assert re.findall(r'<td class="num">([^<]*)</td>', numbers) == ["1.", "1.", "2."]


def test_one_series_played_gives_rows_but_no_chart(client):
    tournament, anna = evening()
    Series.objects.filter(tournament=tournament, number__gt=1).delete()

    page = open_page(client, anna)

    assert len(rows_of(page)) == 1
    assert "<svg" not in page


def test_a_draft_tournaments_results_never_appear(client):
    tournament, anna = evening(published=False)

    page = open_page(client, anna)

    assert tournament.name not in page
    assert "series-rows" not in page and "<svg" not in page


def test_a_series_not_closed_or_held_back_does_not_appear(client):
    tournament, anna = evening()
    Series.objects.filter(tournament=tournament, number=2).update(results_published=False)
    Series.objects.filter(tournament=tournament, number=3).update(status=Series.Status.IN_PLAY)

    page = open_page(client, anna)

    assert [row.split()[0] for row in rows_of(page)] == ["1"]
    assert "+20" not in page and "+40" not in page
    assert "+30" in page.split("<tfoot>")[1]


def test_a_bye_in_a_series_nobody_has_played_yet_is_not_a_row(client):
    tournament, _ = evening()
    late = PlayerFactory()
    RegistrationFactory(tournament=tournament, player=late)
    held = Series.objects.create(tournament=tournament, number=4, status=Series.Status.CLOSED)
    Bye.objects.create(series=held, player=late)

    assert "series-rows" not in open_page(client, late)


def played_by(player, *, series: int = 3, **fields):
    """A tournament of two tables where ``player`` sits at table 1 in every series."""
    tournament = TournamentFactory(draw_published=True, **fields)
    others = PlayerFactory.create_batch(7)
    for other in (player, *others):
        RegistrationFactory(tournament=tournament, player=other)
    for number in range(1, series + 1):
        first = [player, *others[:3]]
        played_series(
            tournament,
            number,
            [list(zip(first, (30, 10, -10, -30), strict=True)), list(zip(others[3:], (5, 0, 0, -5), strict=True))],
        )
    return tournament


def test_seasons_say_how_many_of_the_players_tournaments_counted(client):
    season = SeasonFactory(best_of=1)
    player = PlayerFactory()
    played_by(player, season=season)
    played_by(player, season=season)

    page = open_page(client, player)

    assert "(1 counted)" in page


@pytest.mark.parametrize("count", [1, 4])
def test_the_page_takes_the_same_queries_for_one_and_many_tournaments(client, count, django_assert_max_num_queries):
    season = SeasonFactory()
    player = PlayerFactory()
    tournaments = [played_by(player, season=season) for _ in range(count)]
    for tournament in tournaments:
        recompute_standings(tournament.pk)  # as the recompute task leaves the standings after each change

    # the player, registrations, seasons' tournaments, stamps (twice), seats, totals, byes, penalties
    # (and one more for own rulesets, where a tournament has one)
    with django_assert_max_num_queries(9):
        page = open_page(client, player)

    assert page.count(PLACE_CHART) == count


def test_the_opponents_met_most_often_come_first_head_to_head(client):
    _, anna = evening()

    page = open_page(client, anna)

    # Jan and Ewa sat at Anna's table twice (Lis before Łoś, as Polish orders them), Piotr and Ola once
    assert rows_of(page, "rivals") == [
        "Jan Lis 2 +50 : +30",
        "Ewa Łoś 2 +50 : −45",
        "Piotr Mak 1 +30 : −30",
        "Ola Nowak 1 +20 : −5",
    ]
    assert "Small points (Anna : opponent)" in page


def test_the_head_to_head_of_a_draft_or_an_unpublished_series_is_not_shown(client):
    tournament, anna = evening()
    tournament.series.filter(number=2).update(results_published=False)

    page = open_page(client, anna)

    assert rows_of(page, "rivals") == ["Jan Lis 1 +30 : +10", "Ewa Łoś 1 +30 : −10", "Piotr Mak 1 +30 : −30"]
    tournament.published = False
    tournament.save()
    assert 'id="rivals"' not in open_page(client, anna)


def test_the_head_to_head_reads_in_polish(client):
    _, anna = evening()

    page = client.get(reverse("public:player", args=[anna.pk]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    assert "Najczęstsi rywale" in page and "Małe punkty (Anna : rywal)" in page and "Bezpośrednie pojedynki" in page


def test_the_deal_statistics_count_the_contracts_played_won_and_the_kontras(client):
    from league.results.models import DealRow

    tournament, anna = evening()
    protocol = DealRow.objects.filter(protocol__series__tournament=tournament, protocol__series__number=1).first()
    rows = protocol.protocol.rows
    seat = "A"  # Anna sits at A of table 1 in series 1 (see evening)
    rows.create(number=90, deal={"contract": "zolo", "old": [seat], "kontras": ["young"], "old_eyes": 70},
                value_a=30, value_b=-10, value_c=-10, value_d=-10)  # fmt: skip
    rows.create(number=91, deal={"contract": "zolo", "old": [seat], "old_eyes": 40},
                value_a=-30, value_b=10, value_c=10, value_d=10)  # fmt: skip
    rows.create(number=92, deal={"contract": "gran", "old": ["B"], "kontras": ["young", "old"], "old_eyes": 70},
                value_a=-10, value_b=30, value_c=-10, value_d=-10)  # fmt: skip

    page = open_page(client, anna)

    section = page.split('id="statistics"')[1].split("</section>")[0]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", section))
    # her side gave the kontra on the gran and received the rekontra, and received one on her own zolo
    assert "Kontras given 1" in text and "Kontras received 2" in text
    assert "zolo 2 1 50%" in text
    assert "gran" not in text  # played by another seat


def test_the_deal_statistics_count_only_series_whose_results_are_published(client):
    tournament, anna = evening()
    protocol = tournament.series.get(number=1).protocols.get(table=1)
    protocol.rows.create(number=90, deal={"contract": "mester", "old": ["A"], "old_eyes": 70},
                         value_a=30, value_b=-10, value_c=-10, value_d=-10)  # fmt: skip
    assert "méster" in open_page(client, anna).split('id="statistics"')[1]

    series_results_publication_toggle(series=tournament.series.get(number=1))

    assert "méster" not in open_page(client, anna).split('id="statistics"')[1]  # no stale tally either


def test_the_statistics_give_the_series_played_their_average_and_the_best_and_worst(client):
    tournament, anna = evening()

    page = client.get(reverse("public:player", args=[anna.pk]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    section = page.split('id="statistics"')[1].split("</section>")[0]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", section))
    # +30 and +20 at table 1; the bye of series 3 is no series played
    assert "Serie przy stoliku 2" in text and "Średnio na serię +25,0" in text
    assert "Najlepsza seria +30 (Puchar Pucka, seria 1)" in text
    assert "Najsłabsza seria +20 (Puchar Pucka, seria 2)" in text
    assert reverse("public:table", args=[tournament.slug, 1, 1]) in section


def test_a_long_history_shows_ten_tournaments_a_page_while_the_statistics_count_them_all(client):
    player = PlayerFactory()
    tournaments = [played_by(player, series=1, date=date(2026, 1, 1) + timedelta(weeks=n)) for n in range(12)]

    first = open_page(client, player)
    older = client.get(reverse("public:player", args=[player.pk]), {"strona": 2}).content.decode()

    assert first.count('class="card player-tournament"') == 10 and older.count('class="card player-tournament"') == 2
    shown = [f'id="tournament-{t.slug}"' for t in tournaments]
    assert shown[-1] in first and shown[0] not in first  # the newest first
    assert shown[0] in older and shown[-1] not in older
    assert "Tournaments 1–10 of 12, newest first." in first and "Older tournaments" in first
    assert "Newer tournaments" in older
    assert "Series at a table</dt><dd>12" in first  # every tournament, not only the page's


def test_the_statistics_give_the_average_per_deal(client):
    player = PlayerFactory()
    played_by(player, series=2)  # +30 in each series, one deal a table

    section = open_page(client, player).split('id="statistics"')[1].split("</section>")[0]

    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", section))
    assert "Average per deal +30.0" in text
