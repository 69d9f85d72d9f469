"""The public site: read-only pages for players and spectators, no login.

A draw is shown only once the organiser has published it, a series' results
and protocols only once the referee has closed the series. Every number comes
from ``league.standings``; the views only pick what may be shown.

Every page here answers GET alone and carries no secret (the CSRF token in the
page head is masked afresh for each response), so they are gzip-compressed
(``gzip_page``) one by one: a global GZipMiddleware would also compress the
referee's and organiser's pages, whose PINs beside reflected input (the
language form's ``next``) are what a BREACH attack needs.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.contrib.messages import get_messages
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.views.decorators.gzip import gzip_page
from django_tables2 import RequestConfig

from league.leagues.selectors import home_leagues
from league.models import Season, Series, Tournament
from league.public import page_store
from league.public.page_store import recent_stamp
from league.ranking_lists import RANKING_LISTS, SEASON_LISTS, published_lists
from league.ready_pages import ReadyPage, answer_ready, page_etag, with_validators
from league.results.models import Protocol
from league.results.penalties.services import published_penalties
from league.seasons.selectors import season_scheme_sentence
from league.signups.selectors import open_signup_window
from league.standings.cache import (
    season_rankings_of,
    season_seen,
    stamp_seen,
    stamps,
    tournament_rankings,
)
from league.standings.seasons import season_tournaments, season_uses_big_points
from league.standings.selectors import series_byes, series_table_seats
from league.standings.statistics import player_statistics
from league.tournaments.roles import role_annotations
from players.models import Player, Team
from players.names import name_key, player_key

from .player_history import player_page_history, rivals, season_chart, series_figures, team_page_history
from .tables import StandingExport, StandingTable, sort_params, standing_table

EXPORT_PARAM = "_export"


def visible_tournaments(request: HttpRequest) -> QuerySet[Tournament]:
    """The tournaments whose public pages ``request``'s visitor may open: the published ones;
    a draft also for its organisers and referees (and superusers), who check it before publishing."""
    user = request.user
    if user.is_superuser:
        return Tournament.objects.all()
    if not user.is_authenticated:
        return Tournament.objects.filter(published=True)
    staff = Q(published=True) | Q(user_organises=True) | Q(user_referees=True)
    return Tournament.objects.annotate(**role_annotations(user=user)).filter(staff)


def visible_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament with ``slug`` if the visitor may see it (:func:`visible_tournaments`), else 404."""
    return get_object_or_404(visible_tournaments(request).select_related("season", "league"), slug=slug)


def visible_stamp(request: HttpRequest, slug: str) -> tuple[int, str] | None:
    """The pk and standings stamp of a tournament the visitor may see. A published one's is kept
    for everyone (``recent_stamp``); a draft's is read afresh for its staff and never kept, so no
    visitor gets it from the store."""
    found = recent_stamp(slug, published_stamp_by_slug)
    if found is None and request.user.is_authenticated:
        found = next(iter(stamps(visible_tournaments(request).filter(slug=slug)).items()), None)
    return found


def published_stamp_by_slug(slug: str) -> tuple[int, str] | None:
    """``stamp_by_slug`` of a published tournament only: what every visitor may be given."""
    return next(iter(stamps(Tournament.objects.filter(slug=slug, published=True)).items()), None)


def draw_visible(series: Series) -> bool:
    return series.tournament.draw_published and series.is_drawn


def results_visible(series: Series) -> bool:
    return series.status == Series.Status.CLOSED and series.results_published


@dataclass
class Ranking:
    """One published ranking list as a page shows it."""

    key: str
    title: str
    table: StandingTable


def published_rankings(request: HttpRequest, tournament: Tournament, stamp: str | None = None) -> list[Ranking]:
    """The lists the organiser chose to publish, as tables sorted as ``request`` asks."""
    lists = tournament_rankings(tournament, stamp)
    result = []
    for ranking_list in published_lists(tournament):
        key = ranking_list.key
        if ranking_list.teams and not lists[key]:
            continue  # no team has a result (a tournament of individuals, or before play): no empty card
        table = standing_table(
            lists[key], teams=ranking_list.teams, big_points=tournament.uses_big_points, prefix=f"{key}-"
        )
        RequestConfig(request, paginate=False).configure(table)
        result.append(Ranking(key, str(ranking_list.title), table))
    return result


