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
from collections.abc import Callable, Container, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.views.decorators.gzip import gzip_page
from django_tables2 import RequestConfig

from league.games import game_of, linked_related
from league.leagues.selectors import home_leagues
from league.models import Registration, Season, Series, Tournament
from league.public import page_store
from league.public.page_store import PageState, day_start, field_values, page_answer, page_etag, with_validators
from league.ranking_lists import RANKING_LISTS, SEASON_LISTS, published_lists
from league.rating.pages import player_rating_cards, table_expected_order
from league.rating.selectors import rated_stamp, ratings_stamp
from league.results.models import Protocol
from league.results.penalties.services import published_penalties
from league.seasons.selectors import season_scheme_sentence
from league.signups.selectors import open_signup_window, signups_open
from league.standings.cache import (
    TournamentStampRead,
    latest,
    season_rankings_of,
    stamp_of,
    stamps,
    tournament_rankings,
)
from league.standings.seasons import season_tournaments, season_uses_big_points
from league.standings.selectors import PlayerReads, player_reads, series_byes, series_table_seats, team_stamps
from league.standings.statistics import player_statistics
from league.tournaments.roles import role_annotations
from players.models import Player, Team
from players.names import name_key, player_key

from .player_history import (
    player_page_history,
    rivals,
    season_chart,
    series_figures,
    team_page_history,
    with_charts,
)
from .tables import StandingExport, StandingTable, sort_params, standing_table

EXPORT_PARAM = "_export"
T = TypeVar("T")

TOURNAMENTS_PER_PAGE = 10  # on a player's page, newest first; ?strona=2 the ten before them
SEASON_LIST_KEYS = frozenset(ranking_list.key for ranking_list in SEASON_LISTS)
SEASON_COLUMNS = 12  # tournaments with a column on a season's page, newest first; the downloads have them all


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


def visible_stamp(request: HttpRequest, slug: str) -> TournamentStampRead | None:
    """The pk and standings stamp of a tournament the visitor may see. A published one's is kept
    for everyone (``recent_stamp``); a draft's is read afresh for its staff and never kept, so no
    visitor gets it from the store."""
    found = page_store.recent_stamp(slug, published_stamp_by_slug)
    if found is None and request.user.is_authenticated:
        found = stamp_of(visible_tournaments(request).filter(slug=slug))
    return found


def published_stamp_by_slug(slug: str) -> TournamentStampRead | None:
    """The stamp of a published tournament only: what every visitor may be given."""
    return stamp_of(Tournament.objects.filter(slug=slug, published=True))


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
    seats += [{"name": bye.name, "team": "", "table": None, "seat": ""} for bye in series_byes(series, public=True)]
    return sorted(seats, key=lambda s: [name_key(part) for part in s["name"].split()[-1:] + [s["name"]]])


# --- pages ------------------------------------------------------------------


@gzip_page
def home(request: HttpRequest) -> HttpResponse:
    """The public front page: the leagues with their next tournaments, then the seasons and the
    published tournaments not archived outside any league, newest first. Kept ready: its state
    is all it shows (three short reads)."""
    return page_answer(
        request,
        kind="home",
        key="",
        state_read=home_state,
        page_build=lambda context: render(sorted_only(request, {}), "home.html", context),
        fresh=lambda: render(request, "home.html", home_state().data),
    )


def home_state() -> PageState[dict[str, Any]]:
    """Everything the front page shows, read afresh: the leagues with their next tournaments
    (which move on at midnight), the seasons and tournaments outside the leagues."""
    public = Tournament.objects.filter(published=True, archived=False, league__isnull=True)
    context = {
        "leagues": list(home_leagues(today=timezone.localdate())),
        "seasons": list(Season.objects.filter(league__isnull=True).order_by("-year", "name")),
        "tournaments": list(public.select_related("season").order_by("-date")[:30]),
    }
    shown = (
        [
            (lg.pk, lg.name, lg.slug, str(lg.logo), lg.updated, lg.next_name, lg.next_slug, lg.next_date)
            for lg in context["leagues"]
        ],
        [(season.pk, str(season), season.slug) for season in context["seasons"]],
        [(t.pk, t.name, t.slug, t.date, t.venue) for t in context["tournaments"]],
    )
    changed = latest(
        *(lg.updated for lg in context["leagues"]),
        *(lg.next_updated for lg in context["leagues"]),
        *(season.updated for season in context["seasons"]),
        *(t.updated for t in context["tournaments"]),
        day_start(timezone.localdate()),  # the leagues' next tournaments move on then
    )
    return PageState(shown, context, changed)


