"""The season page (issue 14): each player's result in each tournament, the ones best K of N
dropped struck through under a legend, and a chart of the top 10 after each tournament."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.urls import reverse

from league.standings.cache import refresh
from league.tournaments.services import series_results_publication_toggle
from tests.factories import PlayerFactory, RegistrationFactory, SeasonFactory, TournamentFactory, played_series

pytestmark = pytest.mark.django_db

POINTS = (30, 10, -10, -30)


def season_of_three(*, best_of=2, tournaments=3, **season_fields):
    """Twelve players at three tables in one series of each tournament; Anna sits at A (1st),
    then D (4th), then B (2nd) of table 1."""
    season = SeasonFactory(name="Liga Kaszubska", best_of=best_of, **season_fields)
    anna = PlayerFactory(first_name="Anna", last_name="Kąkol")
    others = PlayerFactory.create_batch(11)
    for number, position in zip(range(tournaments), (0, 3, 1), strict=False):
        tournament = TournamentFactory(season=season, date=date(2026, 3, number + 1), draw_published=True)
        seated = [*others[number:], *others[:number]]
        seated.insert(position, anna)
        for player in seated:
            RegistrationFactory(tournament=tournament, player=player)
        played_series(tournament, 1, [list(zip(seated[i : i + 4], POINTS, strict=True)) for i in range(0, 12, 4)])
    return season, anna


def season_page(client, season, **headers) -> str:
    return client.get(reverse("public:season", args=[season.slug]), **headers).content.decode()


def row_of(page: str, name: str) -> str:
    table = page.split('id="individual"')[1]
    return next(row for row in table.split("<tr") if f">{name}</a>" in row)


def test_each_tournaments_result_shows_and_the_dropped_one_is_struck_through(client):
    season, _ = season_of_three()

    page = season_page(client, season)

    cells = re.findall(r'<td class="num">(.*?)</td>', row_of(page, "Anna Kąkol"), re.S)
    # 5 + half the bonus of 3 for 1st; 0 for 4th; 3 + 1.5 for 2nd; best 2 of 3: 6.5 + 4.5
    assert [cell.strip() for cell in cells[-3:]] == ["6.5", '<s class="dropped" title="dropped">0</s>', "4.5"]
    assert "11" in cells[1]
    assert "only each player&#x27;s best 2 results count" in page or "only each player's best 2 results count" in page
    assert 'id="season-scheme"' in page  # the seasons' sentence stays


def test_the_columns_are_the_tournaments_by_date_with_their_names(client):
    season, _ = season_of_three()

    page = season_page(client, season)

    for tournament in season.tournaments.order_by("date"):
        assert f'title="{tournament.name}"' in page
    assert re.search(r">01\.03<.*>02\.03<.*>03\.03<", page, re.S)


def test_a_season_that_counts_everything_strikes_nothing(client):
    season, _ = season_of_three(best_of=None)

    page = season_page(client, season)

    assert 'class="dropped"' not in page.split('id="individual"')[1]
    assert 'id="season-columns"' not in page


def test_the_chart_draws_one_line_for_each_of_the_top_ten_after_each_tournament(client):
    season, _ = season_of_three()

    page = season_page(client, season)

    svg = page.split("<svg")[1].split("</svg>")[0]
    assert "<title" in svg and "<desc" in svg
    assert svg.count('class="line"') == 10
    assert page.split('class="legend"')[1].split("</ul>")[0].count("<li>") == 10
    table = page.split('id="individual"')[1].split("<tbody")[1]
    leader = re.search(r'<a href="[^"]+">([^<]+)</a>', table).group(1)
    numbers = page.split('class="chart-data"')[1].split("</table>")[0]
    assert f'<th scope="row">{leader}</th>' in numbers


def test_a_draft_tournament_is_no_column_and_no_step_of_the_chart(client):
    season, _ = season_of_three()
    draft = season.tournaments.order_by("date").last()
    draft.published = False
    draft.save()

    page = season_page(client, season)

    assert f'title="{draft.name}"' not in page
    assert ">03.03<" not in page


def test_the_page_reads_in_polish(client):
    season, _ = season_of_three()

    page = season_page(client, season, HTTP_ACCEPT_LANGUAGE="pl")

    assert "Czołówka sezonu" in page and "6,5" in page
    assert "liczą się tylko 2 najlepsze wyniki zawodnika" in page


@pytest.mark.parametrize("count", [1, 3])
def test_the_page_takes_the_same_queries_for_one_and_many_tournaments(client, count, django_assert_max_num_queries):
    season, _ = season_of_three(tournaments=count)
    for tournament in season.tournaments.all():
        refresh(tournament.pk)

    # the season, its counted tournaments, their stamps, its published tournaments
    with django_assert_max_num_queries(4):
        page = season_page(client, season)

    assert "<svg" in page


def test_the_chart_adds_up_each_leaders_best_results_of_the_tournaments_so_far(client):
    season, _ = season_of_three()

    page = season_page(client, season)

    numbers = page.split('class="chart-data"')[1].split("</table>")[0]
    anna = numbers.split('<th scope="row">Anna Kąkol</th>')[1].split("</tr>")[0]
    # 6.5 after the first; 6.5 + 0 after the second; best 2 of 6.5, 0, 4.5 after the third
    assert re.findall(r"<td[^>]*>\s*([^<]*?)\s*</td>", anna) == ["6,5", "6,5", "11"]


def test_the_season_read_back_from_the_cache_is_the_season_computed():
    from league.standings.cache import season_rankings, tournament_rankings
    from league.standings.seasons import season_standings, season_tournaments

    season, _ = season_of_three()
    tournaments = list(season_tournaments(season))
    computed = season_standings(season, tournaments, [tournament_rankings(t) for t in tournaments])

    assert season_rankings(season) == computed  # computed and kept
    assert season_rankings(season) == computed  # read back


def test_a_result_missing_in_the_middle_of_the_season_is_still_missing_when_read_back():
    from league.standings.cache import _packed, _unpacked

    anna = {"pk": 1, "name": "Anna Kąkol", "place": 1, "label": "1."}
    played = {"big_points": 6.5, "small_points": 30, "counted": True}
    rankings = {"individual": [{**anna, "results": [played, None, {**played, "counted": False}]}], "teams": []}

    assert _unpacked(_packed(rankings)) == rankings


def test_a_reload_of_the_season_page_is_answered_from_the_ready_page(client, settings, django_assert_num_queries):
    settings.STANDINGS_STAMP_SECONDS = 60
    season, _ = season_of_three()
    url = reverse("public:season", args=[season.slug])
    first = client.get(url)

    with django_assert_num_queries(0):
        assert client.get(url).content == first.content
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_a_season_page_kept_ready_shows_a_change_once_the_stamps_second_has_passed(client, settings):
    settings.STANDINGS_STAMP_SECONDS = 60
    season, anna = season_of_three()
    url = reverse("public:season", args=[season.slug])
    before = row_of(client.get(url).content.decode(), "Anna Kąkol")
    last = season.tournaments.order_by("date").last()
    for series in last.series.all():
        series_results_publication_toggle(series=series)

    assert row_of(client.get(url).content.decode(), "Anna Kąkol") == before  # within the second
    settings.STANDINGS_STAMP_SECONDS = 0
    assert row_of(client.get(url).content.decode(), "Anna Kąkol") != before


def test_a_logged_in_visitor_gets_the_season_page_with_their_own_head(client):
    from tests.factories import UserFactory

    season, _ = season_of_three()
    url = reverse("public:season", args=[season.slug])
    client.get(url)  # kept ready for the anonymous
    user = UserFactory(username="sędzia_ola")
    client.force_login(user)

    assert "sędzia_ola" in client.get(url).content.decode()


def test_an_unknown_season_is_not_found_and_kept_nowhere(client):
    from league.public import page_store

    assert client.get(reverse("public:season", args=["nie-ma-takiego"])).status_code == 404
    assert len(page_store.pages) == 0


def test_a_long_season_shows_the_newest_tournaments_columns_and_pages_back_to_the_older(client, monkeypatch):
    monkeypatch.setattr("league.public.views.SEASON_COLUMNS", 2)
    season, _ = season_of_three()

    newest = season_page(client, season)
    older = season_page(client, season, QUERY_STRING="strona=2")

    assert re.findall(r">(\d\d\.03)<", newest.split('id="individual"')[1]) == ["02.03", "03.03"]
    assert "Columns: tournaments 2–3 of 3" in newest and 'href="?strona=2">Older tournaments<' in newest
    assert re.findall(r">(\d\d\.03)<", older.split('id="individual"')[1]) == ["01.03"]
    assert "Columns: tournaments 1–1 of 3" in older and 'href="?strona=1">Newer tournaments<' in older


def test_sorting_keeps_the_page_of_columns_and_the_downloads_hold_every_tournament(client, monkeypatch):
    monkeypatch.setattr("league.public.views.SEASON_COLUMNS", 2)
    season, _ = season_of_three()

    older = season_page(client, season, QUERY_STRING="strona=2&individual-sort=-small_points")
    csv = season_page(client, season, QUERY_STRING="_export=csv&lista=individual")

    sort_links = re.findall(r'href="\?(individual-sort=[^"]*)"', older)
    assert len(sort_links) > 3 and all(link.endswith("&amp;strona=2") for link in sort_links[1:])
    assert 'href="?individual-sort=-small_points&amp;strona=1">Newer tournaments<' in older
    assert all(day in csv.splitlines()[0] for day in ("01.03", "02.03", "03.03"))


def test_the_pages_of_columns_read_in_polish(client, monkeypatch):
    monkeypatch.setattr("league.public.views.SEASON_COLUMNS", 2)
    season, _ = season_of_three()

    page = season_page(client, season, HTTP_ACCEPT_LANGUAGE="pl")

    assert "Kolumny: turnieje 2–3 z 3" in page and ">Starsze turnieje<" in page


def laid_out(monkeypatch) -> list[str]:
    """The season tables laid out in this test, by the list of each."""
    from league.public import views

    tables = views.season_tables
    calls: list[str] = []

    def counted(*args, **kwargs):
        calls.append("tables")
        return tables(*args, **kwargs)

    monkeypatch.setattr(views, "season_tables", counted)
    return calls


@pytest.mark.parametrize(
    "query",
    ["", "strona=2", "_export=csv&lista=individual", "_export=csv&lista=teams"],
)
def test_a_season_page_one_web_process_laid_out_reaches_the_others_through_the_cache(client, monkeypatch, query):
    from league.public import page_store

    monkeypatch.setattr("league.public.views.SEASON_COLUMNS", 2)
    season, _ = season_of_three()
    calls = laid_out(monkeypatch)
    first = season_page(client, season, QUERY_STRING=query)
    page_store.forget_all()  # another web process: nothing of its own kept yet

    again = season_page(client, season, QUERY_STRING=query)

    assert calls == ["tables"] and again == first


def test_a_season_page_in_a_sort_order_or_a_made_up_list_is_laid_out_by_each_process_for_itself(client, monkeypatch):
    from league.public import page_store

    season, _ = season_of_three()
    calls = laid_out(monkeypatch)
    for query in ("individual-sort=-small_points", "_export=csv&lista=nie-ma-takiej"):
        season_page(client, season, QUERY_STRING=query)
        page_store.forget_all()
        season_page(client, season, QUERY_STRING=query)

    assert calls == ["tables"] * 4