def export_response(request: HttpRequest, tables: list[Ranking], name: str) -> HttpResponse | None:
    """The CSV or XLSX download asked for with ``?_export=xlsx&lista=individual``, if any;
    any other ``_export`` asks for no download, and the page is shown."""
    export_format = request.GET.get(EXPORT_PARAM)
    if not StandingExport.is_valid_format(export_format):
        return None
    chosen = next((r for r in tables if r.key == request.GET.get("lista")), None)
    if chosen is None:
        raise Http404
    return StandingExport(export_format, chosen.table, title=chosen.title).response(
        filename=f"{name}-{chosen.key}.{export_format}"
    )


def current_series(series_list: list[Series]) -> Series | None:
    """The series being played or about to be: the first drawn one not yet closed."""
    return next((s for s in series_list if s.is_drawn and not results_visible(s)), None)


def seating(series: Series) -> list[dict[str, Any]]:
    """Who sits where in one series, by surname, so a player finds their table at a glance."""
    seats = [
        {"name": seat.name, "team": seat.team, "table": table.number, "seat": seat.seat}
        for table in series_table_seats(series, with_results=False)
        for seat in table.seats
    ]
    seats += [{"name": bye.name, "team": "", "table": None, "seat": ""} for bye in series_byes(series)]
    return sorted(seats, key=lambda s: [name_key(part) for part in s["name"].split()[-1:] + [s["name"]]])


# --- pages ------------------------------------------------------------------


@gzip_page
def home(request: HttpRequest) -> HttpResponse:
    """The public front page: the leagues with their next tournaments, then the seasons and the
    published tournaments not archived outside any league, newest first."""
    public = Tournament.objects.filter(published=True, archived=False, league__isnull=True)
    context = {
        "leagues": home_leagues(today=timezone.localdate()),
        "seasons": Season.objects.filter(league__isnull=True).order_by("-year", "name"),
        "tournaments": public.select_related("season").order_by("-date")[:30],
    }
    return render(request, "home.html", context)


@gzip_page
def season_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The season's tables, saying how they add up its tournaments (the scheme, best K of N).

    A long season's tables are the site's largest page; an anonymous visitor gets it from
    this process's store, built once for everything it shows (the season's settings, its
    tournaments and their standings' stamps, the language and the sort order), with an ETag.
    """
    found = recent_stamp(f"season:{slug}", lambda _key: season_state(slug))
    if found is None:
        raise Http404
    season, counted, current, listed = found
    if StandingExport.is_valid_format(request.GET.get(EXPORT_PARAM)):
        return export_response(request, season_tables(request, season, counted, current), season.slug)
    sort = sort_params(request.GET, [ranking_list.key for ranking_list in SEASON_LISTS])
    league = season.league
    shown = (
        (season.name, season.year, season.best_of, season.scheme, season.place_points, season.team_place_points),
        (league.name, league.slug) if league else None,
        [(t.pk, t.name, t.slug, t.date, t.venue, t.counts_for_season) for t in listed],
        sorted(current.items()),
    )
    variant = repr((shown, get_language(), sorted(sort.items())))

    def content(visitor: HttpRequest) -> dict[str, Any]:
        lists = season_rankings_of(season, counted, current)
        return {
            "season": season,
            "scheme": season_scheme_sentence(season=season, tournament_count=len(counted)),
            "tournaments": listed,
            "rankings": season_tables(visitor, season, counted, current, lists),
            "chart": season_chart(season, counted, lists["individual"]),
            "best_of": season.best_of if season.best_of and season.best_of < len(counted) else None,
        }

    if not (request.user.is_anonymous and not len(get_messages(request))):
        return render(request, "public/season.html", content(request))

    def build() -> ReadyPage:
        canonical = sorted_only(request, sort)
        body = render_to_string("public/season.html", content(canonical), canonical)
        digest = page_etag(season.pk, variant)
        return ReadyPage.of(
            etag=digest, last_modified=int(season_seen(season.pk, digest).timestamp()), body=body.encode()
        )

    return answer_ready(request, page_store.pages, ("season", season.pk, variant), build)


def season_state(slug: str) -> tuple[Season, list[Tournament], dict[int, str], list[Tournament]] | None:
    """The season with ``slug``, its counted tournaments with their standings' stamps, and the
    published tournaments its page lists; ``None`` if there is no such season."""
    season = Season.objects.select_related("league").filter(slug=slug).first()
    if season is None:
        return None
    counted = list(season_tournaments(season))
    current = stamps(season_tournaments(season))
    return season, counted, current, list(season.tournaments.filter(published=True).order_by("date"))


def season_tables(
    request: HttpRequest,
    season: Season,
    counted: list[Tournament],
    current: dict[int, str],
    lists: dict[str, list[dict[str, Any]]] | None = None,
) -> list[Ranking]:
    """The season's individual and team tables, sorted as ``request`` asks."""
    lists = lists or season_rankings_of(season, counted, current)
    big_points = season_uses_big_points(season, counted)
    tables = []
    for ranking_list in SEASON_LISTS:
        key = ranking_list.key
        table = standing_table(
            lists[key],
            teams=ranking_list.teams,
            big_points=big_points,
            season=True,
            counted=season.best_of is not None,
            # each tournament's result, marked where best K of N drops it
            results=[(t.name, date_format(t.date, "d.m")) for t in counted if ranking_list.published(t)],
            prefix=f"{key}-",
        )
        RequestConfig(request, paginate=False).configure(table)
        tables.append(Ranking(key, str(ranking_list.title), table))
    return tables


