"""Read-only JSON of a tournament's standings, for club websites to embed.

The body has the shape of ``manage.py standings SLUG --json`` (docs/interfaces.md
§4), players and teams named by their exchange-file ids; lists the organiser
has not published are empty. Club websites poll it as spectators reload the standings,
so it is answered the same way (``league.ready_pages``): an ETag from the standings'
stamp, a 304 to a client whose copy is current, and the body kept ready, compressed,
in each web process.
"""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from league.exchange import with_file_ids
from league.models import Tournament
from league.public import page_store
from league.public.views import published_stamp_by_slug
from league.ranking_lists import RANKING_LISTS
from league.ready_pages import ReadyPage, answer_ready, page_etag
from league.standings.cache import stamp_seen, tournament_rankings

# the keys of docs/interfaces.md §4; the page-only extra (label) stays out of the API
PLAYER_KEYS = ("place", "name", "id", "team", "big_points", "small_points")
TEAM_KEYS = ("place", "name", "id", "big_points", "small_points")


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    # served to any website (CORS below), so never a draft, whoever asks
    found = page_store.recent_stamp(slug, published_stamp_by_slug)
    if found is None:
        raise Http404
    pk, stamp = found

    def build() -> ReadyPage:
        tournament = get_object_or_404(Tournament, pk=pk, published=True)
        lists = with_file_ids(tournament, tournament_rankings(tournament, stamp))
        body = {
            ranking_list.key: [
                {key: entry[key] for key in (TEAM_KEYS if ranking_list.teams else PLAYER_KEYS)}
                for entry in lists[ranking_list.key]
            ]
            if ranking_list.published(tournament)
            else []
            for ranking_list in RANKING_LISTS
        }
        return ReadyPage.of(
            etag=page_etag("api", pk, stamp),
            last_modified=int(stamp_seen(pk, stamp).timestamp()),
            body=json.dumps(body, ensure_ascii=False).encode(),
        )

    response = answer_ready(
        request, page_store.pages, ("api", pk, stamp), build, HttpResponse(content_type="application/json")
    )
    # any club's website may fetch the standings from its own pages
    response["Access-Control-Allow-Origin"] = "*"
    return response
