"""The public site: read-only pages for players and spectators, no login.

A draw is shown only once the organiser has published it, a series' results
and protocols only once the referee has closed the series. Every number comes
from ``league.standings.cache``; the views only pick what may be shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from league.models import Registration, Season, Series, Tournament
from league.results import services as results
from league.results.labels import CONTRACT_LABELS
from league.results.models import Protocol
from league.standings import cache as rankings
from players.models import Player, Team
from scoring import SEATS

from .tables import StandingTable, standing_table

EXPORT_PARAM = "_export"
PROJECTOR_ROWS = 20

LIST_TITLES = {
    "individual": _("Individual ranking"),
    "women": _("Women's ranking"),
    "men": _("Men's ranking"),
    "teams": _("Team ranking"),
}


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
    """The lists the organiser chose to publish, as sortable tables."""
    published = rankings.published(tournament)
    lists = rankings.tournament_rankings(tournament, stamp)
    result = []
    for key, title in LIST_TITLES.items():
        if not published[key]:
            continue
        table = standing_table(
            lists[key], teams=key == "teams", big_points=tournament.uses_big_points, prefix=f"{key}-"
        )
        RequestConfig(request, paginate=False).configure(table)
        result.append(Ranking(key, str(title), table))
    return result


def export_response(request: HttpRequest, tables: list[Ranking], name: str) -> HttpResponse | None:
    """The CSV or XLSX download asked for with ``?_export=xlsx&lista=individual``, if any."""
    export_format = request.GET.get(EXPORT_PARAM)
    if not TableExport.is_valid_format(export_format):
        return None
    chosen = next((r for r in tables if r.key == request.GET.get("lista")), None)
    if chosen is None:
        raise Http404
    return TableExport(export_format, chosen.table).response(filename=f"{name}-{chosen.key}.{export_format}")


def current_series(series_list: list[Series]) -> Series | None:
    """The series being played or about to be: the first drawn one not yet closed."""
    return next((s for s in series_list if s.is_drawn and not results_visible(s)), None)


def seating(series: Series) -> list[dict[str, Any]]:
    """Who sits where in one series, by surname, so a player finds their table at a glance."""
    seats = [
        {"name": seat.name, "team": seat.team, "table": table.number, "seat": seat.seat}
        for table in rankings.series_tables(series, with_results=False)
        for seat in table.seats
    ]
    seats += [{"name": bye.name, "team": "", "table": None, "seat": ""} for bye in rankings.series_byes(series)]
    return sorted(seats, key=lambda s: s["name"].split()[-1:] + [s["name"]])


# --- pages ------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    """The public front page: the seasons and the tournaments, newest first."""
    context = {
        "seasons": Season.objects.order_by("-year", "name"),
        "tournaments": Tournament.objects.select_related("season").order_by("-date")[:30],
    }
    return render(request, "home.html", context)


def season_page(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    lists = rankings.season_rankings(season)
    big_points = any(t.uses_big_points for t in rankings.season_tournaments(season))
    tables = []
    for key in ("individual", "teams"):
        table = standing_table(lists[key], teams=key == "teams", big_points=big_points, season=True, prefix=f"{key}-")
        RequestConfig(request, paginate=False).configure(table)
        tables.append(Ranking(key, str(LIST_TITLES[key]), table))
    if response := export_response(request, tables, season.slug):
        return response
    context = {"season": season, "tournaments": season.tournaments.order_by("date"), "rankings": tables}
    return render(request, "public/season.html", context)


def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The programme, the series with their state and who sits where in the current one."""
    tournament = get_object_or_404(Tournament.objects.select_related("season"), slug=slug)
    series_list = list(tournament.series.order_by("number"))
    current = current_series(series_list) if tournament.draw_published else None
    context = {
        "tournament": tournament,
        "series_list": series_list,
        "current": current,
        "seating": seating(current) if current else [],
    }
    return render(request, "public/tournament.html", context)