@gzip_page
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The programme, the series with their state and who sits where in the current one."""
    tournament = visible_tournament(request, slug)
    series_list = list(tournament.series.order_by("number"))
    current = current_series(series_list) if tournament.draw_published else None
    context = {
        "tournament": tournament,
        "series_list": series_list,
        "current": current,
        "seating": seating(current) if current else [],
        "signup_window": open_signup_window(tournament=tournament),
    }
    return render(request, "public/tournament.html", context)


@gzip_page
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The published ranking lists, sortable, with CSV and XLSX downloads.

    Spectators in the hall reload this page all through a tournament, so it
    answers from what the stamp of the standings decides: a conditional GET
    whose ETag or date still matches gets a bodiless 304; an anonymous visitor
    gets the page this process keeps ready (``page_store``); a logged-in one a
    page whose content this process keeps, rendered once per stamp, language
    and sort order. Only the validated sort parameters reach a store's key or
    the links in the page, so made-up query parameters cannot fill a store,
    and no sort order reaches the shared cache at all.
    """
    found = visible_stamp(request, slug)
    if found is None:
        raise Http404
    pk, stamp = found
    if StandingExport.is_valid_format(request.GET.get(EXPORT_PARAM)):
        tournament = Tournament.objects.get(pk=pk)
        return export_response(request, published_rankings(request, tournament, stamp), tournament.slug)

    sort = sort_params(request.GET, [ranking_list.key for ranking_list in RANKING_LISTS])
    variant = repr((stamp, get_language(), sorted(sort.items())))
    # pending messages are shown once, to their visitor: such a page is not everybody's
    if request.user.is_anonymous and not len(get_messages(request)):
        return ready_standings(request, pk, stamp, sort, variant)

    # the page's head names the logged-in user, so each user has their own validator
    response = with_validators(
        request,
        HttpResponse(),
        etag=page_etag(pk, variant, request.user.pk),
        last_modified=int(stamp_seen(pk, stamp).timestamp()),
    )
    if response.status_code == 304:
        return response
    page = page_store.contents.get_or_build(
        (pk, variant), lambda: standings_content(sorted_only(request, sort), pk, stamp)
    )
    response.content = render_to_string("public/standings.html", page, request)
    return response


