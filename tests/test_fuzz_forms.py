"""Random input to every form a person fills in: never a server error, and a refused form writes nothing.

The forms: the calculator (GET), the referee's deal entry (shorthand line and
the full deal form), the table scorer's entry, the organiser's quick add,
player add, tournament create and the draw's swap. What the person who sent
the form would notice: a redirect means the input was accepted, and then it
really was saved; any other response means it was refused, and then nothing
was written and the page says why, in Polish (the clients ask for Polish, so an
error message that skipped translation shows up in English).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import django
import polib
import pytest
from django.contrib.auth.models import Permission
from django.contrib.messages import constants as message_levels
from django.contrib.messages import get_messages
from django.db.models import Sum
from django.forms import BaseForm
from django.test import Client
from django.test.utils import ContextList
from django.urls import reverse
from django.utils.html import escape
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
    table_protocols,
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
    """The rows of every table a form may write, and the protocols' versions (each write bumps one)."""
    return {
        **{model.__name__: model.objects.count() for model in COUNTED},
        "protocol versions": Protocol.objects.aggregate(total=Sum("version"))["total"] or 0,
    }


# --- what the user reads ------------------------------------------------------

CATALOGUES = [
    Path(__file__).resolve().parent.parent / "locale" / "pl" / "LC_MESSAGES" / "django.po",
    # the form fields' own messages ("Enter a whole number.") come from Django's catalogue
    Path(django.__file__).parent / "conf" / "locale" / "pl" / "LC_MESSAGES" / "django.po",
]
PLACEHOLDER = re.compile(r"%\(\w+\)[sdrf]|%[sdrf]|\{\w*\}")


def polish_texts() -> tuple[set[str], list[re.Pattern[str]]]:
    """Every Polish message of the catalogues: the fixed ones, and patterns for those with placeholders."""
    fixed, patterns = set(), []
    for path in CATALOGUES:
        for entry in polib.pofile(str(path)).translated_entries():
            for text in entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]:
                if PLACEHOLDER.search(text):
                    pieces = [re.escape(piece) for piece in PLACEHOLDER.split(text)]
                    patterns.append(re.compile("(?s:.*?)".join(pieces)))
                else:
                    fixed.add(text)
    return fixed, patterns


POLISH = polish_texts()


def is_polish(message: str) -> bool:
    fixed, patterns = POLISH
    return message in fixed or any(pattern.fullmatch(message) for pattern in patterns)


def form_errors(response) -> tuple[list[str], list[str]]:
    """The error messages of every form the page was rendered with: those a person can
    see (visible fields and the form as a whole, of a form the page shows), and the others:
    hidden fields and forms the page does not offer, which only a tampered request sends."""
    contexts = response.context if isinstance(response.context, ContextList) else [response.context]
    forms = {
        id(value): value
        for context in contexts
        if context is not None
        for value in context.flatten().values()
        if isinstance(value, BaseForm)
    }
    html = response.content.decode()
    visible, hidden = [], []
    for form in forms.values():
        shown = any(f'name="{field.html_name}"' in html for field in form.visible_fields())
        for name, errors in form.errors.items():
            field = form.fields.get(name)
            (hidden if not shown or (field is not None and field.widget.is_hidden) else visible).extend(errors)
    return visible, hidden


def assert_errors_are_shown_in_polish(response, *, required: bool) -> None:
    """Each error a person can see is on the page and translated; ``required``: a refusal says why."""
    visible, hidden = form_errors(response)
    html = response.content.decode()
    assert visible or hidden or not required, f"refused without saying why: {html[:2000]}"
    for message in visible:
        assert escape(message) in html, f"an error the page does not show: {message!r}"
        assert is_polish(message), f"an error shown untranslated: {message!r}"


def unchanged(before: dict[str, int]) -> Callable[[], bool]:
    return lambda: counts() == before


def version_moved(protocol: Protocol) -> Callable[[], bool]:
    """The protocol was written: its version went up from the one read before the request."""
    return lambda: Protocol.objects.get(pk=protocol.pk).version > protocol.version


def one_more(model: type, before: dict[str, int]) -> Callable[[], bool]:
    return lambda: model.objects.count() == before[model.__name__] + 1


