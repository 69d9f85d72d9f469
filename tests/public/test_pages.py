"""The public site: open to anyone, hides what is not yet published, exports and JSON."""

from __future__ import annotations

import gzip
import io
import json
import re

import openpyxl
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.results.models import DealRow
from league.standings.refresh import standings_touch
from league.tournaments.services import series_results_publication_toggle
from players.models import Gender
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    played_series,
)

pytestmark = pytest.mark.django_db


def league_tournament(tables: int = 2, series: int = 2, **fields):
    """A puck tournament of teams of four with ``series`` closed series of ``tables`` tables."""
    fields = {"draw_published": True, "publish_women": True, **fields}
    if "season" not in fields:
        fields["season"] = SeasonFactory()
    t = TournamentFactory(**fields)
    people = []
    for _ in range(tables):
        team = TeamFactory(members=4)
        for member in team.memberships.select_related("player"):
            RegistrationFactory(tournament=t, player=member.player, team=team)
            people.append(member.player)
    for number in range(1, series + 1):
        shift = number - 1  # a different seating per series
        seated = people[shift:] + people[:shift]
        played_series(
            t,
            number,
            [list(zip(seated[4 * i : 4 * i + 4], (30 + i, 10, -10, -30 - i), strict=True)) for i in range(tables)],
        )
    return t


