"""Read-only JSON of a tournament's standings, for club websites to embed.

The body has the shape of ``manage.py standings SLUG --json`` (docs/interfaces.md
§4), players and teams named by their exchange-file ids; lists the organiser
has not published are empty. Club websites poll it as spectators reload the standings,
so it is answered the same way (``page_store.page_answer``): an ETag from the standings'
stamp, a 304 to a client whose copy is current, and the body kept ready, compressed,
in each web process.
"""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from league.exchange import with_file_ids
from league.models import Tournament
from league.public.page_store import page_answer
from league.public.views import standings_state
from league.ranking_lists import RANKING_LISTS
from league.standings.cache import tournament_rankings

# the keys of docs/interfaces.md §4; the page-only extra (label) stays out of the API
PLAYER_KEYS = ("place", "name", "id", "team", "big_points", "small_points")
TEAM_KEYS = ("place", "name", "id", "big_points", "small_points")


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    # served to any website (CORS below), so never a draft, whoever asks
    def build(found: tuple[int, str]) -> HttpResponse:
        pk, stamp = found
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
        return HttpResponse(json.dumps(body, ensure_ascii=False), content_type="application/json")

    response = page_answer(
        request,
        kind="standings",
        key=slug,
        state_read=lambda: standings_state(slug),
        page_build=build,
        variant=("api",),
    )
    # any club's website may fetch the standings from its own pages
    response["Access-Control-Allow-Origin"] = "*"
    return response