def ready_standings(request: HttpRequest, pk: int, stamp: str, sort: dict[str, str], variant: str) -> HttpResponse:
    """The standings page every anonymous spectator gets, from this process's store when ready."""

    def build() -> ReadyPage:
        canonical = sorted_only(request, sort)
        body = render_to_string("public/standings.html", standings_content(canonical, pk, stamp), canonical)
        return ReadyPage.of(
            etag=page_etag(pk, variant),
            last_modified=int(stamp_seen(pk, stamp).timestamp()),
            body=body.encode(),
        )

    return answer_ready(request, page_store.pages, (pk, variant), build)


def sorted_only(request: HttpRequest, sort: dict[str, str]) -> HttpRequest:
    """The request as if asked with the sort parameters alone: the tables' sort links and the
    language form keep every parameter of the request, and a kept page must not repeat a visitor's."""
    canonical = copy.copy(request)
    canonical.GET = QueryDict(mutable=True)
    canonical.GET.update(sort)
    canonical.META = {**request.META, "QUERY_STRING": canonical.GET.urlencode()}
    return canonical


def standings_content(canonical: HttpRequest, pk: int, stamp: str) -> dict[str, str]:
    """The standings page without its frame (the head naming who is logged in, the CSRF token):
    the part that is the same for every visitor and can be cached; ``canonical`` is the
    request as :func:`sorted_only` makes it."""
    tournament = Tournament.objects.select_related("season", "league").get(pk=pk)
    context = {
        "tournament": tournament,
        "rankings": published_rankings(canonical, tournament, stamp),
        "closed": tournament.series.filter(status=Series.Status.CLOSED, results_published=True).count(),
    }
    return {"name": tournament.name, "content": render_to_string("public/_standings.html", context, canonical)}


def visible_series(request: HttpRequest, slug: str, number: int) -> Series:
    """The series, if its draw has been published in a tournament the visitor may see."""
    series = get_object_or_404(
        Series.objects.select_related("tournament__season"),
        tournament__in=visible_tournaments(request).filter(slug=slug).values("pk"),
        number=number,
    )
    if not draw_visible(series):
        raise Http404
    return series


@gzip_page
def series_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = visible_series(request, slug, number)
    with_results = results_visible(series)
    context = {
        "tournament": series.tournament,
        "series": series,
        "tables": series_table_seats(series, with_results=with_results),
        "byes": series_byes(series),
        "with_results": with_results,
        "penalties": published_penalties(tournament=series.tournament, series=series) if with_results else [],
    }
    return render(request, "public/series.html", context)


@gzip_page
def table_page(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """One table's protocol once the series is closed, as its game shows it (a Baśka protocol row
    by row with running totals; a Preferans one as its pulka sheet and settlement)."""
    series = visible_series(request, slug, number)
    if not results_visible(series):
        raise Http404
    protocol = get_object_or_404(Protocol, series=series, table=table)
    protocol.series = series  # with its tournament, already read
    seats = next((t.seats for t in series_table_seats(series, with_results=True) if t.number == table), [])
    context = {
        "tournament": series.tournament,
        "series": series,
        "protocol": protocol,
        "seats": seats,
        "penalties": [
            line for line in published_penalties(tournament=series.tournament, series=series) if line.table == table
        ],
    }
    names = {seat.seat: seat.name for seat in seats}
    context |= series.tournament.game_rules().public_table_context(protocol=protocol, names=names)
    return render(request, "public/table.html", context)


@gzip_page
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's tournaments and seasons, with place and points in each, the series one by
    one and a chart of the place after each series; the opponents met most often, and the
    statistics of the deals they played."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    history, seasons = player_page_history(player)
    statistics = player_statistics(player, history)
    figures = series_figures(history)
    for game in statistics:
        game["figures"] = figures.get(game["game"])
    context = {
        "player": player,
        "history": history,
        "seasons": seasons,
        "rivals": rivals(history),
        "statistics": statistics,
    }
    return render(request, "public/player.html", context)


@gzip_page
def team_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A team's members and its place in each tournament it played, with which players' results
    counted for it and the rule that chose them."""
    team = get_object_or_404(Team.objects.select_related("club", "captain"), pk=pk)
    members = sorted(team.memberships.select_related("player"), key=lambda m: (player_key(m.player), m.player_id))
    context = {"team": team, "members": members, "history": team_page_history(team)}
    return render(request, "public/team.html", context)
