"""A Redis cache that a stopped Redis slows down a little instead of breaking.

Everything the league keeps in the cache can be done without it: standings are
computed again from the database and sessions are ``cached_db``, read from the
database on a miss. So when Redis does not answer, ``ForgivingRedisCache``
answers every operation as a miss (a get finds nothing, a write stores nothing,
``incr`` finds no key) and logs a warning at most once every ``WARNING_SECONDS``
per process.

A write that does not reach Redis leaves the value before it readable there once
Redis answers again: a logged-out session would be logged in again, a changed one
would go back in time. So the keys of the writes missed are kept (at most
``STALE_KEPT`` per process) and deleted before anything else once Redis answers;
the database then has the last word. Another web process may read such a key in
the moment before the process that missed the write is back in touch.

Two things keep a dead Redis from making every page wait: the socket timeouts
are short (``SOCKET_TIMEOUT_SECONDS`` unless ``OPTIONS`` name others), and after
a failure the process leaves Redis alone for ``RETRY_SECONDS``, answering misses
at once, before it tries again. ``ping`` is the one call that does raise: the
health check (``/zdrowie/``) uses it to report the cache.

Values are kept as JSON (:class:`JSONSerializer`), never pickled: whoever can write to
Redis must not be able to run code in the web processes by planting a value. The app's values
are plain JSON by construction (``league.caching`` encodes each kind and decodes it back). No value
over ``MAX_VALUE_BYTES`` is stored (a warning names its key): one such value once filled
Redis, and with the memory limit of the compose file, evicted the sessions and the counts
of wrong PINs; whatever was too large is computed again instead.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError, OutOfMemoryError, ReadOnlyError, TimeoutError

logger = logging.getLogger(__name__)

T = TypeVar("T")

# Redis unreachable, too slow, refusing writes (a replica after a failover, memory full
# under ``noeviction``): each means "not cached" to the league. Other errors (a wrong
# type under a key, a bad command) are bugs and still raise.
UNAVAILABLE = (ConnectionError, TimeoutError, OutOfMemoryError, ReadOnlyError)
SOCKET_TIMEOUT_SECONDS = 0.25
RETRY_SECONDS = 2.0
WARNING_SECONDS = 60.0
STALE_KEPT = 10_000
MAX_VALUE_BYTES = 1_000_000


class TooLargeToCache(ValueError):
    """A value whose JSON is over ``MAX_VALUE_BYTES``."""


class _Outage:
    """When this process last found a Redis server down, when it last said so in the log,
    and the keys whose writes it missed meanwhile (``stale``)."""

    def __init__(self) -> None:
        self.down_until = 0.0
        self.warned_at = -WARNING_SECONDS
        self.stale: set[str] = set()
        self.lock = threading.Lock()

    def is_down(self) -> bool:
        return time.monotonic() < self.down_until

    def record(self, location: str, error: Exception) -> None:
        now = time.monotonic()
        with self.lock:
            self.down_until = now + RETRY_SECONDS
            if now - self.warned_at < WARNING_SECONDS:
                return
            self.warned_at = now
        logger.warning("Cache %s unavailable, working without it: %s: %s", location, type(error).__name__, error)

    def missed(self, location: str, keys: list[str]) -> None:
        with self.lock:
            room = STALE_KEPT - len(self.stale)
            self.stale.update(keys[:room])
        if room > 0 and len(keys) > room:  # said once, when the store fills up
            logger.warning("Cache %s: too many missed writes to keep; the rest stay until they expire", location)

    def take_stale(self) -> list[str]:
        with self.lock:
            keys, self.stale = list(self.stale), set()
        return keys


# Django makes a cache object per thread; the outage of one server is shared by all of them.
_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage_of(location: str) -> _Outage:
    with _outages_lock:
        return _outages.setdefault(location, _Outage())


class JSONSerializer:
    """Django's Redis serializer with JSON in place of pickle.

    Whole numbers are stored as Redis integers, as Django's own serializer stores them,
    so that ``incr`` works (the PIN counters). Anything else must be plain JSON already
    (``league.caching`` encodes the app's values so). A value this serializer did not write
    (a pickle planted in Redis, junk) reads as nothing, never as code to run.
    """

    def dumps(self, obj: Any) -> bytes | int:
        if type(obj) is int:
            return obj
        try:
            data = json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()
        except (TypeError, ValueError) as error:
            raise TypeError(f"A {type(obj).__name__} cannot be cached: the cache keeps JSON only") from error
        if len(data) > MAX_VALUE_BYTES:
            raise TooLargeToCache(f"{len(data)} bytes")
        return data

    def loads(self, data: bytes) -> Any:
        try:
            return int(data)
        except ValueError:
            pass
        try:
            return json.loads(data)
        except ValueError:  # not JSON (UnicodeDecodeError and JSONDecodeError are ValueErrors)
            logger.warning("Cache: a value that is not JSON was found and ignored")
            return None


class ForgivingRedisCache(RedisCache):
    """Django's Redis cache, answering misses while Redis is unavailable (see the module)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        # Django hands OPTIONS to the connection pool, i.e. to each redis-py connection.
        self._options = {
            "socket_connect_timeout": SOCKET_TIMEOUT_SECONDS,
            "socket_timeout": SOCKET_TIMEOUT_SECONDS,
            "serializer": JSONSerializer,
            **self._options,
        }
        self._outage = _outage_of(",".join(self._servers))

    def _forgiving(
        self, operation: Callable[[], T], miss: T, *, writes: Iterable[str] = (), version: int | None = None
    ) -> T:
        """``operation()``, or ``miss`` when Redis is (or was a moment ago) unavailable;
        the keys in ``writes`` are then kept to be deleted once it answers again."""
        location = ",".join(self._servers)
        if not self._outage.is_down():
            stale = self._outage.take_stale()
            try:
                if stale:
                    self._cache.delete_many(stale)
                return operation()
            except UNAVAILABLE as error:
                self._outage.record(location, error)
                self._outage.missed(location, stale)  # deleting a key twice does no harm
        self._outage.missed(location, [self.make_key(key, version) for key in writes])
        return miss

    def unavailable(self) -> bool:
        """Whether this process found Redis unavailable within the last ``RETRY_SECONDS``: its
        operations then answer misses (``league.net`` counts tries in the database meanwhile)."""
        return self._outage.is_down()

    def ping(self) -> None:
        """Ask the server for an answer; raises the redis-py error when there is none."""
        self._cache.get_client(None, write=True).ping()

    def _too_large(self, key: str, error: TooLargeToCache) -> None:
        logger.warning("Cache: %s not stored, its value is too large (%s)", key, error)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None) -> bool:
        try:
            return self._forgiving(lambda: RedisCache.add(self, key, value, timeout, version), False)
        except TooLargeToCache as error:
            self._too_large(key, error)
            return False

    def get(self, key, default=None, version=None) -> Any:
        return self._forgiving(lambda: RedisCache.get(self, key, default, version), default)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None) -> bool | None:
        try:
            return self._forgiving(
                lambda: RedisCache.set(self, key, value, timeout, version), False, writes=[key], version=version
            )
        except TooLargeToCache as error:
            self._too_large(key, error)
            self.delete(key, version)  # the value it was to replace must not be read in its place
            return False

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None) -> bool:
        return self._forgiving(lambda: RedisCache.touch(self, key, timeout, version), False)

    def delete(self, key, version=None) -> bool:
        return self._forgiving(lambda: RedisCache.delete(self, key, version), False, writes=[key], version=version)

    def get_many(self, keys, version=None) -> dict[str, Any]:
        return self._forgiving(lambda: RedisCache.get_many(self, keys, version), {})

    def has_key(self, key, version=None) -> bool:
        return self._forgiving(lambda: RedisCache.has_key(self, key, version), False)

    def incr(self, key, delta=1, version=None) -> int:
        """As for a missing key, ``ValueError`` when Redis is unavailable (``decr`` calls this too)."""
        missing = object()
        value = self._forgiving(lambda: RedisCache.incr(self, key, delta, version), missing)
        if value is missing:
            raise ValueError(f"Key '{key}' not found (cache unavailable).")
        return value

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None) -> list[str]:
        # Django's contract: the keys that were not stored
        try:
            return self._forgiving(
                lambda: RedisCache.set_many(self, data, timeout, version), list(data), writes=data, version=version
            )
        except TooLargeToCache:  # then one by one, so the others are stored
            return [key for key, value in data.items() if self.set(key, value, timeout, version) is False]

    def delete_many(self, keys, version=None) -> None:
        self._forgiving(lambda: RedisCache.delete_many(self, keys, version), None, writes=keys, version=version)

    def clear(self) -> bool:
        return self._forgiving(lambda: RedisCache.clear(self), False)
