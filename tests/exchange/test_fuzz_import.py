"""Mutated exchange files: the import either succeeds or names the place of the problem, and then writes nothing.

The two example files of ``tests/exchange/files`` are mutated (keys dropped,
values of the wrong type, numbers out of range, unicode garbage, deals changed
field by field) and fed to :func:`league.exchange.import_tournament` and to the
``import_tournament`` command. Any exception other than :class:`ExchangeError`
(or the command's ``CommandError``) is a bug, and so is a refused file that left
a row behind.
"""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from league.exchange import ExchangeError, import_tournament

pytestmark = pytest.mark.django_db

FILES = Path(__file__).parent / "files"
EXAMPLES = {
    name: json.loads((FILES / f"{name}.json").read_text(encoding="utf-8"))
    for name in ("interfaces_example", "small_puck")
}

FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,  # the same files on every run and on both databases
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


def counts() -> dict[str, int]:
    return {
        model._meta.label: model.objects.count()
        for label in ("league", "players", "results")
        for model in apps.get_app_config(label).get_models(include_auto_created=True)
    }


# --- mutations ----------------------------------------------------------------

garbage_text = st.one_of(
    st.text(max_size=12),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=61, max_size=200),  # longer than any column
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "Kasz\x00ëbë",
            "\ud800",
            "A\u0301",
            "𝔞𝔟",
            "\u202eRTL",
            "2026-02-30",
            "best0",
            "best",
            "sum ",
            "puck ",
            "Ⅻ",
        ]
    ),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=70),
    st.sampled_from([-1, 0, 2**15, 2**16, 2**31, 2**63, 10**30, -(2**31) - 1]),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    garbage_text,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=8,
)
SEAT_KEYS = ["A", "B", "C", "D", "E", "a"]
deal_fields = {
    "contract": st.one_of(
        st.sampled_from(
            ["zwykla", "wesele", "cicha", "zolo", "gran", "zolo_du", "gran_du", "zolo_bieda", "mester", "baska"]
        ),
        scalars,
    ),
    "old": st.one_of(st.lists(st.sampled_from(SEAT_KEYS), max_size=4), scalars),
    "old_eyes": st.one_of(st.integers(min_value=-5, max_value=130), scalars),
    "kontras": st.one_of(st.lists(st.sampled_from(["young", "old", "m", 1]), max_size=5), scalars),
    "winner": st.one_of(st.sampled_from(["old", "young"]), scalars),
    "level": st.one_of(st.sampled_from(["z_wyjsciem", "bez_wyjscia", "bez_bitki"]), scalars),
    "misplay": st.one_of(st.sampled_from(SEAT_KEYS), scalars),
    "laid_down": scalars,
    "bok_round": scalars,
    "values": st.one_of(
        st.fixed_dictionaries({s: st.integers(min_value=-50, max_value=50) for s in "ABCD"}),
        st.builds(
            lambda v: {"A": v, "B": -v, "C": 0, "D": 0}, st.sampled_from([5, 10**6, 2**31, 2**31 - 5, 2**63, 10**30])
        ),
        json_values,
    ),
}
deals = st.one_of(
    st.fixed_dictionaries({}, optional=deal_fields),
    st.fixed_dictionaries(
        {"contract": st.just("zwykla"), "old": st.just(["A", "C"])},
        optional={"old_eyes": deal_fields["old_eyes"], "kontras": deal_fields["kontras"]},
    ),
    json_values,
)


def locations(doc: Any, path: tuple = ()) -> list[tuple]:
    """Every place in the document: the path to each value (not the root)."""
    places = []
    if isinstance(doc, dict):
        items = doc.items()
    elif isinstance(doc, list):
        items = enumerate(doc)
    else:
        return places
    for key, value in items:
        places.append((*path, key))
        places += locations(value, (*path, key))
    return places


def parent_of(doc: Any, path: tuple) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


@st.composite
def mutated(draw, name: str | None = None) -> tuple[str, Any]:
    name = name or draw(st.sampled_from(sorted(EXAMPLES)))
    doc = copy.deepcopy(EXAMPLES[name])
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        places = locations(doc)
        if not places:
            break
        deal_places = [p for p in places if "deals" in p]
        if deal_places and draw(st.booleans()):
            place = draw(st.sampled_from(deal_places))
        else:
            place = draw(st.sampled_from(places))
        parent, key = parent_of(doc, place), place[-1]
        operation = draw(st.sampled_from(["drop", "replace", "replace", "duplicate", "deal", "swap"]))
        if operation == "drop":
            del parent[key]
        elif operation == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif operation == "deal" and "deals" in place[:-1]:
            deal_list = parent_of(doc, place[: place.index("deals") + 2])
            index = place[place.index("deals") + 1]
            if isinstance(deal_list, list):
                deal_list[index] = draw(deals)
            else:
                parent[key] = draw(deals)
        elif operation == "swap":
            other = draw(st.sampled_from(places))
            try:
                parent[key] = copy.deepcopy(parent_of(doc, other)[other[-1]])
            except (KeyError, IndexError):  # the other place went with an earlier change
                parent[key] = draw(json_values)
        else:
            parent[key] = draw(json_values)
    return name, doc


