"""Random input to every form a person fills in: never a server error, and a refused form writes nothing.

The forms: the calculator (GET), the referee's deal entry (shorthand line and
the full deal form), the table scorer's entry, the organiser's quick add,
player add, tournament create and the draw's swap. A response other than a
redirect means the input was refused (the form is shown again with its
errors): the row counts must then be as before.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import DrawLog, Registration, Series, TableAssignment, Tournament
from league.results import services
from league.results.models import DealRow, DealRowVersion, Protocol
from players.models import Club, Player, Team
from tests.factories import (
    TableAssignmentFactory,
    TournamentFactory,
    UserFactory,
    register_teams,
)

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,  # the same examples on every run and on both databases
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
COUNTED = (
    DealRow,
    DealRowVersion,
    Protocol,
    Registration,
    Player,
    Club,
    Team,
    TableAssignment,
    Series,
    Tournament,
    DrawLog,
)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in COUNTED}


# --- strategies ---------------------------------------------------------------

SEATS = ["A", "B", "C", "D", "a", "E", ""]
CONTRACTS = ["zwykla", "wesele", "cicha", "zolo", "gran", "zolo_du", "gran_du", "zolo_bieda", "mester", "baska"]
texts = st.text(max_size=30)  # any unicode, including NUL and surrogates' neighbours
big_ints = st.integers(min_value=-(10**20), max_value=10**20)
small_ints = st.integers(min_value=-200, max_value=200)
numbers = st.one_of(
    small_ints.map(str), big_ints.map(str), texts, st.just(""), st.sampled_from(["1e3", "0x10", " 7 ", "٣"])
)


def field(*valid: str) -> st.SearchStrategy[str]:
    """Mostly a valid value, sometimes anything."""
    return st.one_of(st.sampled_from(valid), texts, numbers) if valid else st.one_of(texts, numbers)


shorthand_lines = st.one_of(
    st.text(alphabet="abcdnwizgmkslxy+-=0123456789 ,", max_size=16),
    st.sampled_from(["ac60", "bd+", "bd-bw", "ac k 70", "za+", "zak-", "zbc", "=20,-20,0,0", "z=-15,5,5,5", "acxb"]),
    # values a 32-bit column holds; larger ones are a known bug, see test_values_beyond_the_integer_column
    st.builds(lambda v: f"={v},{-v},0,0", st.integers(min_value=0, max_value=2**31 - 1)),
    texts,
)


def deal_form_data(prefix: str = "") -> st.SearchStrategy[dict[str, Any]]:
    """The deal form's fields, each valid, garbage or absent."""
    fields = {
        "contract": field(*CONTRACTS),
        "old": st.lists(field(*SEATS), max_size=5),
        "kontras": field("", "m", "ms", "msm"),
        "old_eyes": field("0", "30", "60", "61", "104", "120", "-1"),
        "winner": field("", "old", "young"),
        "level": field("", "z_wyjsciem", "bez_wyjscia", "bez_bitki"),
        "misplay": field("", *SEATS),
        "laid_down": field("on", ""),
        "bok_round": field("on", ""),
        **{f"value_{s}": st.one_of(small_ints.map(str), big_ints.map(str), texts) for s in "abcd"},
    }
    return st.fixed_dictionaries({}, optional={f"{prefix}{name}": value for name, value in fields.items()})


# --- the world ----------------------------------------------------------------


@pytest.fixture(scope="module")
def handler():
    """One request handler (its middleware loads once) for every client of the module."""
    return Client().handler


