"""Pages answered from their validators and kept ready in each web process: the one way a page
is kept ready, for the public pages, the projector and the hall's control room.

The pages polled all evening (the public standings, the projector's pages, the control room's
tables, the league's calendar feed) are answered in three steps, all of them here:

1. **Validators.** The view works out the page's ETag (:func:`page_etag`) from the little that
   decides what the page shows, and a client whose copy is current gets a bodiless 304 before
   anything is built (:func:`with_validators`).
2. **A bounded store per web process** (:class:`LruStore`): a page that names no visitor is built
   once per ETag and kept already compressed (:class:`ReadyPage`, :func:`answer_ready`); the least
   recently used pages go first. The public pages' store holds at most ``PAGES_KEPT`` pages and
   ``PAGE_BYTES_KEPT`` (24 MiB) of compressed pages, "find my table" ``FOUND_BYTES_KEPT`` (3 MiB)
   more, the logged-in visitors' standings contents ``CONTENT_BYTES_KEPT`` (8 MiB): at most 35 MiB
   of pages per web process. The projector's and the control room's stores hold a few dozen
   fragments each.
3. **The answer of a page that names no visitor** (:func:`page_answer`): its **state** (the few
   cheap reads that decide everything it shows, published things only) is read at most once every
   ``STANDINGS_STAMP_SECONDS`` (one second by default) per page and process, so a closed or
   corrected series reaches the spectators within that second and a reload in between costs no
   query. Its ``Last-Modified`` is read with it (:class:`PageState`): the latest write among what
   it shows (its tournaments' stored stamps, ``TournamentStamp.changed``, and its rows' own
   dates), the same in every web process; nothing is written to the cache to date a page.

A spectator who is not logged in sees the same page as every other spectator asking in the
same language with the same sort order, so each process keeps that page; for a logged-in visitor
it keeps the page's content, to be framed with their own head (``contents``). Both live in the
process rather than in the shared cache: a visitor chooses the sort orders, four lists of ten
orders each make thousands of pages per stamp, and in Redis they would push out what must stay
there (the counts of wrong PINs). The stores only hold tournaments that exist and sort orders
that name real columns, so no request can make them grow without limit.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Generic, NamedTuple, TypeVar

from django.conf import settings
from django.contrib.messages import get_messages
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import (
    add_never_cache_headers,
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import http_date, quote_etag
from django.utils.translation import get_language

from league.caching import StampedKind

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
    last_modified: int | None  # seconds since the epoch; None: the page is dated by nothing (its ETag alone)
    gzipped: bytes
    headers: tuple[tuple[str, str], ...] = ()  # repeated on every answer (its type, a download's name)

    @classmethod
    def of(
        cls, *, etag: str, last_modified: int | None, body: bytes, headers: tuple[tuple[str, str], ...] = ()
    ) -> ReadyPage:
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


def with_validators(
    request: HttpRequest, response: HttpResponse, *, etag: str, last_modified: int | None
) -> HttpResponse:
    """``response`` carrying the page's ETag and date (if it has one), or a bodiless 304 when the
    client's copy is current."""
    response["ETag"] = etag
    if last_modified is not None:
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


PAGES_KEPT = 256
# and at most this many bytes of them (compressed) per web process: a 300-tournament season's table
# is about 64 KB compressed, a home page a few KB
PAGE_BYTES_KEPT = 24 * 1024 * 1024
STAMPS_KEPT = 1024
# "find my table" keeps a page per name asked that found someone; a store of its own, so the
# names typed all evening never push the standings out
FOUND_KEPT = 512
FOUND_BYTES_KEPT = 3 * 1024 * 1024
# the logged-in visitors' standings, as HTML without the page's head (a few organisers, referees
# and players an evening): bounded by their characters, as the pages by their bytes
CONTENT_BYTES_KEPT = 8 * 1024 * 1024
# a shared page's state is current for minutes at most before a change makes another; the
# processes that still answer it keep their own copy
SHARED_SECONDS = 10 * 60
# A page laid out by one web process for the others (``page_answer(shared=True)``).
SHARED_PAGE: StampedKind[ReadyPage] = StampedKind("shared-page", ReadyPage)
# the headers of a built response a kept copy repeats (a download keeps its file name)
KEPT_HEADERS = ("Content-Type", "Content-Disposition")