# --- checks -------------------------------------------------------------------

_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def path_names_a_place(doc: Any, path: str) -> bool:
    """Whether the error's path leads into the document: every step but the last exists
    (the last may be the missing member itself, or a field inside a deal's values)."""
    steps = [int(index) if index else key for key, index in _TOKEN.findall(path)]
    node = doc
    for step in steps[:-1]:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return False
    return True


def try_import(doc: Any) -> ExchangeError | None:
    """Import inside a transaction that is rolled back either way; the refusal, or None."""
    before = counts()
    with transaction.atomic():
        try:
            tournament = import_tournament(doc)
        except ExchangeError as error:
            assert counts() == before, f"a refused file left rows behind ({error})"
            return error
        assert tournament.pk is not None
        transaction.set_rollback(True)
    return None


def test_the_examples_import():
    for doc in EXAMPLES.values():
        assert try_import(copy.deepcopy(doc)) is None


@FUZZ
@given(case=mutated())
def test_mutated_files_import_or_name_the_place(case):
    _name, doc = case
    error = try_import(doc)
    event("refused" if error else "imported")
    if error is not None:
        assert isinstance(error.path, str) and error.message
        assert path_names_a_place(doc, error.path), f"{error.path!r} is not a place in the file: {error}"


@FUZZ
@given(case=mutated("small_puck"), deal=deals, where=st.tuples(st.integers(0, 1), st.integers(0, 1)))
def test_any_deal_imports_or_names_the_deal(case, deal, where):
    _name, doc = case
    try:
        table = doc["series"][where[0]]["tables"][where[1]]
        table.setdefault("deals", []).append(deal)
    except (KeyError, IndexError, TypeError, AttributeError):
        pass  # the mutation already broke this part
    error = try_import(doc)
    event("refused" if error else "imported")
    if error is not None:
        assert path_names_a_place(doc, error.path), f"{error.path!r} is not a place in the file: {error}"


@FUZZ
@given(doc=json_values)
def test_not_a_tournament_at_all(doc):
    error = try_import(doc)
    assert error is not None


def _set(doc: Any, path: tuple, value: Any) -> None:
    parent_of(doc, path)[path[-1]] = value


# Found by the fuzzing above on PostgreSQL: each was a DataError from the database, not a refusal.
STORAGE_LIMITS = {
    "id longer than the column": (
        [
            (("players", 8, "id"), "i" * 61),
            (("series", 0, "byes"), ["i" * 61]),
            (("series", 1, "tables", 0, "seats", "A"), "i" * 61),
        ],
        "players[8].id",
    ),
    "team id longer than the column": (
        [(("teams", 0, "id"), "t" * 61)] + [(("players", i, "team"), "t" * 61) for i in range(4)],
        "teams[0].id",
    ),
    "table number beyond a small integer": (
        [(("series", 0, "tables", 0, "number"), 40000)],
        "series[0].tables[0].number",
    ),
    "values beyond an integer": (
        [(("series", 0, "tables", 1, "deals", 0, "values"), {"A": 2**31, "B": -(2**31), "C": 0, "D": 0})],
        "series[0].tables[1].deals[0].values.A",
    ),
    "values beyond 64 bits": (
        [(("series", 0, "tables", 1, "deals", 0, "values"), {"A": 2**63, "B": -(2**63), "C": 0, "D": 0})],
        "series[0].tables[1].deals[0].values.A",
    ),
    "NUL in a name": ([(("players", 0, "first_name"), "A\x00")], "players[0].first_name"),
    "NUL in a club": ([(("players", 8, "club"), "K\x00")], "players[8].club"),
    "lone surrogate in a venue": ([(("tournament", "venue"), "Puck \ud800")], "tournament.venue"),
}


@pytest.mark.parametrize("case", STORAGE_LIMITS)
def test_what_the_database_cannot_store_is_refused_by_name(case):
    doc = copy.deepcopy(EXAMPLES["small_puck"])
    changes, path = STORAGE_LIMITS[case]
    for place, value in changes:
        _set(doc, place, value)
    error = try_import(doc)
    assert error is not None and error.path == path, error


# --- the management command ---------------------------------------------------


@pytest.fixture
def exchange_file(tmp_path):
    return tmp_path / "turniej.json"


@settings(FUZZ, max_examples=15)
@given(case=mutated(), encoding=st.sampled_from(["utf-8", "utf-8", "utf-16", "latin-1"]), cut=st.integers(0, 40))
def test_the_command_imports_or_refuses(exchange_file, case, encoding, cut):
    _name, doc = case
    text = json.dumps(doc, ensure_ascii=False)
    if cut:
        text = text[:-cut]  # a file cut short
    exchange_file.write_bytes(text.encode(encoding, errors="replace"))
    before = counts()
    with transaction.atomic():
        try:
            call_command("import_tournament", str(exchange_file), stdout=io.StringIO())
        except CommandError:
            assert counts() == before
        transaction.set_rollback(True)


def test_the_command_refuses_a_missing_file(tmp_path):
    with pytest.raises(CommandError):
        call_command("import_tournament", str(tmp_path / "brak.json"))
