"""Every public page kept ready as the standings are (``page_store.page_answer``): a spectator's
reload within the stamp's second costs no query, a current copy gets a 304, and what the
organiser or the referee changes (a series closed, a deal corrected, the tournament renamed,
unpublished or a new one published) reaches every page that shows it once the second has passed.
A draft never reaches any of them, however it was kept before."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Series, Tournament
from league.public import page_store
from league.results import services as results
from league.results.models import Protocol
from league.standings.cache import refresh
from league.standings.tasks import recompute_standings
from league.tournaments.services import tournament_publish, tournament_update
from tests.factories import LeagueFactory, SeasonFactory, TournamentFactory, UserFactory, played_series
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return LeagueFactory(name="Liga Kaszubska", slug="liga-kaszubska")


@pytest.fixture
def tournament(league):
    """Today's tournament of a league and its season, with two closed series and a third being played."""
    season = SeasonFactory(league=league, name="Sezon Kaszubski", slug="sezon-kaszubski")
    tournament = league_tournament(
        tables=2, series=2, season=season, league=league, name="Puchar Redy", date=timezone.localdate()
    )
    played_series(tournament, 3, seated(tournament, (40, 20, -20, -40)), status=Series.Status.IN_PLAY)
    return tournament


def seated(tournament: Tournament, points: tuple[int, ...]) -> list[list[tuple]]:
    """The tournament's players at tables of four in registration order, each table scoring ``points``."""
    people = [r.player for r in tournament.registrations.select_related("player").order_by("pk")]
    return [list(zip(people[k : k + 4], points, strict=True)) for k in range(0, len(people), 4)]


def addresses(tournament: Tournament) -> dict[str, str]:
    """Every kept page showing ``tournament``, by name."""
    slug, season = tournament.slug, tournament.season.slug
    first = tournament.registrations.select_related("player").order_by("pk").first()
    surname = first.player.last_name
    return {
        "tournament": reverse("public:tournament", args=[slug]),
        "series": reverse("public:series", args=[slug, 1]),
        "table": reverse("public:table", args=[slug, 1, 1]),
        "find my table": reverse("public:find_table", args=[slug]) + f"?q={surname}",
        "standings": reverse("public:standings", args=[slug]),
        "standings CSV": reverse("public:standings", args=[slug]) + "?_export=csv&lista=individual",
        "standings XLSX": reverse("public:standings", args=[slug]) + "?_export=xlsx&lista=individual",
        "API": reverse("public:api_standings", args=[slug]),
        "season": reverse("public:season", args=[season]),
        "season CSV": reverse("public:season", args=[season]) + "?_export=csv&lista=individual",
        "league": reverse("leagues:page", args=[tournament.league.slug]),
        "home": reverse("home"),
        "player": reverse("public:player", args=[first.player_id]),
        "team": reverse("public:team", args=[first.team_id]),
    }


def pages(client, tournament: Tournament) -> dict[str, tuple[int, bytes]]:
    return {
        name: (r.status_code, r.content) for name, r in ((n, client.get(a)) for n, a in addresses(tournament).items())
    }


