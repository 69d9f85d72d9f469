"""The projector (rzutnik): the hall's big screen, which runs itself all evening with nobody at it.

It shows one **strona** (page) at a time and moves to the next every few seconds: the current series
and its clock; who sits where in it, alphabetically in columns, over as many pages as it takes; each
published ranking in pages of :data:`RANKING_ROWS`; the tables' progress (deals entered of the
series' count, or the game's own progress, ``GameRules.series_progress``). What it shows is what the
public may see, whoever is logged in on the hall's computer: a draw only once published, results
only from closed, published series (``league.public.views`` decides both); a draft tournament's
projector opens for its staff alone, as its other public pages do.

``static/js/projector.js`` turns the pages and fetches them afresh every :data:`POLL_SECONDS` from
:func:`projector_pages_fragment`, with the ETag it holds: the validator (:func:`projector_etag`)
costs the standings stamp (kept a second per process, ``page_store.recent_stamp``) and one query
of the tournament's series, so an unchanged screen gets a bodiless 304 before anything is built,
and a changed one the fragment this process keeps ready, built once per ETag. When the server
does not answer (a restart), the script keeps showing what it has, says "łączenie…" and tries
again, less and less often; without JavaScript the page reloads itself onto its next page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from league.games import game_of
from league.hall.clock import clock_face
from league.hall.selectors import DEFAULT_LATE_MINUTES, room_figures, room_validator, series_room
from league.models import Bye, Series, TableAssignment, Tournament
from league.public.page_store import LruStore, ReadyPage, page_etag, ready_response, with_validators
from league.ranking_lists import published_lists
from league.standings.cache import tournament_rankings
from players.names import player_key

from .views import current_series, visible_stamp

RANKING_ROWS = 20
SEATING_ROWS = 45  # three columns of 15 on a 1366 × 768 screen
PAGE_SECONDS, MIN_PAGE_SECONDS, MAX_PAGE_SECONDS = 12, 5, 120  # ?co=12: seconds a page stays
POLL_SECONDS = 5
ready_fragments: LruStore[ReadyPage] = LruStore(32)  # by ETag: a few tournaments × languages at once


@dataclass(frozen=True)
class SeatLine:
    """One line of the seating list: the player, surname first, and where they sit (no table: a bye)."""

    name: str
    table: int | None
    seat: str


@dataclass
class Page:
    """One page of the projector: ``key`` names it across updates (the script stays on the page it
    shows when new pages arrive); ``part`` and ``parts`` number the pages of one list; ``teams``: a
    ranking of teams, not of players."""

    key: str
    template: str
    title: str
    part: int = 1
    parts: int = 1
    rows: list[Any] = field(default_factory=list)
    teams: bool = False


def projector_series(*, tournament_id: int) -> list[Series]:
    """The tournament's series in order, with their tournament and, in the same query, what moves when
    a table changes (``league.hall.selectors.room_figures``)."""
    return list(
        Series.objects.filter(tournament_id=tournament_id)
        .select_related("tournament")
        .annotate(**room_figures())
        .order_by("number")
    )


def shown_series(series_list: list[Series]) -> Series | None:
    """The series the clock, seating and progress pages show: the current one, once its draw is public."""
    if not series_list or not series_list[0].tournament.draw_published:
        return None
    return current_series(series_list)


def projector_etag(*, pk: int, stamp: str, series_list: list[Series], now: datetime) -> str:
    """What the pages show depends on: the standings and the tournament's settings (the stamp), which
    series is current (the series' states) and that series' tables and clock (its room validator)."""
    current = shown_series(series_list)
    states = [(s.number, s.status, s.results_published) for s in series_list]
    room = room_validator(series=current, now=now) if current else None
    return page_etag("projector", pk, stamp, states, room, get_language())


def seating_lines(series: Series) -> list[SeatLine]:
    """Everybody in ``series`` in Polish alphabetical order, surname first, with table and seat or a bye."""
    seated = [
        (a.player, a.table, a.seat) for a in TableAssignment.objects.filter(series=series).select_related("player")
    ]
    seated += [(b.player, None, "") for b in Bye.objects.filter(series=series).select_related("player")]
    seated.sort(key=lambda line: player_key(line[0]))
    return [SeatLine(f"{player.last_name} {player.first_name}", table, seat) for player, table, seat in seated]


def paged(key: str, template: str, title: str, rows: list[Any], size: int, teams: bool = False) -> list[Page]:
    """``rows`` split into pages of ``size``, numbered."""
    chunks = [rows[start : start + size] for start in range(0, len(rows), size)]
    return [
        Page(f"{key}-{part}", template, title, part, len(chunks), chunk, teams)
        for part, chunk in enumerate(chunks, start=1)
    ]


def projector_pages(*, tournament: Tournament, current: Series | None, stamp: str, now: datetime) -> dict[str, Any]:
    """Every page in the order shown, with what the clock page draws."""
    context: dict[str, Any] = {"tournament": tournament, "series": current, "organiser": False}
    pages = [Page("clock", "public/projector/_clock.html", _("Series clock"))]
    if current is not None:
        room = series_room(series=current, now=now, late_minutes=DEFAULT_LATE_MINUTES)
        face = clock_face(room.clock, now=now)
        context.update(room=room, clock_time=face.text, clock_ends_ms=face.ends_ms, clock_from_ms=face.counts_from_ms)
        title = _("Series %(number)s: who sits where") % {"number": current.number}
        pages += paged("seating", "public/projector/_seating.html", title, seating_lines(current), SEATING_ROWS)
    lists = tournament_rankings(tournament, stamp)
    for ranking_list in published_lists(tournament):
        entries = lists[ranking_list.key]
        pages += paged(
            ranking_list.key,
            "public/projector/_ranking.html",
            str(ranking_list.title),
            entries,
            RANKING_ROWS,
            teams=ranking_list.teams,
        )
    if current is not None:
        title = game_of(tournament).words.progress_title % {"number": current.number}
        pages.append(Page("progress", "public/projector/_progress.html", title, rows=context["room"].tables))
    context["pages"] = pages
    return context


def _projector(request: HttpRequest, slug: str) -> tuple[int, str, list[Series]]:
    found = visible_stamp(request, slug)
    if found is None:
        raise Http404
    pk, stamp, _changed = found
    return pk, stamp, projector_series(tournament_id=pk)


def _content(pk: int, stamp: str, series_list: list[Series], now: datetime) -> dict[str, Any]:
    tournament = series_list[0].tournament if series_list else Tournament.objects.get(pk=pk)
    return projector_pages(tournament=tournament, current=shown_series(series_list), stamp=stamp, now=now)


def _seconds(request: HttpRequest) -> int:
    """The seconds a page stays, from ``?co=``, within bounds; anything else is the default."""
    asked = request.GET.get("co", "")
    return min(max(int(asked), MIN_PAGE_SECONDS), MAX_PAGE_SECONDS) if asked.isdigit() else PAGE_SECONDS


@gzip_page
@require_GET
def projector_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The screen: every page, the one ``?strona=`` names showing. The script turns the pages; without it
    the page reloads itself onto the next one."""
    pk, stamp, series_list = _projector(request, slug)
    now = timezone.now()
    context = _content(pk, stamp, series_list, now)
    count = len(context["pages"])
    asked = request.GET.get("strona", "")
    shown = (int(asked) - 1) % count if asked.isdigit() and int(asked) else 0
    seconds = _seconds(request)
    context.update(
        shown=context["pages"][shown].key,
        next_query=f"?strona={(shown + 1) % count + 1}&co={seconds}",
        page_seconds=seconds,
        poll_seconds=POLL_SECONDS,
        etag=projector_etag(pk=pk, stamp=stamp, series_list=series_list, now=now),
        pages_url=reverse("public:projector_pages", args=[slug]),
        server_now_ms=int(now.timestamp() * 1000),
    )
    response = render(request, "public/projector.html", context)
    patch_cache_control(response, no_cache=True)
    return response


@require_GET
def projector_pages_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    """The pages alone, for the script: a bodiless 304 while the ETag it sends is current."""
    pk, stamp, series_list = _projector(request, slug)
    now = timezone.now()
    etag = projector_etag(pk=pk, stamp=stamp, series_list=series_list, now=now)
    # the clock's phase changes with no write to date it by: only the ETag tells an unchanged screen
    last_modified = int(now.timestamp())
    response = with_validators(request, HttpResponse(), etag=etag, last_modified=last_modified)
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ("Accept-Encoding",))
    if response.status_code == 304:
        return response

    def build() -> ReadyPage:
        body = render_to_string("public/projector/_pages.html", _content(pk, stamp, series_list, now), request)
        return ReadyPage.of(etag=etag, last_modified=last_modified, body=body.encode())

    # the screens polling see a new ETag together: one thread builds the pages, the others wait for them
    page = ready_fragments.get_or_build(etag, build)
    return ready_response(request, page, response)