def make_client(handler) -> Client:
    client = Client(raise_request_exception=False)
    client.handler = handler
    return client


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world():
    """Series 1 in play with two tables; one protocol has a deal already."""
    organiser = UserFactory()
    organiser.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_player", "change_player", "add_tournament"])
    )
    referee = UserFactory()
    tournament = TournamentFactory(series_count=3, deals_per_series=6)
    tournament.organisers.add(organiser)
    tournament.referees.add(referee)
    players = [r.player for r in register_teams(tournament, teams=2, size=4, individuals=1)]
    series = Series.objects.create(tournament=tournament, number=1, status=Series.Status.DRAWN)
    for i, player in enumerate(players[:8]):
        TableAssignmentFactory(series=series, table=i // 4 + 1, seat="ABCD"[i % 4], player=player)
    from league.models import Bye

    Bye.objects.create(series=series, player=players[8], big_points=4, small_points=40)
    protocol = services.get_or_create_protocols(series)[0]
    services.save_row(
        protocol=protocol,
        number=1,
        deal={"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60},
        expected_version=protocol.version,
        user=referee,
    )
    return {"tournament": tournament, "series": series, "organiser": organiser, "referee": referee, "players": players}


def protocol_of(world, table: int = 1) -> Protocol:
    return Protocol.objects.get(series=world["series"], table=table)


def check(response, before: dict[str, int]) -> None:
    assert response.status_code < 500, response.content[:2000]
    if response.status_code != 302:
        assert counts() == before, "a refused form changed the database"


# --- the calculator -----------------------------------------------------------


@FUZZ
@given(data=deal_form_data(), ruleset=field("puck", "gorzow", "psb"))
def test_calculator_never_fails(handler, data, ruleset):
    client = make_client(handler)
    before = counts()
    params = {**data, "ruleset_id": ruleset}
    response = client.get(reverse("calculator"), params)
    assert response.status_code == 200
    response = client.get(reverse("calculator"), params, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert counts() == before


# --- the referee's entry ------------------------------------------------------


def row_fields(protocol: Protocol) -> st.SearchStrategy[dict[str, str]]:
    """number and version: mostly the right ones, so that valid lines get saved."""
    rows = protocol.rows.count()
    return st.fixed_dictionaries(
        {
            "number": st.one_of(st.sampled_from([str(rows + 1), str(rows), "1"]), numbers),
            "version": st.one_of(st.just("current"), numbers),
        }
    )


@FUZZ
@given(data=st.data())
def test_referee_shorthand_entry(handler, world, data):
    client = make_client(handler)
    client.force_login(world["referee"])
    protocol = protocol_of(world)
    body = data.draw(row_fields(protocol))
    if body["version"] == "current":
        body["version"] = str(protocol.version)
    body["line"] = data.draw(shorthand_lines)
    slug = world["tournament"].slug
    before = counts()
    check(client.post(reverse("results:protocol", args=[slug, 1, 1]), body), before)
    before = counts()
    check(client.post(reverse("results:correct", args=[slug, 1, 1, 1]), {**body, "reason": data.draw(texts)}), before)


@FUZZ
@given(data=st.data())
def test_referee_full_deal_form(handler, world, data):
    client = make_client(handler)
    client.force_login(world["referee"])
    protocol = protocol_of(world, 2)
    body = data.draw(row_fields(protocol))
    if body["version"] == "current":
        body["version"] = str(protocol.version)
    body.update(data.draw(deal_form_data("full-")))
    body["full-contract"] = body.get("full-contract", "zwykla")
    before = counts()
    check(client.post(reverse("results:protocol", args=[world["tournament"].slug, 1, 2]), body), before)


@FUZZ
@given(data=st.data())
def test_referee_preview_and_totals(handler, world, data):
    client = make_client(handler)
    client.force_login(world["referee"])
    slug = world["tournament"].slug
    protocol = protocol_of(world)
    # preview: the number stays within the protocol (a number past the next deal is a known bug, see
    # test_referee_preview_of_a_number_past_the_next_deal)
    number = data.draw(st.integers(min_value=1, max_value=protocol.rows.count() + 1))
    before = counts()
    body = {"number": str(number), "version": data.draw(numbers), "line": data.draw(shorthand_lines)}
    check(client.post(reverse("results:preview", args=[slug, 1, 1]), body), before)
    assert counts() == before, "a preview wrote"
    totals = {seat: data.draw(numbers) for seat in "ABCD"}
    totals["version"] = data.draw(st.one_of(st.just(str(protocol.version)), numbers))
    check(client.post(reverse("results:totals", args=[slug, 1, 1]), totals), before)
    before = counts()
    body = {"seat": data.draw(field(*SEATS)), "version": data.draw(numbers)}
    check(client.post(reverse("results:confirm", args=[slug, 1, 1]), body), before)


# --- the table scorer ---------------------------------------------------------


def scorer_client(handler, world, table: int = 1) -> Client:
    client = make_client(handler)
    protocol = protocol_of(world, table)
    response = client.post(
        reverse("table:pin", args=[world["tournament"].slug, 1, table]), {"pin": protocol.pin, "seat": "B"}
    )
    assert response.status_code == 302
    return client


@FUZZ
@given(data=st.data())
def test_table_scorer_entry(handler, world, data):
    client = scorer_client(handler, world)
    protocol = protocol_of(world)
    body = data.draw(row_fields(protocol))
    if body["version"] == "current":
        body["version"] = str(protocol.version)
    if data.draw(st.booleans()):
        body["line"] = data.draw(shorthand_lines)
    else:
        body.update(data.draw(deal_form_data("full-")))
        body["full-contract"] = body.get("full-contract", "zwykla")
    url = reverse(f"table:{data.draw(st.sampled_from(['save', 'preview']))}", args=[world["tournament"].slug, 1, 1])
    before = counts()
    if url.endswith("/podglad/") and body["number"] not in {str(n) for n in range(1, protocol.rows.count() + 2)}:
        body["number"] = "1"  # see test_table_preview_of_a_number_past_the_next_deal
    check(client.post(url, body), before)


@FUZZ
@given(data=st.data())
def test_table_scorer_finish_confirm_delete(handler, world, data):
    client = scorer_client(handler, world)
    slug = world["tournament"].slug
    protocol = protocol_of(world)
    totals = {seat: data.draw(numbers) for seat in "ABCD"}
    totals.update(
        version=data.draw(st.one_of(st.just(str(protocol.version)), numbers)), ended_early=data.draw(field("on", ""))
    )
    before = counts()
    check(client.post(reverse("table:finish", args=[slug, 1, 1]), totals), before)
    before = counts()
    body = {"seat": data.draw(field(*SEATS)), "version": data.draw(numbers)}
    check(client.post(reverse("table:confirm", args=[slug, 1, 1]), body), before)
    before = counts()
    response = client.post(reverse("table:delete", args=[slug, 1, 1, 1]), {"version": data.draw(numbers)})
    assert response.status_code == 302  # refused or not, the scorer goes back to the protocol
    assert counts()["DealRow"] in (before["DealRow"], before["DealRow"] - 1)


# --- the organiser ------------------------------------------------------------


@FUZZ
@given(data=st.data())
def test_quick_add(handler, world, data):
    client = make_client(handler)
    client.force_login(world["organiser"])
    body = {
        "first_name": data.draw(field("Anna", " ", "x" * 81)),
        "last_name": data.draw(field("Kowalska", "")),
        "gender": data.draw(field("M", "F", "X")),
        "club": data.draw(field("", str(Club.objects.first().pk), "999999")),
        "team": data.draw(field("", str(Team.objects.first().pk), "999999")),
    }
    before = counts()
    check(client.post(reverse("tournaments:quick_add", args=[world["tournament"].slug]), body), before)


@FUZZ
@given(data=st.data())
def test_player_add(handler, world, data):
    client = make_client(handler)
    client.force_login(world["organiser"])
    licence = data.draw(field("", "KASZ-1", "x" * 41))
    body = {
        "first_name": data.draw(field("Jan", "")),
        "last_name": data.draw(field("Formela", "\x00")),
        "gender": data.draw(field("M", "F")),
        "club": data.draw(field("", str(Club.objects.first().pk))),
        "licence": licence,
        "active": data.draw(field("on", "")),
    }
    before = counts()
    check(client.post(reverse("players:player_add"), body), before)


@FUZZ
@given(data=st.data())
def test_tournament_create(handler, world, data):
    client = make_client(handler)
    client.force_login(world["organiser"])
    body = {
        "name": data.draw(field("Puchar Wójta", "", "!!!", "x" * 161)),
        "date": data.draw(field("2026-03-14", "2026-02-30", "14.03.2026", "99999-01-01")),
        "venue": data.draw(field("Puck", "")),
        "ruleset_preset": data.draw(field("puck", "gorzow", "psb", "nope")),
        "series_count": data.draw(field("1", "3", "0", "40000", "70000")),
        "deals_per_series": data.draw(field("40", "0", "65536")),
        "time_limit_minutes": data.draw(field("", "90", "-1")),
        "team_ranking": data.draw(field("sum", "best")),
        "team_best_of": data.draw(field("3", "0")),
        "season": data.draw(field("", "999999")),
    }
    before = counts()
    check(client.post(reverse("tournaments:create"), body), before)


@FUZZ
@given(data=st.data())
def test_swap(handler, world, data):
    client = make_client(handler)
    client.force_login(world["organiser"])
    pks = [str(p.pk) for p in world["players"]] + ["999999"]
    body = {
        "swap1-player_a": data.draw(field(*pks)),
        "swap1-player_b": data.draw(field(*pks)),
        "swap1-reason": data.draw(field("", "x" * 201)),
    }
    before = counts()
    response = client.post(reverse("tournaments:swap", args=[world["tournament"].slug, 1]), body)
    assert response.status_code < 500
    if response.status_code != 302:
        assert counts() == before
    seats = list(TableAssignment.objects.filter(series=world["series"]).values_list("table", "seat"))
    assert len(seats) == len(set(seats)) == 8


@FUZZ
@given(data=st.data())
def test_organiser_small_posts(handler, world, data):
    """The publish, draw and withdraw buttons with tampered values."""
    client = make_client(handler)
    client.force_login(world["organiser"])
    slug = world["tournament"].slug
    registration = world["tournament"].registrations.first()
    for url, body in (
        (reverse("tournaments:publish", args=[slug]), {"series": data.draw(field("", "1", "2", "9"))}),
        (
            reverse("tournaments:draw", args=[slug]),
            {
                "action": data.draw(field("all", "next", "one")),
                "series": data.draw(field("2", "3", "0")),
                "seed": data.draw(field("", "42", "-1")),
            },
        ),
        (
            reverse("tournaments:withdraw", args=[slug, registration.pk]),
            {"after_series": data.draw(field("", "1", "2", "3"))},
        ),
        (
            reverse("tournaments:register", args=[slug]),
            {"player": data.draw(field(str(world["players"][0].pk), "999999"))},
        ),
    ):
        response = client.post(url, body)
        assert response.status_code < 500, (url, body)


# --- regressions the fuzzing found ------------------------------------------


def test_referee_preview_of_a_number_past_the_next_deal(handler, world):
    client = make_client(handler)
    client.force_login(world["referee"])
    response = client.post(
        reverse("results:preview", args=[world["tournament"].slug, 1, 1]),
        {"number": "9", "version": "0", "line": "ac60"},
    )
    assert response.status_code < 500


def test_table_preview_of_a_number_past_the_next_deal(handler, world):
    client = scorer_client(handler, world)
    response = client.post(
        reverse("table:preview", args=[world["tournament"].slug, 1, 1]), {"number": "9", "version": "0", "line": "ac60"}
    )
    assert response.status_code < 500


@pytest.mark.parametrize("who", ["referee", "scorer"])
def test_values_beyond_the_integer_column(handler, world, who):
    if who == "referee":
        client = make_client(handler)
        client.force_login(world["referee"])
        url = reverse("results:protocol", args=[world["tournament"].slug, 1, 1])
    else:
        client = scorer_client(handler, world)
        url = reverse("table:save", args=[world["tournament"].slug, 1, 1])
    rows = protocol_of(world).rows.count()
    body = {"number": "2", "version": str(protocol_of(world).version), "line": "=2147483650,-2147483650,0,0"}
    assert client.post(url, body).status_code < 500
    assert protocol_of(world).rows.count() == rows