@pytest.mark.parametrize(
    "name",
    [
        "tournament",
        "series",
        "table",
        "find my table",
        "standings",
        "standings CSV",
        "standings XLSX",
        "API",
        "season",
        "season CSV",
        "league",
        "home",
        "player",
        "team",
    ],
)
def test_a_reload_within_the_second_costs_no_query_and_a_current_copy_gets_a_304(
    client, tournament, clock, name, django_assert_num_queries
):
    address = addresses(tournament)[name]
    first = client.get(address, HTTP_ACCEPT_ENCODING="gzip")
    assert first.status_code == 200

    with django_assert_num_queries(0):
        again = client.get(address, HTTP_ACCEPT_ENCODING="gzip")
        current = client.get(address, HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.content == first.content and again["Content-Encoding"] == "gzip"
    assert again["Content-Type"] == first["Content-Type"]
    assert current.status_code == 304 and not current.content


def test_a_download_kept_ready_keeps_its_file_name(client, tournament):
    csv = client.get(addresses(tournament)["standings CSV"])
    again = client.get(addresses(tournament)["standings CSV"])

    assert again["Content-Disposition"] == csv["Content-Disposition"]
    assert f"{tournament.slug}-individual.csv" in again["Content-Disposition"]


def test_a_closed_series_reaches_every_page_that_shows_it_once_the_second_has_passed(client, tournament, clock):
    third = reverse("public:table", args=[tournament.slug, 3, 1])
    before = pages(client, tournament) | {"third series": client.get(third).status_code}
    before_series = client.get(reverse("public:series", args=[tournament.slug, 3])).content.decode()

    results.series_close(series=tournament.series.get(number=3))
    assert pages(client, tournament) == {n: p for n, p in before.items() if n != "third series"}  # within the second
    clock.now += 1.5
    after = pages(client, tournament)
    after_series = client.get(reverse("public:series", args=[tournament.slug, 3])).content.decode()

    changed = {name for name in after if after[name] != before[name]}
    assert changed >= {
        "tournament",
        "standings",
        "standings CSV",
        "API",
        "season",
        "season CSV",
        "league",
        "player",
        "team",
    }
    assert before["third series"] == 404 and client.get(third).status_code == 200
    assert third not in before_series and third in after_series


def test_a_corrected_deal_reaches_the_table_the_series_and_every_list(client, tournament, clock):
    before = pages(client, tournament)
    referee = UserFactory()
    tournament.referees.add(referee)
    protocol = Protocol.objects.get(series__tournament=tournament, series__number=1, table=1)
    results.protocol_row_save(
        protocol=protocol,
        number=1,
        deal={"values": {"A": -77, "B": 10, "C": -10, "D": 77}},
        expected_version=protocol.version,
        user=referee,
        reason="A and D swapped on paper",
    )
    clock.now += 1.5
    after = pages(client, tournament)

    changed = {name for name in after if after[name] != before[name]}
    assert changed >= {"series", "table", "standings", "standings CSV", "API", "season", "season CSV", "player", "team"}
    assert "+77" in after["table"][1].decode() and "+77" not in before["table"][1].decode()  # not a pk in a link


def test_a_renamed_tournament_shows_its_new_name_on_every_page_of_it(client, tournament, clock):
    pages(client, tournament)
    tournament_update(tournament=tournament, name="Puchar Helu")
    clock.now += 1.5

    for name, (status, body) in pages(client, tournament).items():
        if name in (
            "tournament",
            "series",
            "table",
            "find my table",
            "standings",
            "season",
            "league",
            "player",
            "team",
        ):
            assert status == 200 and "Puchar Helu" in body.decode(), name


def test_an_unpublished_tournament_leaves_every_page_however_it_was_kept(client, tournament, clock):
    pages(client, tournament)
    tournament.published = False
    tournament.save()
    clock.now += 1.5

    after = pages(client, tournament)

    for name in ("tournament", "series", "table", "find my table", "standings", "standings CSV", "API"):
        assert after[name][0] == 404, name
    for name in ("season", "season CSV", "league", "home", "player", "team"):
        assert after[name][0] == 200 and b"Puchar Redy" not in after[name][1], name


def test_a_draft_never_appears_on_a_public_page(client, tournament, league, clock):
    draft = league_tournament(
        tables=1, series=1, season=tournament.season, league=league, name="Tajny Turniej", published=False
    )
    loner = TournamentFactory(name="Tajny Samotny", published=False, date=timezone.localdate() + timedelta(days=3))
    refresh(draft.pk)

    shown = pages(client, tournament)
    for name, (_status, body) in shown.items():
        assert b"Tajny" not in body, name
    for name, (status, body) in pages(client, draft).items():
        if name in ("player", "team"):  # the draft's people have pages; the draft is not on them
            assert status == 200 and b"Tajny" not in body, name
        elif name not in ("season", "season CSV", "league", "home"):
            assert status == 404, name
    assert client.get(reverse("public:tournament", args=[loner.slug])).status_code == 404
    assert "Tajny" not in json.dumps(client.get(addresses(tournament)["API"]).json())


def test_a_tournament_published_reaches_the_home_page_and_its_league_within_the_second(client, league, clock):
    soon = timezone.localdate() + timedelta(days=7)
    outside = TournamentFactory(name="Turniej w Jastarni", published=False, date=soon)
    inside = TournamentFactory(name="Turniej w Helu", published=False, date=soon, league=league)
    home, league_page = reverse("home"), reverse("leagues:page", args=[league.slug])
    client.get(home), client.get(league_page)

    tournament_publish(tournament=outside)
    tournament_publish(tournament=inside)
    assert "Turniej w Jastarni" not in client.get(home).content.decode()  # within the second
    clock.now += 1.5

    assert "Turniej w Jastarni" in client.get(home).content.decode()
    assert "Turniej w Helu" in client.get(league_page).content.decode()
    assert "Turniej w Helu" in client.get(home).content.decode()  # the league's next tournament


def test_find_my_table_keeps_only_names_that_found_somebody(client, tournament, clock, django_assert_num_queries):
    found = addresses(tournament)["find my table"]
    client.get(found)
    for number in range(20):
        assert (
            b"find-none"
            in client.get(reverse("public:find_table", args=[tournament.slug]), {"q": f"nikt {number}"}).content
        )

    assert len(page_store.found) == 1
    with django_assert_num_queries(0):
        spaced = client.get(found.replace("?q=", "?q=%20%20"))  # the same name with stray spaces
    assert spaced.status_code == 200


def test_a_logged_in_organiser_sees_their_own_draft_and_their_name(client, tournament):
    organiser = UserFactory(first_name="Ola", last_name="Kowalska")
    tournament.organisers.add(organiser)
    tournament.published = False
    tournament.save()
    client.force_login(organiser)

    page = client.get(addresses(tournament)["tournament"]).content.decode()

    assert "Puchar Redy" in page and "Ola Kowalska" in page


# --- query budgets at two sizes of history ------------------------------------------------------

# the queries a cold page takes (standings in the cache, as the recompute task leaves them; the
# page itself not yet kept by this process), whether the league has played 1 or 4 tournaments;
# a reload within the stamp's second takes none (above)
BUDGETS = {
    "tournament": 8,  # the state (tournament, stamp, series), seats and byes of the current series, sign-ups
    "series": 9,  # the state, the seats with their totals, byes, penalties
    "table": 11,  # the state, protocol, seats, rows, penalties, the ratings' expected order
    "find my table": 7,  # the state, the name, the seats and byes
    "standings": 5,  # the stamp, the tournament, the closed series
    "standings CSV": 4,
    "standings XLSX": 4,
    "API": 4,  # the stamp, the tournament, the file ids
    "season": 6,  # the season, its tournaments and their stamps, the tournaments listed
    "season CSV": 6,
    "league": 10,  # the league, next tournaments, season, its tournaments, finished ones, stamps, past seasons
    "home": 4,  # leagues, seasons, tournaments
    # the state (the player, registrations, seasons' tournaments, stamps), then the page: the
    # registrations, the stamps and the kept results again; the ratings' stamp, the player's and the places
    "player": 10,
    "team": 8,  # the state (team, members, who played, stamps), then members, stamps, its players' and its own results
}


@pytest.mark.parametrize("history", [1, 4])
@pytest.mark.parametrize("name", list(BUDGETS))
def test_each_kept_page_takes_the_same_queries_after_one_and_after_many_tournaments(
    client, league, tournament, history, name, django_assert_max_num_queries
):
    for _ in range(history - 1):
        league_tournament(tables=2, series=2, season=tournament.season, league=league)
    for played in Tournament.objects.all():
        recompute_standings(played.pk)  # as after every change: the standings and the players' kept results
    page_store.forget_all()
    address = addresses(tournament)[name]

    with django_assert_max_num_queries(BUDGETS[name]):
        page = client.get(address)

    assert page.status_code == 200


def test_when_the_second_has_passed_one_reload_reads_the_state_and_the_others_answer_as_a_moment_ago(clock):
    reads: list[int] = []
    started, release = threading.Event(), threading.Event()

    def lookup(_key: str) -> int:
        reads.append(1)
        started.set()
        release.wait(5)
        return len(reads)

    page_store.recent_stamp("state", lambda _key: 0)
    clock.now += 1.5
    answers: list[int] = []
    first = threading.Thread(target=lambda: answers.append(page_store.recent_stamp("state", lookup)))
    first.start()
    started.wait(5)
    others = [page_store.recent_stamp("state", lookup) for _ in range(5)]
    release.set()
    first.join(5)

    assert reads == [1] and answers == [1] and others == [0] * 5
    assert page_store.recent_stamp("state", lookup) == 1  # the new state, read once
    assert page_store._lookups == {}  # nothing left behind per key
