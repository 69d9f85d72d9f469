"""The records page (rekordy: the league's all-time records), of the whole installation at
``/rekordy/`` or of one league at ``/rekordy/<league>/``: per game, the first ten of each record
(``league.standings.records``), each player linked to their page and each figure to the deals
behind it. Public, read-only, the same for every visitor: kept ready (``page_answer``) on the
stamps of the tournaments it counts, so a browser's reload costs a 304."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.gzip import gzip_page

from league.models import League
from league.public.page_store import PageState, page_answer
from league.public.views import sorted_only
from league.standings.cache import latest, stamps
from league.standings.records import RECORD_SIZE, records, scope_tournaments
from players.names import name_key


@gzip_page
def records_page(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """The records of the league with ``slug``, or with none, of every league and tournament; the
    installation's page lists the leagues, whose own records are a link away."""

    def fresh() -> HttpResponse:
        state = records_state(slug=slug)
        if state is None:
            raise Http404
        return render(request, "public/records.html", records_context(state.data))

    return page_answer(
        request,
        kind="records",
        key=slug or "",
        state_read=lambda: records_state(slug=slug),
        page_build=lambda data: render(sorted_only(request, {}), "public/records.html", records_context(data)),
        fresh=fresh,
    )


def records_state(*, slug: str | None) -> PageState[dict[str, Any]] | None:
    """What the records page of the league ``slug`` (``None``: the installation's) shows: the stamps
    of the tournaments it counts (which a rename, a merge or an anonymisation moves too) and the
    leagues it names; ``None`` when there is no such league."""
    league = None
    if slug is not None:
        league = League.objects.filter(slug=slug).first()
        if league is None:
            return None
    leagues = [] if league is not None else sorted(League.objects.all(), key=lambda item: name_key(item.name))
    current = stamps(scope_tournaments(league=league))
    shown = (
        None if league is None else (league.pk, league.name, league.slug, league.updated),
        [(item.pk, item.name, item.slug, item.updated) for item in leagues],
        sorted(current.items()),
    )
    changed = latest(current.changed, league and league.updated, *(item.updated for item in leagues))
    return PageState(shown, {"league": league, "leagues": leagues}, changed)


def records_context(state: dict[str, Any]) -> dict[str, Any]:
    """The template's context: the records themselves are built (or read, kept) here."""
    return {**state, "games": records(league=state["league"]), "size": RECORD_SIZE}
