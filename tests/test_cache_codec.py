"""One codec for everything the app caches (``league.caching``): every kind round-trips through
the JSON Redis keeps, and anything else found under a key reads as a miss.

Production keeps the cache in Redis as JSON; the embedded default keeps it in the process. The
records page answered 500 under Redis for every visitor (a dataclass the JSON cache refused) while
every test, on the in-process cache, saw 200: here each kind goes through the very serializer
production uses, whatever cache the tests run with.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import types
import typing
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.cache_backend import JSONSerializer
from league.caching import KINDS, CacheKind
from tests.caches import SPOILED

ROOT = Path(__file__).resolve().parent.parent


def _modules_defining_kinds() -> list[str]:
    modules = []
    for path in sorted((ROOT / "league").rglob("*.py")):
        if re.search(r"\bCacheKind\(\s*\"", path.read_text()) and path.name != "caching.py":
            modules.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return modules


for _module in _modules_defining_kinds():
    importlib.import_module(_module)


def strategy_for(kind_type: typing.Any) -> st.SearchStrategy:
    """Values of ``kind_type``, as the app's kinds spell their types."""
    origin, args = typing.get_origin(kind_type), typing.get_args(kind_type)
    if kind_type is typing.Any:
        return st.one_of(st.none(), st.integers(-1000, 1000), st.text(max_size=8))
    if kind_type is type(None):
        return st.none()
    if kind_type is bool:
        return st.booleans()
    if kind_type is int:
        return st.integers(-(2**53), 2**53)
    if kind_type is float:
        return st.floats(allow_nan=False, allow_infinity=False)
    if kind_type is str:
        return st.text(max_size=12)
    if kind_type is bytes:
        return st.binary(max_size=40)
    if kind_type is datetime:
        return st.datetimes(timezones=st.just(UTC))
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(strategy_for(arg) for arg in args))
    if origin is list:
        return st.lists(strategy_for(args[0]), max_size=3)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(strategy_for(args[0]), max_size=3).map(tuple)
        return st.tuples(*(strategy_for(arg) for arg in args))
    if origin is dict:
        return st.dictionaries(strategy_for(args[0]), strategy_for(args[1]), max_size=3)
    if typing.is_typeddict(kind_type):
        hints = typing.get_type_hints(kind_type)
        required = {name: strategy_for(hints[name]) for name in kind_type.__required_keys__}
        optional = {name: strategy_for(hints[name]) for name in kind_type.__optional_keys__}
        return st.fixed_dictionaries(required, optional=optional)
    if dataclasses.is_dataclass(kind_type):
        hints = typing.get_type_hints(kind_type)
        return st.builds(kind_type, **{f.name: strategy_for(hints[f.name]) for f in dataclasses.fields(kind_type)})
    if typing.get_origin(kind_type) is typing.NotRequired:
        return strategy_for(args[0])
    raise TypeError(f"no strategy for {kind_type!r}: teach strategy_for this type")


def through_redis(kind: CacheKind, value: object) -> object:
    """``value`` written as production writes it and read back."""
    serializer = JSONSerializer()
    return kind.decode(serializer.loads(serializer.dumps(kind.encode(value))))


def test_every_kind_the_app_caches_is_found():
    """The kinds are found by reading the code: a kind in a module this test does not import
    would escape the round trip."""
    assert {"tournament-rankings", "season-rankings", "record-lists", "record-part", "shared-page"} <= set(KINDS)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_round_trips_through_the_json_production_keeps(name: str):
    kind = KINDS[name]

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(strategy_for(kind.type))
    def round_trip(value):
        assert through_redis(kind, value) == value

    round_trip()


@pytest.mark.parametrize("name", sorted(KINDS))
@pytest.mark.parametrize("junk", SPOILED.values(), ids=list(SPOILED))
def test_whatever_else_is_under_a_key_reads_as_a_miss(name: str, junk: bytes):
    kind = KINDS[name]
    try:
        found = JSONSerializer().loads(junk)
    except ValueError:
        found = None
    assert kind.decode(found) is None or name == "worker-ping" and isinstance(found, str)


def test_a_value_that_is_no_json_is_refused_by_productions_serializer():
    """What a kind did not encode (a dataclass handed to the cache as it is) fails in every test
    configuration, not only where Redis is the cache."""

    @dataclasses.dataclass
    class Line:
        name: str

    with pytest.raises(TypeError, match="cache keeps JSON only"):
        JSONSerializer().dumps([Line("Kowalski")])


def test_only_the_codec_the_counters_and_the_health_check_touch_the_cache():
    """Every value the app caches goes through ``league.caching`` (its kinds); the counters of
    tries (``league.net``) keep whole numbers, the health check pings, the backend is the cache."""
    allowed = {
        "league/caching.py",
        "league/cache_backend.py",
        "league/net.py",
        "league/health.py",
        "league/settings.py",
    }
    users = {
        str(path.relative_to(ROOT))
        for folder in ("league", "players", "scoring")
        for path in (ROOT / folder).rglob("*.py")
        if re.search(r"^from django\.core\.cache import|^import django\.core\.cache", path.read_text(), re.M)
    }
    assert users <= allowed, f"modules using the cache past league.caching: {sorted(users - allowed)}"