def test_public_pages_open_without_login(client):
    t = league_tournament()
    player = t.registrations.first().player
    urls = [
        reverse("public:season", args=[t.season.slug]),
        reverse("public:tournament", args=[t.slug]),
        reverse("public:standings", args=[t.slug]),
        reverse("public:series", args=[t.slug, 1]),
        reverse("public:table", args=[t.slug, 1, 1]),
        reverse("public:projector", args=[t.slug]),
        reverse("public:player", args=[player.pk]),
        reverse("public:team", args=[t.registrations.first().team_id]),
    ]
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_standings_show_places_and_polish_decimal_comma(client):
    t = TournamentFactory(ruleset_preset="puck")
    people = [PlayerFactory(first_name="Anna", last_name=f"Kaszub{i}", gender=Gender.WOMAN) for i in range(4)]
    for player in people:
        RegistrationFactory(tournament=t, player=player)
    # three positive players share the bonus of 3: 5 + 1, 3 + 1, 1 + 1, 0
    played_series(t, 1, [list(zip(people, (30, 10, 5, -45), strict=True))])

    page = client.get(reverse("public:standings", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    assert "Kaszub0" in page and ">6<" in page and "+30" in page
    played_series(t, 2, [list(zip(people, (10, 10, -10, -10), strict=True))])  # 1st–2nd share (5 + 3) / 2 + 1.5
    page = client.get(reverse("public:standings", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "11,5" in page  # 6 + 5.5, written the Polish way


def test_draw_is_hidden_until_published(client):
    t = league_tournament(draw_published=False)
    t.series.filter(number=2).update(status="drawn")
    name = t.registrations.first().player.full_name

    assert name not in client.get(reverse("public:tournament", args=[t.slug])).content.decode()
    assert client.get(reverse("public:series", args=[t.slug, 2])).status_code == 404

    t.draw_published = True
    t.save()
    assert name in client.get(reverse("public:tournament", args=[t.slug])).content.decode()
    assert client.get(reverse("public:series", args=[t.slug, 2])).status_code == 200


def test_results_and_protocols_are_hidden_until_the_series_is_closed(client):
    t = league_tournament()
    t.series.filter(number=2).update(status="in_play")

    assert client.get(reverse("public:table", args=[t.slug, 2, 1])).status_code == 404
    series_page = client.get(reverse("public:series", args=[t.slug, 2])).content.decode()
    assert reverse("public:table", args=[t.slug, 2, 1]) not in series_page
    assert (
        reverse("public:table", args=[t.slug, 1, 1])
        in client.get(reverse("public:series", args=[t.slug, 1])).content.decode()
    )

    page = client.get(reverse("public:table", args=[t.slug, 1, 1])).content.decode()
    assert "+30" in page or "30" in page


def test_organiser_can_hold_back_a_closed_series_results(client):
    t = league_tournament()
    organiser = UserFactory()
    t.organisers.add(organiser)
    protocol_url = reverse("public:table", args=[t.slug, 1, 1])
    assert client.get(protocol_url).status_code == 200

    client.force_login(organiser)
    client.post(reverse("tournaments:publish", args=[t.slug]), {"series": 1})
    client.logout()
    assert client.get(protocol_url).status_code == 404

    client.force_login(organiser)
    client.post(reverse("tournaments:publish", args=[t.slug]), {"series": 1})
    client.logout()
    assert client.get(protocol_url).status_code == 200


def test_public_standings_count_only_closed_and_published_series(client):
    t = league_tournament(series=2)
    api = reverse("public:api_standings", args=[t.slug])
    both = {row["id"]: row["small_points"] for row in client.get(api).json()["individual"]}

    t.series.filter(number=2).update(status="in_play")
    standings_touch(tournament_id=t.pk)  # as reopening the series does
    first_only = {row["id"]: row["small_points"] for row in client.get(api).json()["individual"]}
    assert first_only != both

    t.series.filter(number=2).update(status="closed", results_published=False)
    standings_touch(tournament_id=t.pk)
    assert {row["id"]: row["small_points"] for row in client.get(api).json()["individual"]} == first_only


def test_only_an_organiser_may_switch_publication(client):
    t = league_tournament(draw_published=False)
    client.force_login(UserFactory())
    assert client.post(reverse("tournaments:publish", args=[t.slug])).status_code == 403
    t.refresh_from_db()
    assert not t.draw_published


def test_csv_and_xlsx_exports_open(client):
    t = league_tournament()
    url = reverse("public:standings", args=[t.slug])

    csv = client.get(url, {"_export": "csv", "lista": "individual"})
    assert csv.status_code == 200
    header, first = csv.content.decode("utf-8-sig").splitlines()[:2]
    assert header.count(";") == 4 and first.startswith("1;")

    xlsx = client.get(url, {"_export": "xlsx", "lista": "teams"})
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert len(rows) == 1 + 2 and rows[1][0] == 1 and isinstance(rows[1][3], int | float)


def test_json_api_has_the_standings_shape_and_cors(client):
    t = league_tournament()

    response = client.get(reverse("public:api_standings", args=[t.slug]))

    assert response["Access-Control-Allow-Origin"] == "*"
    body = json.loads(response.content)
    assert set(body) == {"individual", "women", "men", "teams"}
    assert set(body["individual"][0]) == {"place", "name", "id", "team", "big_points", "small_points"}
    assert set(body["teams"][0]) == {"place", "name", "id", "big_points", "small_points"}
    assert body["men"] == []  # not published


def test_a_club_website_polling_the_json_api_gets_304_until_the_standings_change(
    client, settings, django_assert_num_queries
):
    settings.STANDINGS_STAMP_SECONDS = 60
    t = league_tournament(series=2)
    api = reverse("public:api_standings", args=[t.slug])
    first = client.get(api, HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == "gzip" and first["ETag"]

    with django_assert_num_queries(0):  # within the stamp's time nothing is read again
        again = client.get(api, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304 and again.content == b""
        assert again["Access-Control-Allow-Origin"] == "*"
        assert json.loads(client.get(api).content) == json.loads(gzip.decompress(first.content))

    series_results_publication_toggle(series=t.series.get(number=2))
    settings.STANDINGS_STAMP_SECONDS = 0
    changed = client.get(api, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def page_queries(client, tournament) -> int:
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("public:standings", args=[tournament.slug])).status_code == 200
    return len(queries)


def test_standings_page_queries_do_not_grow_with_the_league(client, django_assert_num_queries):
    small = league_tournament(tables=2, series=1)
    large = league_tournament(tables=6, series=3)
    expected = page_queries(client, small)

    cache.clear()
    with django_assert_num_queries(expected):
        client.get(reverse("public:standings", args=[large.slug]))
    # served from the cache, the page reads only the stamp of the standings
    with django_assert_num_queries(1):
        client.get(reverse("public:standings", args=[large.slug]))


def test_the_standings_count_only_the_series_whose_results_are_published(client):
    t = league_tournament(tables=1, series=2)
    t.series.filter(number=2).update(results_published=False)

    page = client.get(reverse("public:standings", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "After 1 closed series." in page


def test_the_team_ranking_looks_like_the_individual_one(client):
    t = league_tournament(tables=2, series=1)
    page = client.get(reverse("public:standings", args=[t.slug])).content.decode()
    assert page.count('class="data standings"') >= 2  # the individual list and the team list


def test_the_public_table_page_shows_each_deal_as_the_paper_does_with_signed_values(client):
    t = league_tournament(tables=1, series=1)
    protocol = t.series.get(number=1).protocols.get(table=1)
    deal = {"contract": "zwykla", "old": ["A", "C"], "kontras": ["young"], "old_eyes": 60}
    DealRow.objects.create(protocol=protocol, number=2, deal=deal, value_a=2, value_b=-2, value_c=2, value_d=-2)

    page = client.get(reverse("public:table", args=[t.slug, 1, 1]), headers={"Accept-Language": "pl"})
    row = re.search(r"<tr><td class=\"num\">2</td>(.*?)</tr>", page.content.decode(), re.S).group(1)
    assert re.sub(r"<[^>]+>|\s+", " ", row).split() == ("gra zwykła A+C ×2 60 oczek +2 +32 −2 +8 +2 −8 −2 −32".split())
