"""The records page (rekordy: the league's all-time records), of the whole installation at
``/rekordy/`` or of one league at ``/rekordy/<league>/``: per game, the first ten of each record
(``league.standings.records``), each player linked to their page and each figure to the deals
behind it. Public, read-only, the same for every visitor."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.gzip import gzip_page

from league.models import League
from league.standings.records import RECORD_SIZE, records
from players.names import name_key


@gzip_page
def records_page(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """The records of the league with ``slug``, or with none, of every league and tournament; the
    installation's page lists the leagues, whose own records are a link away."""
    league = get_object_or_404(League, slug=slug) if slug is not None else None
    leagues = [] if league is not None else sorted(League.objects.all(), key=lambda item: name_key(item.name))
    context = {"league": league, "leagues": leagues, "games": records(league=league), "size": RECORD_SIZE}
    return render(request, "public/records.html", context)