@gzip_page
def season_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The season's tables, saying how they add up its tournaments (the scheme, best K of N),
    with CSV and XLSX downloads.

    A long season's tables are the site's largest page; an anonymous visitor gets it kept ready
    (``page_answer``), built once for everything it shows (``season_state``), the language and
    the sort order.
    """
    export_format = request.GET.get(EXPORT_PARAM)
    if StandingExport.is_valid_format(export_format):
        params = sort_params(request.GET, [ranking_list.key for ranking_list in SEASON_LISTS])
        params |= {EXPORT_PARAM: export_format, "lista": request.GET.get("lista", "")}

        def download(visitor: HttpRequest, state: SeasonState) -> HttpResponse:
            season, counted, current, _listed = state
            return export_response(visitor, season_tables(visitor, season, counted, current), season.slug)

        return page_answer(
            request,
            kind="season",
            key=slug,
            state_read=lambda: season_state(slug),
            page_build=lambda state: download(sorted_only(request, params), state),
            variant=tuple(sorted(params.items())),
            # a season's whole list in a file takes seconds to write: one process writes it
            shared=params.keys() == {EXPORT_PARAM, "lista"} and params["lista"] in SEASON_LIST_KEYS,
        )
    sort = sort_params(request.GET, [ranking_list.key for ranking_list in SEASON_LISTS])
    number = _list_page(request)

    def content(visitor: HttpRequest, state: SeasonState) -> HttpResponse:
        season, counted, current, listed = state
        lists = season_rankings_of(season, counted, current)
        # a column per tournament, the newest first page by page: a season of a hundred tournaments
        # is no longer to lay out, send or read on a phone than one of twelve
        pages = Paginator(counted[::-1], SEASON_COLUMNS)
        columns = pages.get_page(number)
        context = {
            "season": season,
            "scheme": season_scheme_sentence(season=season, tournament_count=len(counted)),
            "tournaments": listed,
            "columns": columns,
            # the columns run in the order of the season; their numbers as the season counts them
            "columns_from": len(counted) - columns.end_index() + 1,
            "columns_to": len(counted) - columns.start_index() + 1,
            "rankings": season_tables(visitor, season, counted, current, lists, {t.pk for t in columns}),
            "chart": season_chart(season, counted, lists["individual"]),
            "best_of": season.best_of if season.best_of and season.best_of < len(counted) else None,
        }
        response = render(visitor, "public/season.html", context)
        response.keep = number <= pages.num_pages  # a page past the last shows the last, kept once under its own number
        return response

    return kept_page(
        request,
        kind="season",
        key=slug,
        state_read=lambda: season_state(slug),
        content=content,
        # the sort links keep the page of columns, and the page's links the sort order
        sort=sort | ({"strona": str(number)} if number > 1 else {}),
        # a long season takes seconds to lay out: one process does, in the order everybody sees
        shared=not sort,
    )


SeasonState = tuple[Season, list[Tournament], dict[int, str], list[Tournament]]


def season_state(slug: str) -> PageState[SeasonState] | None:
    """The season with ``slug``, its counted tournaments with their standings' stamps, and the
    published tournaments its page lists; ``None`` if there is no such season. What it shows:
    the season's settings, its league, the tournaments listed and the standings' stamps."""
    season = Season.objects.select_related("league").filter(slug=slug).first()
    if season is None:
        return None
    counted = list(season_tournaments(season))
    current = stamps(season_tournaments(season))
    listed = list(season.tournaments.filter(published=True).order_by("date"))
    league = season.league
    shown = (
        field_values(season),
        (league.name, league.slug) if league else None,
        [(t.pk, t.name, t.slug, t.date, t.venue, t.counts_for_season) for t in listed],
        sorted(current.items()),
    )
    changed = latest(current.changed, season.updated, league and league.updated, *(t.updated for t in listed))
    return PageState(shown, (season, counted, current, listed), changed)


def season_tables(
    request: HttpRequest,
    season: Season,
    counted: list[Tournament],
    current: dict[int, str],
    lists: dict[str, list[dict[str, Any]]] | None = None,
    columns: Container[int] | None = None,
) -> list[Ranking]:
    """The season's individual and team tables, sorted as ``request`` asks, with a column for
    each tournament in ``columns`` (primary keys; every tournament when ``None``, as the
    downloads have them)."""
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
            results=[
                (index, t.name, date_format(t.date, "d.m"))
                for index, t in enumerate(t for t in counted if ranking_list.published(t))
                if columns is None or t.pk in columns
            ],
            prefix=f"{key}-",
        )
        RequestConfig(request, paginate=False).configure(table)
        tables.append(Ranking(key, str(ranking_list.title), table))
    return tables


TournamentState = tuple[Tournament, list[Series], str]


def tournament_state(slug: str) -> PageState[TournamentState] | None:
    """A published tournament with its series and its standings' stamp, and as plain values
    everything its public pages (programme, series, tables, find my table) show: the
    tournament's settings and names (with its season's and league's), its series' states, its
    sign-up window and whether it takes sign-ups now, and the stamp (seats, byes, closed
    results, penalties, players' and teams' names). Three queries; ``None`` for a draft."""
    tournament = (
        Tournament.objects.select_related("season", "league", "signup_window", *linked_related())
        .filter(slug=slug, published=True)
        .annotate(rated=rated_stamp())
        .first()
    )
    if tournament is None:
        return None
    current = stamps(Tournament.objects.filter(pk=tournament.pk))
    stamp = current[tournament.pk]
    series_list = tournament_series(tournament)
    window = getattr(tournament, "signup_window", None)
    season, league = tournament.season, tournament.league
    # what the game keeps of it in rows of its own (Baśka's own rules), which its pages name
    linked = [value for value in game_of(tournament).linked_read(tournament).values() if value is not None]
    shown = (
        field_values(tournament),
        (season.name, season.slug, season.updated) if season else None,
        (league.name, league.slug, league.updated) if league else None,
        [value.updated for value in linked],
        (field_values(window), window.updated, signups_open(window=window, now=timezone.now())) if window else None,
        [(s.pk, s.number, s.status, s.results_published, s.drawn_at) for s in series_list],
        stamp,
        tournament.rated,  # the tables' expected order moves with the ratings before them
    )
    changed = latest(
        current.changed,
        tournament.updated,
        season and season.updated,
        league and league.updated,
        *(value.updated for value in linked),
        window and window.updated,
    )
    return PageState(shown, (tournament, series_list, stamp), changed)


def tournament_series(tournament: Tournament) -> list[Series]:
    """The tournament's series in order, each knowing its tournament without another query."""
    series_list = list(tournament.series.order_by("number"))
    for series in series_list:
        series.tournament = tournament
    return series_list