_stamps: LruStore[tuple[float, Any]] = LruStore(STAMPS_KEPT)
_lookups: dict[str, threading.Lock] = {}  # one per key being looked up right now
_lookups_lock = threading.Lock()
pages: LruStore[ReadyPage] = LruStore(PAGES_KEPT, max_bytes=PAGE_BYTES_KEPT, weigh=ReadyPage.weight)
contents: LruStore[dict[str, str]] = LruStore(
    PAGES_KEPT, max_bytes=CONTENT_BYTES_KEPT, weigh=lambda content: sum(map(len, content.values()))
)
found: LruStore[ReadyPage] = LruStore(FOUND_KEPT, max_bytes=FOUND_BYTES_KEPT, weigh=ReadyPage.weight)


def recent_stamp(slug: str, lookup: Callable[[str], T | None]) -> T | None:
    """``lookup(slug)`` (the tournament's pk and stamp, or a page's state under ``<kind>:<key>``,
    :func:`page_answer`), reused for ``STANDINGS_STAMP_SECONDS``.

    Once the period is over one thread of the process looks it up again while the others go
    on answering with the one they have: under load every thread would otherwise miss in the
    same instant and read the same state side by side, each second (a season's state reads
    the stamps of all its tournaments). A thread with nothing kept yet waits for that lookup.

    An unknown slug is looked up every time and never stored: a visitor trying
    made-up addresses fills nothing.
    """
    seconds = settings.STANDINGS_STAMP_SECONDS
    kept = _stamps.get(slug)
    if kept is not None and time.monotonic() - kept[0] < seconds:
        return kept[1]
    with _lookups_lock:
        lookup_lock = _lookups.setdefault(slug, threading.Lock())
    if kept is not None and not lookup_lock.acquire(blocking=False):
        return kept[1]  # another thread is reading it afresh: this one answers as a moment ago
    if kept is None:
        lookup_lock.acquire()
    try:
        again = _stamps.get(slug)
        if again is not None and again is not kept and time.monotonic() - again[0] < seconds:
            return again[1]  # read by the thread this one waited for
        now = time.monotonic()
        found = lookup(slug)
        if found is not None and seconds > 0:
            _stamps.put(slug, (now, found))
        return found
    finally:
        lookup_lock.release()
        with _lookups_lock:
            if _lookups.get(slug) is lookup_lock and not lookup_lock.locked():
                del _lookups[slug]


def forget_all() -> None:
    """Drop every kept stamp, page and content of this process."""
    _stamps.clear()
    pages.clear()
    contents.clear()
    found.clear()


class PageState(NamedTuple, Generic[T]):
    """What decides a kept page (``page_answer``): ``shown`` holds, as plain values, everything
    the page shows (a tournament's name, its series' states, the stamps of the standings it
    lists…), ``data`` what the page is rendered from, and ``changed`` the latest write among what
    it shows: its tournaments' stamps' (``Stamps.changed``) and its rows' own dates (``updated``),
    read in the same queries, or ``None`` for a page no write dates (then it has no
    ``Last-Modified``, its ETag alone). Something that leaves a page (a tournament unpublished or
    moved to another season) may leave the date where it was: the ETag, which browsers send
    beside the date, decides; the calendar's date counts every tournament of its league."""

    shown: object
    data: T
    changed: datetime | None


def day_start(day: date) -> datetime:
    """The start of ``day``, local time: the date of a page that shows what comes next (the
    next tournaments, the coming and past ones), which moves on then with no write to date it by."""
    return timezone.make_aware(datetime.combine(day, datetime.min.time()))


def visitor_anonymous(request: HttpRequest) -> bool:
    """Whether ``request`` may be given a page kept for everybody: nobody is logged in (the head
    would name them, and staff see drafts) and no message waits to be shown to this visitor alone."""
    return request.user.is_anonymous and not len(get_messages(request))


