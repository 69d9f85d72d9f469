"""Read-only JSON of a tournament's standings, for club websites to embed.

The body has the shape of ``manage.py standings SLUG --json`` (interfaces.md
§4); lists the organiser has not published are empty.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from league.models import Tournament
from league.standings import cache as rankings

# the keys of interfaces.md §4; the page-only extras (label, pk) stay out of the API
PLAYER_KEYS = ("place", "name", "id", "team", "big_points", "small_points")
TEAM_KEYS = ("place", "name", "id", "big_points", "small_points")


@require_GET
def standings(request: HttpRequest, slug: str) -> JsonResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    lists = rankings.tournament_rankings(tournament)
    published = rankings.published(tournament)
    body = {
        key: [{k: entry[k] for k in (TEAM_KEYS if key == "teams" else PLAYER_KEYS)} for entry in entries]
        if published[key]
        else []
        for key, entries in lists.items()
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    # any club's website may fetch the standings from its own pages
    response["Access-Control-Allow-Origin"] = "*"
    return response
