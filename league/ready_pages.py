"""Pages answered from their validators and kept ready in each web process.

The pages polled all evening (the public standings, the projector's pages, the
control room's tables) share one way of being answered cheaply: the view works
out the page's **ETag** (:func:`page_etag`) from the little that decides what
the page shows, a client whose copy is current gets a bodiless 304 before
anything is built (:func:`with_validators`), and a page that names no visitor
is built once per ETag and kept in a bounded store of this process
(:class:`LruStore`), already compressed (:class:`ReadyPage`,
:func:`ready_response`).

Each room keeps its own stores beside its views; what the public may see and
the standings' stamps stay in ``league.public``.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date, quote_etag

T = TypeVar("T")

GZIP_LEVEL = 6
ACCEPTS_GZIP = re.compile(r"\bgzip\b")


class LruStore(Generic[T]):
    """A thread-safe mapping that forgets its least recently used entries beyond ``size`` entries
    or, with ``weigh`` (an entry's bytes), beyond ``max_bytes`` together: a count alone let a few
    long seasons' pages hold a process's memory."""

    def __init__(self, size: int, *, max_bytes: int | None = None, weigh: Callable[[T], int] | None = None) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self._weigh = weigh
        self.bytes = 0
        self._entries: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[Hashable, threading.Lock] = {}  # one per key being built right now

    def get(self, key: Hashable) -> T | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: Hashable, value: T) -> None:
        with self._lock:
            if key in self._entries:
                self.bytes -= self._weight(self._entries[key])
            self._entries[key] = value
            self._entries.move_to_end(key)
            self.bytes += self._weight(value)
            # the newest entry stays even when it alone weighs more than the bound
            while len(self._entries) > self.size or (
                self.max_bytes is not None and self.bytes > self.max_bytes and len(self._entries) > 1
            ):
                _key, dropped = self._entries.popitem(last=False)
                self.bytes -= self._weight(dropped)

    def _weight(self, value: T) -> int:
        return self._weigh(value) if self._weigh is not None else 0

    def get_or_build(self, key: Hashable, build: Callable[[], T]) -> T:
        """The value under ``key``, built by ``build()`` and kept when missing: once, however
        many threads ask at the same moment (the others wait for it). When a series closes, every
        spectator's reload misses together; without this each thread would build the same page.
        """
        value = self.get(key)
        if value is not None:
            return value
        with self._lock:
            building = self._building.setdefault(key, threading.Lock())
        try:
            with building:
                value = self.get(key)
                if value is None:
                    value = build()
                    self.put(key, value)
        finally:  # a build that fails (a 404 for a made-up address) leaves nothing behind either
            with self._lock:
                if self._building.get(key) is building:
                    del self._building[key]
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._entries)


@dataclass(frozen=True)
class ReadyPage:
    """A rendered page with its validators, kept gzip-compressed only: a long season's table is
    1.8 MB of HTML and 64 KB compressed, and nearly every client takes gzip; the few that do not
    get it decompressed (:attr:`body`)."""

    etag: str
    last_modified: int
    gzipped: bytes
    headers: tuple[tuple[str, str], ...] = ()  # repeated on every answer (its type, a download's name)

    @classmethod
    def of(cls, *, etag: str, last_modified: int, body: bytes, headers: tuple[tuple[str, str], ...] = ()) -> ReadyPage:
        return cls(etag, last_modified, gzip.compress(body, GZIP_LEVEL, mtime=0), headers)

    @property
    def body(self) -> bytes:
        """The page as rendered, for a client that does not take gzip."""
        return gzip.decompress(self.gzipped)

    def weight(self) -> int:
        """What the page holds in memory, roughly: its compressed body."""
        return len(self.gzipped)


def field_values(instance: Model) -> tuple[object, ...]:
    """Every stored value of ``instance``'s own row (no related row is read), for a page's state."""
    return tuple(field.value_from_object(instance) for field in instance._meta.concrete_fields)


def page_etag(*variant: object) -> str:
    """The ETag of a page that depends on ``variant`` alone (everything that decides what it shows)."""
    return quote_etag(hashlib.blake2b(repr(variant).encode(), digest_size=12).hexdigest())


def with_validators(request: HttpRequest, response: HttpResponse, *, etag: str, last_modified: int) -> HttpResponse:
    """``response`` carrying the page's ETag and date, or a bodiless 304 when the client's copy is current."""
    response["ETag"] = etag
    response["Last-Modified"] = http_date(last_modified)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return get_conditional_response(request, etag=etag, last_modified=last_modified, response=response)


def ready_response(request: HttpRequest, page: ReadyPage, response: HttpResponse) -> HttpResponse:
    """``response`` (varied on Accept-Encoding by the caller) carrying ``page``, compressed if the client takes gzip."""
    if ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response.content = page.gzipped
        response["Content-Encoding"] = "gzip"  # gzip_page leaves an encoded response alone
    else:
        response.content = page.body
    return response


def answer_ready(
    request: HttpRequest,
    store: LruStore[ReadyPage],
    key: Hashable,
    build: Callable[[], ReadyPage],
    response: HttpResponse | None = None,
) -> HttpResponse:
    """The page kept under ``key`` in ``store`` (built once by ``build()`` when missing): a bodiless
    304 when the client's copy is current, else the page, compressed if the client takes gzip."""
    page = store.get_or_build(key, build)
    response = response or HttpResponse()
    for name, value in page.headers:
        response[name] = value
    response = with_validators(request, response, etag=page.etag, last_modified=page.last_modified)
    patch_vary_headers(response, ("Accept-Encoding",))
    if response.status_code == 304:
        return response
    return ready_response(request, page, response)