def page_answer(
    request: HttpRequest,
    *,
    kind: str,
    key: str,
    state_read: Callable[[], PageState[T] | None],
    page_build: Callable[[T], HttpResponse],
    fresh: Callable[[], HttpResponse] | None = None,
    variant: tuple[Hashable, ...] = (),
    store: LruStore[ReadyPage] | None = None,
    shared: bool = False,
    max_age: int | None = None,
) -> HttpResponse:
    """A public page kept ready: the one way every kept page is answered.

    ``state_read()`` returns the page's **state** (:class:`PageState`); ``None`` when there is no
    such page for the public (an unknown or unpublished tournament: 404). The state is read at
    most once every ``STANDINGS_STAMP_SECONDS`` per ``kind`` and ``key`` in this process, so a
    change shows within that period and a reload in between costs no query. The page's
    ``Last-Modified`` is the state's ``changed``, the same in every web process.

    The page is built once per state, language and ``variant`` (validated parameters only,
    such as a sort order or a series number), kept gzip'd in ``store`` with its ETag, and a
    client whose copy is current gets a bodiless 304. ``page_build`` renders as for a visitor
    who asked with nothing but the page's address and those parameters (``views.sorted_only``),
    so nothing else a visitor sent reaches a kept page.

    A logged-in visitor, or one with a message waiting, gets ``fresh()`` instead (their own
    page, drafts included for staff); without ``fresh`` everybody gets the kept page (the JSON
    API and the downloads, which name nobody). A built response whose ``keep`` attribute is
    false is answered as it is, once, and never kept (find my table keeps only the names that
    found somebody).

    A ``shared`` page (one whose build takes seconds, asked with parameters from a small fixed
    set, never a sort order) is built by one web process and handed to the others through the
    cache (``SHARED_PAGE.current``: one key per page, its state beside it, kept ``SHARED_SECONDS``):
    after a change, every process would otherwise lay out the same long season while its other
    visitors wait.

    A browser is told to ask again each time (a current copy costs a 304); with ``max_age`` (a feed
    polled by programs, the calendar) it may keep the page that many seconds without asking.
    """
    if fresh is not None and not visitor_anonymous(request):
        return fresh()
    state = recent_stamp(f"{kind}:{key}", lambda _key: _digested(state_read()))
    if state is None:
        raise Http404
    digest, data, changed = state
    store = pages if store is None else store
    store_key = (kind, key, digest, get_language(), variant)

    etag = page_etag(*store_key)

    def build_here() -> ReadyPage:
        built = page_build(data)
        if not getattr(built, "keep", True):
            raise _NotKept(built)
        return ReadyPage.of(
            etag=etag,
            last_modified=None if changed is None else int(changed.timestamp()),
            body=built.content,
            headers=tuple((name, built[name]) for name in KEPT_HEADERS if built.has_header(name)),
        )

    def build() -> ReadyPage:
        if not shared:
            return build_here()
        # the page's address without its state, so that a new state's page replaces the old one's
        shared_key = "page:ready:" + page_etag(kind, key, get_language(), variant).strip('"')
        return SHARED_PAGE.current(shared_key, etag, build_here, SHARED_SECONDS)

    try:
        response = answer_ready(request, store, store_key, build)
    except _NotKept as not_kept:
        add_never_cache_headers(not_kept.response)
        return not_kept.response
    if max_age is not None:
        patch_cache_control(response, public=True, max_age=max_age)
        return response
    # a browser or proxy keeps the page but asks again each time: a current copy costs a 304,
    # and a closed series or a new draw is never missed on a reload
    patch_cache_control(response, no_cache=True)
    return response


class _NotKept(Exception):
    """A built page not to be kept (``page_answer``), carried out of the store's build."""

    def __init__(self, response: HttpResponse) -> None:
        self.response = response


def _digested(state: PageState[Any] | None) -> tuple[str, Any, datetime | None] | None:
    """The state with what it shows reduced to a digest, worked out once per stamp period."""
    if state is None:
        return None
    return hashlib.blake2b(repr(state.shown).encode(), digest_size=12).hexdigest(), state.data, state.changed