def tournament_answer(
    request: HttpRequest,
    slug: str,
    *,
    page_build: Callable[[HttpRequest, TournamentState], HttpResponse],
    variant: tuple[Hashable, ...],
    params: dict[str, str] | None = None,
    fresh: Callable[[], HttpResponse] | None = None,
    **kept: Any,
) -> HttpResponse:
    """One of a tournament's public pages, kept ready on the tournament's state (``page_answer``;
    ``params`` are the validated parameters the page is built with); a logged-in visitor's built
    afresh by ``fresh`` or as ``page_build`` would for them (an organiser or referee checks a
    draft's pages before publishing)."""

    def own_page() -> HttpResponse:
        tournament = visible_tournament(request, slug)
        return page_build(request, (tournament, tournament_series(tournament), ""))

    return page_answer(
        request,
        kind="tournament",
        key=slug,
        state_read=lambda: tournament_state(slug),
        page_build=lambda state: page_build(sorted_only(request, params or {}), state),
        fresh=fresh or own_page,
        variant=variant,
        **kept,
    )


@gzip_page
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The programme, the series with their state and who sits where in the current one."""

    def build(visitor: HttpRequest, state: TournamentState) -> HttpResponse:
        tournament, series_list, _stamp = state
        current = current_series(series_list) if tournament.draw_published else None
        context = {
            "tournament": tournament,
            "series_list": series_list,
            "current": current,
            "seating": seating(current) if current else [],
            "signup_window": open_signup_window(tournament=tournament),
        }
        return render(visitor, "public/tournament.html", context)

    return tournament_answer(request, slug, page_build=build, variant=("programme",))


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
    sort = sort_params(request.GET, [ranking_list.key for ranking_list in RANKING_LISTS])
    export_format = request.GET.get(EXPORT_PARAM)
    if StandingExport.is_valid_format(export_format):
        return standings_download(
            request, slug, sort | {EXPORT_PARAM: export_format, "lista": request.GET.get("lista", "")}
        )
    # pending messages are shown once, to their visitor: such a page is not everybody's
    if page_store.visitor_anonymous(request):
        return page_answer(
            request,
            kind="standings",
            key=slug,
            state_read=lambda: standings_state(slug),
            page_build=lambda found: render(
                sorted_only(request, sort),
                "public/standings.html",
                standings_content(sorted_only(request, sort), *found),
            ),
            variant=tuple(sorted(sort.items())),
        )
    found = visible_stamp(request, slug)
    if found is None:
        raise Http404
    pk, stamp, changed = found
    variant = repr((stamp, get_language(), sorted(sort.items())))

    # the page's head names the logged-in user, so each user has their own validator
    response = with_validators(
        request,
        HttpResponse(),
        etag=page_etag(pk, variant, request.user.pk),
        last_modified=None if changed is None else int(changed.timestamp()),
    )
    if response.status_code == 304:
        return response
    page = page_store.contents.get_or_build(
        (pk, variant), lambda: standings_content(sorted_only(request, sort), pk, stamp)
    )
    response.content = render_to_string("public/standings.html", page, request)
    return response


def standings_state(slug: str) -> PageState[tuple[int, str]] | None:
    """A published tournament's pk and standings' stamp, which decides all its standings show
    (the stamp moves with its name and settings too), dated by the stamp."""
    found = published_stamp_by_slug(slug)
    return None if found is None else PageState(found[:2], found[:2], found.changed)


def standings_download(request: HttpRequest, slug: str, params: dict[str, str]) -> HttpResponse:
    """A list of the standings as CSV or XLSX: kept ready for everybody per stamp, list, sort
    order and language (the columns' titles are translated); built afresh for a logged-in
    visitor, who may be checking a draft."""

    def download(visitor: HttpRequest, pk: int, stamp: str) -> HttpResponse:
        tournament = Tournament.objects.select_related("season", "league").get(pk=pk)
        return export_response(visitor, published_rankings(visitor, tournament, stamp), tournament.slug)

    def fresh() -> HttpResponse:
        found = visible_stamp(request, slug)
        if found is None:
            raise Http404
        return download(request, found.pk, found.token)

    return page_answer(
        request,
        kind="standings",
        key=slug,
        state_read=lambda: standings_state(slug),
        page_build=lambda found: download(sorted_only(request, params), *found),
        fresh=fresh,
        variant=tuple(sorted(params.items())),
    )


def sorted_only(request: HttpRequest, sort: dict[str, str]) -> HttpRequest:
    """The request as if asked with the (validated) parameters in ``sort`` alone: the tables'
    sort links and the language form keep every parameter of the request, and a kept page must
    not repeat a visitor's."""
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


def shown_series(state: TournamentState, number: int) -> Series:
    """Series ``number`` of the tournament in ``state`` if its draw is public, else 404."""
    _tournament, series_list, _stamp = state
    series = next((s for s in series_list if s.number == number), None)
    if series is None or not draw_visible(series):
        raise Http404
    return series


@gzip_page
def series_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def build(visitor: HttpRequest, state: TournamentState) -> HttpResponse:
        series = shown_series(state, number)
        with_results = results_visible(series)
        context = {
            "tournament": series.tournament,
            "series": series,
            "tables": series_table_seats(series, with_results=with_results),
            "byes": series_byes(series, public=True),
            "with_results": with_results,
            "penalties": published_penalties(tournament=series.tournament, series=series) if with_results else [],
        }
        return render(visitor, "public/series.html", context)

    return tournament_answer(request, slug, page_build=build, variant=("series", number))


@gzip_page
def table_page(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """One table's protocol once the series is closed, as its game shows it (row by row with running
    totals, or the game's own sheet; ``GameRules.public_table_context``)."""

    def build(visitor: HttpRequest, state: TournamentState) -> HttpResponse:
        series = shown_series(state, number)
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
        context |= game_of(series.tournament).public_table_context(protocol=protocol, names=names)
        context["expected"] = table_expected_order(series=series, table=table, seats=seats)
        return render(visitor, "public/table.html", context)

    return tournament_answer(request, slug, page_build=build, variant=("table", number, table))


@gzip_page
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's tournaments and seasons, with place and points in each, the series one by
    one and a chart of the place after each series; the opponents met most often, and the
    statistics of the deals they played.

    Kept ready (``page_answer``) on what it shows (:func:`player_state`) and the page of the
    list (``?strona=N``): after a series every player opens their own page, and a regular's after
    ten seasons would otherwise be laid out again on every visit."""
    number = _list_page(request)

    def content(visitor: HttpRequest, state: tuple[Player, PlayerReads]) -> HttpResponse:
        player, reads = state
        history, seasons = player_page_history(player, reads)
        # the statistics add up every tournament; the list shows a page of them, so a regular's
        # page after ten seasons is no longer than after one
        pages = Paginator(history, TOURNAMENTS_PER_PAGE)
        shown = pages.get_page(number)
        with_charts(player, shown.object_list)
        statistics = player_statistics(history)
        figures = series_figures(history)
        for game in statistics:
            game["figures"] = figures.get(game["game"])
            if game["figures"]:
                # the small points scored at the tables over the deals played there
                game["figures"]["per_deal"] = game["figures"]["small_points"] / game["deals"]
        context = {
            "player": player,
            "history": shown,
            "seasons": seasons,
            "rivals": rivals(history),
            "statistics": statistics,
            "ratings": player_rating_cards(player),
        }
        response = render(visitor, "public/player.html", context)
        response.keep = number <= pages.num_pages  # a page past the last shows the last, kept once under its own number
        return response

    return kept_page(
        request, kind="player", key=str(pk), state_read=lambda: player_state(pk), content=content, variant=(number,)
    )


def player_state(pk: int) -> PageState[tuple[Player, PlayerReads]] | None:
    """What a player's page shows, in four reads: the player and their club, then their
    ``player_reads`` (the published tournaments they registered for with the team they played
    for, those tournaments' seasons, and the standings' stamps of those tournaments and of every
    tournament counted in those seasons: the player's place in a season's table moves with any)."""
    player = Player.objects.select_related("club").filter(pk=pk).first()
    if player is None:
        return None
    reads = player_reads(player)
    shown = (
        field_values(player),
        player.club and field_values(player.club),
        [(r.tournament_id, r.team and field_values(r.team)) for r in reads.registrations],
        [field_values(season) for season in reads.seasons],
        sorted(reads.current.items()),
        ratings_stamp(),  # a rating moves with any series rated since, anyone's
    )
    changed = latest(
        reads.current.changed,
        player.updated,
        *(r.team.updated for r in reads.registrations if r.team),
        *(season.updated for season in reads.seasons),
    )
    return PageState(shown, (player, reads), changed)


@gzip_page
def team_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A team's members and its place in each tournament it played, with which players' results
    counted for it and the rule that chose them; kept ready as a player's page (:func:`team_state`),
    and paged as it is (``?strona=N``, ``TOURNAMENTS_PER_PAGE`` tournaments newest first): only the
    page's tournaments are read, so a team of ten seasons costs what a team of one does."""
    number = _list_page(request)

    def content(visitor: HttpRequest, state: tuple[Team, dict[int, str]]) -> HttpResponse:
        team, current = state
        members = sorted(
            team.memberships.select_related("player", "player__club"), key=lambda m: (player_key(m.player), m.player_id)
        )
        newest_first = Tournament.objects.filter(pk__in=list(current)).order_by("-date", "-pk")
        pages = Paginator(list(newest_first.values_list("pk", flat=True)), TOURNAMENTS_PER_PAGE)
        shown = pages.get_page(number)
        history = team_page_history(team, {pk: current[pk] for pk in shown.object_list})
        context = {"team": team, "members": members, "history": history, "pages": shown}
        response = render(visitor, "public/team.html", context)
        response.keep = number <= pages.num_pages  # a page past the last shows the last, kept once under its own number
        return response

    return kept_page(
        request, kind="team", key=str(pk), state_read=lambda: team_state(pk), content=content, variant=(number,)
    )


def team_state(pk: int) -> PageState[tuple[Team, dict[int, str]]] | None:
    """What a team's page shows, in four reads: the team with its club and captain, its members,
    everybody who played for it (their names head its results), and the standings' stamps of
    the published tournaments it entered."""
    team = Team.objects.select_related("club", "captain").filter(pk=pk).first()
    if team is None:
        return None
    members = team.memberships.select_related("player", "player__club").order_by("pk")
    played = Registration.objects.filter(team=team).select_related("player").order_by("pk")
    current = team_stamps(team)
    shown = (
        field_values(team),
        team.club and field_values(team.club),
        team.captain and field_values(team.captain),
        [(field_values(m), field_values(m.player)) for m in members],
        [(r.tournament_id, field_values(r.player)) for r in played],
        sorted(current.items()),
    )
    changed = latest(
        current.changed,
        team.updated,
        team.captain and team.captain.updated,
        *(m.player.updated for m in members),
        *(r.player.updated for r in played),
    )
    return PageState(shown, (team, current), changed)


def _list_page(request: HttpRequest) -> int:
    """The page of a long list asked for (``?strona=N``), 1 for anything else."""
    asked = request.GET.get("strona", "")
    return int(asked) if asked.isdigit() and 0 < int(asked) <= 10_000 else 1


def kept_page(
    request: HttpRequest,
    *,
    kind: str,
    key: str,
    state_read: Callable[[], PageState[T] | None],
    content: Callable[[HttpRequest, T], HttpResponse],
    sort: dict[str, str] | None = None,
    variant: tuple[Hashable, ...] = (),
    shared: bool = False,
) -> HttpResponse:
    """A page kept ready (``page_answer``, ``shared`` as it says) whose ``content`` a logged-in
    visitor gets afresh: built once per state, language, sort order (``sort``, validated) and
    ``variant`` for anonymous ones."""
    sort = sort or {}

    def fresh() -> HttpResponse:
        state = state_read()
        if state is None:
            raise Http404
        return content(request, state.data)

    return page_answer(
        request,
        kind=kind,
        key=key,
        state_read=state_read,
        page_build=lambda data: content(sorted_only(request, sort), data),
        fresh=fresh,
        variant=(*sorted(sort.items()), *variant),
        shared=shared,
    )
