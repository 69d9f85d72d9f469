"""The rating list (``/ranking/``, per game): public, read-only, the same for every visitor with
the same filters, kept ready as the other public pages are (``league.public.page_store``)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.gzip import gzip_page

from league.games import default_game, registered_games
from league.models import League
from league.public.page_store import PageState, page_answer
from league.public.tables import StandingExport
from league.public.views import EXPORT_PARAM, sorted_only
from league.rating.compute import PROVISIONAL_SERIES, SCALE, START
from league.rating.forms import ACTIVE_DAYS, RatingFilter
from league.rating.selectors import rating_list, ratings_stamp
from league.rating.tables import RatingTable
from players.models import Player
from players.names import name_key

SLUG = re.compile(r"[-a-zA-Z0-9_]{1,80}")


def asked_filters(request: HttpRequest) -> dict[str, str]:
    """The list's filters as asked, those of a valid shape only (a league's slug, ``aktywni=1``,
    a gender's code), so only a bounded set of pages is ever kept; an unknown league is a 404."""
    form = RatingFilter(request.GET)
    asked = request.GET.get("liga", "")
    form.fields["liga"].choices = [("", "")] + ([(asked, asked)] if SLUG.fullmatch(asked) else [])
    form.is_valid()  # what does not validate is left out of cleaned_data, so unfiltered
    return {name: "1" if value is True else value for name, value in form.cleaned_data.items() if value}


@gzip_page
def ranking_page(request: HttpRequest, game: str | None = None) -> HttpResponse:
    """The rating list of ``game`` (the first game without one), filtered by league, by activity
    in the last twelve months and by gender, with CSV and XLSX downloads of what it shows."""
    games = registered_games()
    game = game or default_game()
    if game not in games:
        raise Http404
    filters = asked_filters(request)
    export_format = request.GET.get(EXPORT_PARAM)
    if StandingExport.is_valid_format(export_format):
        filters[EXPORT_PARAM] = export_format

    def build(visitor: HttpRequest, leagues: list[League]) -> HttpResponse:
        return ranking_content(visitor, game, filters, leagues)

    def fresh() -> HttpResponse:
        return build(request, ranking_state().data)

    return page_answer(
        request,
        kind="ranking",
        key=game,
        state_read=ranking_state,
        page_build=lambda leagues: build(sorted_only(request, filters), leagues),
        # a logged-in visitor's head names them; a download names nobody
        fresh=None if EXPORT_PARAM in filters else fresh,
        variant=tuple(sorted(filters.items())),
        # laid out by one web process for the others (through the cache): after a series closes
        # every process would otherwise rank the whole installation at once
        shared=True,
    )


def ranking_state() -> PageState[list[League]]:
    """What the rating lists show, in three reads: the ratings' stamp, the players' last change
    (a name or a gender), the leagues to choose from; and the day (the last twelve months move).
    No write dates the ratings (a rating is rewritten after the series it rests on), so the list
    has no ``Last-Modified``: its ETag alone."""
    leagues = sorted(League.objects.all(), key=lambda league: (name_key(league.name), league.pk))
    shown = (
        ratings_stamp(),
        Player.objects.aggregate(changed=Max("updated"))["changed"],
        [(league.pk, league.name, league.slug) for league in leagues],
        timezone.localdate(),
    )
    return PageState(shown, leagues, None)


def ranking_content(request: HttpRequest, game: str, filters: dict[str, str], leagues: list[League]) -> HttpResponse:
    league = None
    if "liga" in filters:
        league = next((league for league in leagues if league.slug == filters["liga"]), None)
        if league is None:
            raise Http404
    since: date | None = timezone.localdate() - timedelta(days=ACTIVE_DAYS) if "aktywni" in filters else None
    lines = rating_list(game=game, league=league, active_since=since, gender=filters.get("plec", ""))
    table = RatingTable(lines)
    games = registered_games()
    label = games[game].label
    if EXPORT_PARAM in filters:
        return StandingExport(filters[EXPORT_PARAM], table, title=str(label)).response(
            filename=f"ranking-{game}.{filters[EXPORT_PARAM]}"
        )
    form = RatingFilter(filters)
    form.fields["liga"].choices = [
        *RatingFilter.base_fields["liga"].choices,
        *((item.slug, item.name) for item in leagues),
    ]
    context: dict[str, Any] = {
        "game": game,
        "game_label": label,
        "games": [(key, rules.label) for key, rules in games.items()],
        "form": form,
        "table": table,
        "count": len(lines),
        "filters": {name: value for name, value in filters.items() if name != EXPORT_PARAM},
        "start": START,
        "scale": SCALE,
        "provisional": PROVISIONAL_SERIES,
    }
    return render(request, "rating/ranking.html", context)