def paper_totals_kept(response, form_name: str, before: dict[str, int], protocol: Protocol) -> dict[str, int]:
    """The totals form records the paper's totals even when they do not complete the protocol
    (the page then shows paper minus screen): such a refusal wrote those four numbers and
    nothing else. Returns the counts a refusal must leave."""
    if response.status_code == 302 or counts() == before:
        return before
    assert counts() == {**before, "protocol versions": before["protocol versions"] + 1}
    typed = response.context[form_name].cleaned_data
    assert Protocol.objects.get(pk=protocol.pk).declared_totals == {seat: typed[seat] for seat in "ABCD"}
    return counts()


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
    client = Client(raise_request_exception=False, headers={"Accept-Language": "pl"})
    client.handler = handler
    return client


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

    Bye.objects.create(series=series, player=players[8])
    protocol = table_protocols(series)[0]
    services.protocol_row_save(
        protocol=protocol,
        number=1,
        deal={"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60},
        expected_version=protocol.version,
        user=referee,
    )
    return {"tournament": tournament, "series": series, "organiser": organiser, "referee": referee, "players": players}


def protocol_of(world, table: int = 1) -> Protocol:
    return Protocol.objects.get(series=world["series"], table=table)


def check(response, before: dict[str, int], *, saved: Callable[[], bool], explained: bool = True) -> None:
    """Never a server error; accepted (a redirect): ``saved`` holds; refused: nothing was
    written and the form says why in Polish (``explained=False`` where a form may come back
    without an error, e.g. a preview of an empty line)."""
    assert response.status_code < 500, response.content[:2000]
    if response.status_code == 302:
        assert saved(), "the form was accepted but nothing was saved"
    else:
        assert counts() == before, "a refused form changed the database"
        assert_errors_are_shown_in_polish(response, required=explained)


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
    response = client.post(reverse("results:protocol", args=[slug, 1, 1]), body)
    check(response, before, saved=version_moved(protocol))
    protocol, before = protocol_of(world), counts()
    response = client.post(reverse("results:correct", args=[slug, 1, 1, 1]), {**body, "reason": data.draw(texts)})
    check(response, before, saved=version_moved(protocol))


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
    response = client.post(reverse("results:protocol", args=[world["tournament"].slug, 1, 2]), body)
    check(response, before, saved=version_moved(protocol))


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
    check(
        client.post(reverse("results:preview", args=[slug, 1, 1]), body),
        before,
        saved=unchanged(before),
        explained=False,
    )
    assert counts() == before, "a preview wrote"
    totals = {seat: data.draw(numbers) for seat in "ABCD"}
    totals["version"] = data.draw(st.one_of(st.just(str(protocol.version)), numbers))
    response = client.post(reverse("results:totals", args=[slug, 1, 1]), totals)
    before = paper_totals_kept(response, "totals_form", before, protocol)
    check(response, before, saved=version_moved(protocol))
    protocol, before = protocol_of(world), counts()
    body = {"seat": data.draw(field(*SEATS)), "version": data.draw(numbers)}
    check(client.post(reverse("results:confirm", args=[slug, 1, 1]), body), before, saved=version_moved(protocol))


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
    previewing = url.endswith("/podglad/")
    saved = unchanged(before) if previewing else version_moved(protocol)
    check(client.post(url, body), before, saved=saved, explained=not previewing)


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
    response = client.post(reverse("table:finish", args=[slug, 1, 1]), totals)
    before = paper_totals_kept(response, "totals_form", before, protocol)
    check(response, before, saved=version_moved(protocol))
    protocol, before = protocol_of(world), counts()
    body = {"seat": data.draw(field(*SEATS)), "version": data.draw(numbers)}
    check(client.post(reverse("table:confirm", args=[slug, 1, 1]), body), before, saved=version_moved(protocol))
    protocol, before = protocol_of(world), counts()
    response = client.post(reverse("table:delete", args=[slug, 1, 1, 1]), {"version": data.draw(numbers)})
    assert response.status_code == 302  # refused or not, the scorer goes back to the protocol
    if counts() != before:  # deleted: the one deal of the protocol, nothing else
        assert counts() == {
            **before,
            "DealRow": before["DealRow"] - 1,
            "protocol versions": counts()["protocol versions"],
        }
        assert version_moved(protocol)() and not protocol_of(world).rows.filter(number=1).exists()


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
    response = client.post(reverse("tournaments:quick_add", args=[world["tournament"].slug]), body)
    check(response, before, saved=one_more(Registration, before))


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
    check(client.post(reverse("players:player_add"), body), before, saved=one_more(Player, before))


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
    check(client.post(reverse("tournaments:create"), body), before, saved=one_more(Tournament, before))


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
    before, places = counts(), places_in(world["series"])
    response = client.post(reverse("tournaments:swap", args=[world["tournament"].slug, 1]), body)

    def swapped() -> bool:
        a, b = int(body["swap1-player_a"]), int(body["swap1-player_b"])
        return places_in(world["series"]) == {**places, a: places[b], b: places[a]} and one_more(DrawLog, before)()

    check(response, before, saved=swapped)
    seats = list(TableAssignment.objects.filter(series=world["series"]).values_list("table", "seat"))
    assert len(seats) == len(set(seats)) == 8


def places_in(series: Series) -> dict[int, tuple[int, str] | str]:
    """Where each player of the series is: a (table, seat), or "bye"."""
    places: dict[int, tuple[int, str] | str] = {
        player: (table, seat)
        for player, table, seat in TableAssignment.objects.filter(series=series).values_list("player", "table", "seat")
    }
    places.update(dict.fromkeys(series.byes.values_list("player", flat=True), "bye"))
    return places


@FUZZ
@given(data=st.data())
def test_organiser_small_posts(handler, world, data):
    """The publish, draw, withdraw and register buttons with tampered values: the messages they
    leave for the next page are in Polish, and one that reports an error has written nothing."""
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
        client.cookies.pop("messages", None)  # only this request's messages
        before = counts()
        response = client.post(url, body)
        assert response.status_code < 500, (url, body)
        shown = list(get_messages(response.wsgi_request))
        for message in shown:
            assert is_polish(str(message)), f"a message shown untranslated: {message}"
        if any(message.level == message_levels.ERROR for message in shown):
            assert counts() == before, (url, body)


# --- regressions the fuzzing found ------------------------------------------


def test_referee_preview_of_a_number_past_the_next_deal(handler, world):
    client = make_client(handler)
    client.force_login(world["referee"])
    before = counts()
    response = client.post(
        reverse("results:preview", args=[world["tournament"].slug, 1, 1]),
        {"number": "9", "version": "0", "line": "ac60"},
    )
    assert response.status_code == 200
    assert counts() == before
    assert_errors_are_shown_in_polish(response, required=True)


def test_table_preview_of_a_number_past_the_next_deal(handler, world):
    client = scorer_client(handler, world)
    before = counts()
    response = client.post(
        reverse("table:preview", args=[world["tournament"].slug, 1, 1]), {"number": "9", "version": "0", "line": "ac60"}
    )
    assert response.status_code == 200
    assert counts() == before
    assert_errors_are_shown_in_polish(response, required=True)


@pytest.mark.parametrize("who", ["referee", "scorer"])
def test_values_beyond_the_integer_column(handler, world, who):
    if who == "referee":
        client = make_client(handler)
        client.force_login(world["referee"])
        url = reverse("results:protocol", args=[world["tournament"].slug, 1, 1])
    else:
        client = scorer_client(handler, world)
        url = reverse("table:save", args=[world["tournament"].slug, 1, 1])
    before = counts()
    body = {"number": "2", "version": str(protocol_of(world).version), "line": "=2147483650,-2147483650,0,0"}
    response = client.post(url, body)
    assert response.status_code == 200
    assert counts() == before
    assert_errors_are_shown_in_polish(response, required=True)


# --- and what a valid form does ------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    [{"line": "ac60"}, {"full-contract": "zwykla", "full-old": ["A", "C"], "full-old_eyes": "60"}],
    ids=["shorthand", "full form"],
)
def test_a_valid_deal_from_the_referee_is_saved_and_shown(handler, world, typed):
    client = make_client(handler)
    client.force_login(world["referee"])
    protocol = protocol_of(world, 2)
    url = reverse("results:protocol", args=[world["tournament"].slug, 1, 2])
    response = client.post(url, {"number": "1", "version": str(protocol.version), **typed})
    assert response.status_code == 302
    row = protocol_of(world, 2).rows.get(number=1)
    assert row.deal == {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}
    page = client.get(url).content.decode()
    assert "gra zwykła" in page and "60 oczek" in page


def test_a_valid_deal_from_the_table_is_saved(handler, world):
    client = scorer_client(handler, world, table=2)
    protocol = protocol_of(world, 2)
    response = client.post(
        reverse("table:save", args=[world["tournament"].slug, 1, 2]),
        {"number": "1", "version": str(protocol.version), "line": "ac60"},
    )
    assert response.status_code == 302
    assert protocol_of(world, 2).rows.get(number=1).deal == {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}


def test_a_valid_new_player_is_saved(handler, world):
    client = make_client(handler)
    client.force_login(world["organiser"])
    club = Club.objects.first()
    body = {"first_name": "Jan", "last_name": "Formela", "gender": "M", "club": str(club.pk), "active": "on"}
    response = client.post(reverse("players:player_add"), body)
    assert response.status_code == 302
    assert Player.objects.filter(first_name="Jan", last_name="Formela", gender="M", club=club, active=True).exists()
