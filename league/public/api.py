"""Read-only JSON of a tournament's standings, for club websites to embed.

The body has the shape of ``manage.py standings SLUG --json`` (docs/interfaces.md
§4), players and teams named by their exchange-file ids; lists the organiser
has not published are empty.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from league.exchange import with_file_ids
from league.models import Tournament
from league.ranking_lists import RANKING_LISTS
from league.standings.cache import tournament_rankings

# the keys of docs/interfaces.md §4; the page-only extra (label) stays out of the API
PLAYER_KEYS = ("place", "name", "id", "team", "big_points", "small_points")
TEAM_KEYS = ("place", "name", "id", "big_points", "small_points")


@require_GET
def standings(request: HttpRequest, slug: str) -> JsonResponse:
    # served to any website (CORS below), so never a draft, whoever asks
    tournament = get_object_or_404(Tournament, slug=slug, published=True)
    lists = with_file_ids(tournament, tournament_rankings(tournament))
    body = {
        ranking_list.key: [
            {key: entry[key] for key in (TEAM_KEYS if ranking_list.teams else PLAYER_KEYS)}
            for entry in lists[ranking_list.key]
        ]
        if ranking_list.published(tournament)
        else []
        for ranking_list in RANKING_LISTS
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    # any club's website may fetch the standings from its own pages
    response["Access-Control-Allow-Origin"] = "*"
    return response