def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("season"), slug=slug)
    stamp = rankings.stamps(Tournament.objects.filter(pk=tournament.pk))[tournament.pk]
    tables = published_rankings(request, tournament, stamp)
    if response := export_response(request, tables, tournament.slug):
        return response
    closed = tournament.series.filter(status=Series.Status.CLOSED).count()
    # the rendered tables are the costly part of the page; they change only with the stamp
    context = {"tournament": tournament, "rankings": tables, "closed": closed, "stamp": stamp}
    return render(request, "public/standings.html", context)


def visible_series(slug: str, number: int) -> Series:
    """The series, if its draw has been published."""
    series = get_object_or_404(
        Series.objects.select_related("tournament__season"), tournament__slug=slug, number=number
    )
    if not draw_visible(series):
        raise Http404
    return series


def series_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = visible_series(slug, number)
    with_results = results_visible(series)
    context = {
        "tournament": series.tournament,
        "series": series,
        "tables": rankings.series_tables(series, with_results=with_results),
        "byes": rankings.series_byes(series),
        "with_results": with_results,
    }
    return render(request, "public/series.html", context)


def protocol_lines(protocol: Protocol) -> list[dict[str, Any]]:
    """The protocol's rows for the page: contract, and value and running total per seat."""
    return [
        {
            "number": row.number,
            "contract": CONTRACT_LABELS.get(row.deal.get("contract"), ""),
            "bok_round": row.bok_round,
            "cells": [(row.values[seat], row.totals[seat]) for seat in SEATS],
        }
        for row in results.sheet(protocol)
    ]


def table_page(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """One table's protocol, row by row with running totals, once the series is closed."""
    series = visible_series(slug, number)
    if not results_visible(series):
        raise Http404
    protocol = get_object_or_404(Protocol, series=series, table=table)
    seats = next((t.seats for t in rankings.series_tables(series, with_results=True) if t.number == table), [])
    context = {
        "tournament": series.tournament,
        "series": series,
        "protocol": protocol,
        "seats": seats,
        "rows": protocol_lines(protocol),
    }
    return render(request, "public/table.html", context)


def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's tournaments and seasons, with place and points in each."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    registrations = Registration.objects.filter(player=player).select_related("tournament__season", "team")
    history = []
    for registration in registrations.order_by("-tournament__date"):
        lists = rankings.tournament_rankings(registration.tournament)
        entry = next((e for e in lists["individual"] if e["pk"] == player.pk), None)
        history.append({"tournament": registration.tournament, "team": registration.team, "entry": entry})
    seasons = []
    for season in Season.objects.filter(tournaments__registrations__player=player).distinct():
        entry = next((e for e in rankings.season_rankings(season)["individual"] if e["pk"] == player.pk), None)
        seasons.append({"season": season, "entry": entry})
    return render(request, "public/player.html", {"player": player, "history": history, "seasons": seasons})


def team_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A team's members and its place in each tournament it played."""
    team = get_object_or_404(Team.objects.select_related("club", "captain"), pk=pk)
    tournaments = Tournament.objects.filter(registrations__team=team).distinct().order_by("-date")
    history = []
    for tournament in tournaments:
        entry = next((e for e in rankings.tournament_rankings(tournament)["teams"] if e["pk"] == team.pk), None)
        history.append({"tournament": tournament, "entry": entry})
    members = team.memberships.select_related("player").order_by("player__last_name")
    return render(request, "public/team.html", {"team": team, "members": members, "history": history})


def projector_page(request: HttpRequest, slug: str) -> HttpResponse:
    """For the hall's screen: the top of the standings and the next series' tables, refreshed every 30 s."""
    tournament = get_object_or_404(Tournament, slug=slug)
    series_list = list(tournament.series.order_by("number"))
    current = current_series(series_list) if tournament.draw_published else None
    lists = rankings.tournament_rankings(tournament)
    context = {
        "tournament": tournament,
        "leaders": lists["individual"][:PROJECTOR_ROWS] if tournament.publish_individual else [],
        "teams": lists["teams"][: PROJECTOR_ROWS // 2] if tournament.publish_teams else [],
        "current": current,
        "tables": rankings.series_tables(current, with_results=False) if current else [],
    }
    return render(request, "public/projector.html", context)
