"""What the tests read of the cache beside what the app reads: its keys, whichever the backend
(the in-process cache of the embedded default, or Redis in CI's deployed configuration), and a
way to write any bytes under a key, as a stale version or an attacker could."""

from __future__ import annotations

import json
import pickle
from typing import Any

from django.core.cache import cache, caches

from league.cache_backend import ForgivingRedisCache

SPOILED = {
    "bytes": b"\x80\x04\x95\x00junk",
    "truncated JSON": b'{"individual": [{"pk": 1, "pla',
    "a pickle": pickle.dumps({"individual": [("Kowalski", 1)]}),
    "the version before's tagged JSON": json.dumps({"\u0000type": "tuple", "items": [1, "x"]}).encode(),
    "another shape": b'{"individual": [{"pk": "x"}], "teams": 3}',
    "a text": b'"text"',
    "null": b"null",
    "a list of lists": b"[[1]]",
}
"""What a cache may hold under any key that the app did not write there as it reads it now: junk,
a truncated write, a planted pickle, a value of the version before or of another shape."""


def redis_in_use() -> bool:
    return isinstance(caches["default"], ForgivingRedisCache)


def _client():
    return cache._cache.get_client(write=True)


def cache_keys() -> list[str]:
    """Every key the app has in the cache, as the app names them (without Django's prefix)."""
    prefix = cache.make_key("")
    if redis_in_use():
        raw = [key.decode() for key in _client().scan_iter(match=f"{prefix}*")]
    else:
        raw = list(cache._cache)
    return [key[len(prefix) :] for key in raw if key.startswith(prefix)]


def cache_size() -> int:
    return len(cache_keys())


def cache_raw_set(key: str, value: bytes | Any) -> None:
    """Put ``value`` under ``key`` past the app's codec and the backend's serializer: bytes as they
    are in Redis; in the in-process cache, the object itself (it pickles what it keeps)."""
    if redis_in_use():
        _client().set(cache.make_key(key), value if isinstance(value, bytes) else pickle.dumps(value))
    else:
        cache._cache[cache.make_key(key)] = pickle.dumps(value)
        cache._expire_info[cache.make_key(key)] = None
