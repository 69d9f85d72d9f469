"""Standings pages kept ready in each web process, for spectators and logged-in visitors.

During a tournament evening the hall's phones and the projector reload the
standings page all the time, while results change a few times an hour. A
spectator who is not logged in sees the same page as every other spectator
asking in the same language with the same sort order, so each web process
keeps that page ready, already compressed, under the stamp of the standings;
for a logged-in visitor it keeps the page's content, to be framed with their
own head (``contents``).

Both live here rather than in the shared cache: a visitor chooses the sort
orders, four lists of ten orders each make thousands of pages per stamp, and
in Redis they would push out what must stay there (the counts of wrong PINs).

The stamp itself is read from the database at most once every
``STANDINGS_STAMP_SECONDS`` (one second by default) per tournament and process:
a closed or corrected series reaches the spectators' page within that second,
and in the meantime a reload costs no query at all. The stores are bounded
(least recently used entries go first) and only hold tournaments that exist and
sort orders that name real columns, so no request can make them grow without
limit.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings

from league.ready_pages import LruStore, ReadyPage

T = TypeVar("T")

PAGES_KEPT = 256
STAMPS_KEPT = 1024

_stamps: LruStore[tuple[float, Any]] = LruStore(STAMPS_KEPT)
pages: LruStore[ReadyPage] = LruStore(PAGES_KEPT)
contents: LruStore[dict[str, str]] = LruStore(PAGES_KEPT)


def recent_stamp(slug: str, lookup: Callable[[str], T | None]) -> T | None:
    """``lookup(slug)`` (the tournament's pk and stamp, or a season's state under ``season:<slug>``),
    reused for ``STANDINGS_STAMP_SECONDS``.

    An unknown slug is looked up every time and never stored: a visitor trying
    made-up addresses fills nothing.
    """
    seconds = settings.STANDINGS_STAMP_SECONDS
    now = time.monotonic()
    kept = _stamps.get(slug)
    if kept is not None and now - kept[0] < seconds:
        return kept[1]
    found = lookup(slug)
    if found is not None and seconds > 0:
        _stamps.put(slug, (now, found))
    return found


def forget_all() -> None:
    """Drop every kept stamp, page and content of this process."""
    _stamps.clear()
    pages.clear()
    contents.clear()
