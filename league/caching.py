"""What the league keeps in Django's cache, and the one way it is kept.

Every value the app caches is of a **kind** (:class:`CacheKind`): a Python type written once
where that value is cached (a tournament's standing lists, a page laid out for every web
process, the records' share of one tournament…). A kind encodes its values into plain JSON
types (``msgspec.to_builtins``: dataclasses become objects, tuples arrays, dates ISO text,
numbers as keys text) and decodes what it reads back into its type, checking the shape on the
way (``msgspec.convert``). The cache (Redis in production, ``league.cache_backend``) therefore
only ever holds JSON, whichever the backend, and the in-process cache of the embedded default
holds the same plain values, so both configurations read what production reads.

A value that does not decode — junk, a truncated write, a pickle planted in Redis, or a value
an older version of the app kept under the same key in another shape — is a **miss**, never an
error: the figure is computed again from the database and written over it. Counters (the
limits on PIN tries and sign-ups) are whole numbers, kept by ``league.net``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

import msgspec
from django.core.cache import cache

logger = logging.getLogger(__name__)

T = TypeVar("T")
V = TypeVar("V")

DAY_SECONDS = 24 * 60 * 60  # a value of an older state is never served (``StampedKind``), so long is safe
# One web process computes a missing value while the others wait for it, at most this long;
# the lock of a process that died while computing lapses after BUILD_SECONDS.
WAIT_SECONDS, BUILD_SECONDS, POLL_SECONDS = 10.0, 60, 0.05

KINDS: dict[str, CacheKind[Any]] = {}
"""Every kind the app caches, by name: the tests round-trip and spoil each of them."""


class CacheKind(Generic[T]):
    """One kind of value kept in the cache: its ``name`` (unique, for the tests and the log)
    and its Python ``type``, which every value is encoded from and decoded to."""

    def __init__(self, name: str, type_: Any) -> None:
        if name in KINDS:
            raise ValueError(f"Cache kind {name!r} is defined twice")
        self.name = name
        self.type = type_
        KINDS[name] = self

    def __repr__(self) -> str:
        return f"CacheKind({self.name!r})"

    def encode(self, value: T) -> Any:
        """``value`` as plain JSON types."""
        return msgspec.to_builtins(value, str_keys=True)

    def decode(self, raw: Any) -> T | None:
        """What the cache held, as this kind's type; ``None`` (a miss) when it is not one."""
        if raw is None:
            return None
        try:
            return msgspec.convert(raw, self.type, strict=False)
        except (msgspec.ValidationError, TypeError, ValueError):
            logger.warning("Cache: a %s value of another shape was found and ignored", self.name)
            return None

    def get(self, key: str) -> T | None:
        return self.decode(cache.get(key))

    def get_many(self, keys: Iterable[str]) -> dict[str, T]:
        """The values found under ``keys`` in one round trip; a key missing or unreadable is left out."""
        found = {key: self.decode(raw) for key, raw in cache.get_many(list(keys)).items()}
        return {key: value for key, value in found.items() if value is not None}

    def set(self, key: str, value: T, seconds: int = DAY_SECONDS) -> None:
        cache.set(key, self.encode(value), seconds)

    def set_many(self, values: Mapping[str, T], seconds: int = DAY_SECONDS) -> None:
        cache.set_many({key: self.encode(value) for key, value in values.items()}, seconds)

    def once(
        self,
        key: str,
        build: Callable[[], T],
        seconds: int = DAY_SECONDS,
        *,
        current: Callable[[T], bool] | None = None,
    ) -> T:
        """The value under ``key``, computed by ``build()`` and cached when missing (or not
        ``current``: :class:`StampedKind`): by one web process at a time. A series closing under
        load makes every process miss at once; the first takes a lock in the cache and computes,
        the others wait for its value (up to ``WAIT_SECONDS``) instead of computing the same lists
        again. Without the cache (Redis down, or the value too large to keep) everyone computes
        for themselves.
        """
        value = self.get(key)
        if value is not None and (current is None or current(value)):
            return value
        lock = f"{key}:building"
        if not cache.add(lock, 1, BUILD_SECONDS):
            deadline = time.monotonic() + WAIT_SECONDS
            while cache.has_key(lock) and time.monotonic() < deadline:
                time.sleep(POLL_SECONDS)
                value = self.get(key)
                if value is not None and (current is None or current(value)):
                    return value
        try:
            value = build()
            self.set(key, value, seconds)
        finally:
            cache.delete(lock)
        return value


class StampedKind(CacheKind[tuple[str, V]], Generic[V]):
    """A kind kept under one key per thing (a tournament, a season, a player), with the stamp of
    the state it was built from beside it (``league.standings.refresh``). A value of an older
    state is a miss, and the new state's value is written over it: a correction leaves nothing
    behind in the cache, where a key naming the stamp left the old state's values for a day."""

    def __init__(self, name: str, type_: Any) -> None:
        super().__init__(name, tuple[str, type_])

    def current(self, key: str, stamp: str, build: Callable[[], V], seconds: int = DAY_SECONDS) -> V:
        """The value under ``key`` if it was built for ``stamp``; else ``build()``, kept over it."""
        return self.once(key, lambda: (stamp, build()), seconds, current=lambda kept: kept[0] == stamp)[1]

    def current_many(self, stamps: Mapping[str, str]) -> dict[str, V]:
        """The values under the keys of ``stamps`` (key → stamp) built for their stamp, in one
        round trip; the others are left out."""
        return {key: value for key, (stamp, value) in self.get_many(stamps).items() if stamp == stamps[key]}


WORKER_PING: CacheKind[str] = CacheKind("worker-ping", str)
"""What a Celery worker leaves in the cache on ``league.ping``: proof it took a task off the broker."""
