"""Reads of the leagues: whose leagues, a league's public page (next tournaments, the current
season's top, the latest results, past seasons) and its calendar."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet, Subquery, Sum

from league.models import League, LeagueVersion, Season, Series, Tournament
from league.public.page_store import PageState, day_start, field_values
from league.signups.selectors import signups_open
from league.standings.cache import latest, season_rankings_of, stamps, tournament_rankings
from league.standings.seasons import season_tournaments, season_uses_big_points

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    User = AbstractBaseUser | AnonymousUser

# what the league's page lists of each kind; the full lists are a link away
NEXT_SHOWN = 5
SEASON_TOP = 10
RESULTS_SHOWN = 3
HISTORY_SHOWN = 50


def is_league_organiser(*, user: User, league: League) -> bool:
    """A superuser, or one of the league's organisers: only they change it."""
    return user.is_authenticated and (user.is_superuser or league.organisers.filter(pk=user.pk).exists())


def leagues_organised(*, user: AbstractBaseUser) -> QuerySet[League]:
    """The leagues ``user`` organises (a superuser: all), by name."""
    leagues = League.objects.all() if user.is_superuser else League.objects.filter(organisers=user)
    return leagues.order_by("name", "pk")


def league_choices(*, user: AbstractBaseUser, current: int | None) -> QuerySet[League]:
    """The leagues a tournament or season of ``user`` may be put in: those they organise (a
    superuser: all), and the one it is in now (``current``), which it may keep."""
    if user.is_superuser:
        return League.objects.order_by("name", "pk")
    chosen = Q(pk=current) if current else Q(pk__in=[])
    return League.objects.filter(Q(organisers=user) | chosen).distinct().order_by("name", "pk")


def league_organisers(*, league: League) -> list[AbstractBaseUser]:
    return list(league.organisers.order_by("username"))


def league_history(*, league: League) -> list[dict[str, Any]]:
    """The league's changes, newest first, in words: when, who, what and why; a change of settings
    names each setting with its value before and after, an organiser's change their user name."""
    rows = []
    for version in league.history.select_related("user")[:HISTORY_SHOWN]:
        if version.action == LeagueVersion.Action.CHANGE:
            details = "; ".join(
                f"{League._meta.get_field(name).verbose_name}: {old or '—'} → {version.new[name] or '—'}"
                for name, old in version.old.items()
            )
        elif version.action == LeagueVersion.Action.CREATE:
            details = ""
        else:
            details = (version.new or version.old)["username"]
        rows.append(version.line(details))
    return rows


def public_tournaments(*, league: League) -> QuerySet[Tournament]:
    """The league's published tournaments, earliest first."""
    return league.tournaments.filter(published=True).order_by("date", "start_time", "pk")


def calendar_tournaments(*, league: League | None) -> QuerySet[Tournament]:
    """The tournaments a calendar lists: the league's published ones, or (None) every league's."""
    if league is None:
        return Tournament.objects.filter(published=True, league__isnull=False).order_by("date", "start_time", "pk")
    return public_tournaments(league=league)


def calendar_stamp(*, league: League | None) -> tuple[tuple[Any, ...], datetime | None]:
    """What a calendar shows changes only with its tournaments, so their number, the sum of their
    ids (one taken out and another added) and their latest change (every edit moves ``updated``)
    stand for all of it, in one query however long the league's history; and when it last
    changed, for its ``Last-Modified``: the latest edit of any of the league's tournaments,
    published or not, so a tournament unpublished (which leaves the calendar) dates it too, or of
    the league (which one deleted or moved away moves, ``services.league_calendar_left``)."""
    every = Tournament.objects.filter(league__isnull=False) if league is None else league.tournaments.all()
    published = Q(published=True)
    figures = every.order_by().aggregate(
        count=Count("pk", filter=published),
        ids=Sum("pk", filter=published),
        changed=Max("updated", filter=published),
        edited=Max("updated"),
        league_edited=Max("league__updated"),  # a tournament deleted or moved away (league_calendar_left)
    )
    return (figures["count"], figures["ids"], figures["changed"]), latest(figures["edited"], figures["league_edited"])


def next_tournaments(*, league: League, today: date) -> QuerySet[Tournament]:
    """The league's published tournaments from ``today`` on, the soonest first, each with its
    sign-up window (``signup_window``, read in the same query) for the page to link the form."""
    return public_tournaments(league=league).filter(date__gte=today).select_related("signup_window")


def home_leagues(*, today: date) -> QuerySet[League]:
    """Every league with its next published tournament (``next_name``, ``next_slug``,
    ``next_date``, ``next_updated``; None without one), in one query."""
    upcoming = (
        Tournament.objects.filter(league=OuterRef("pk"), published=True, date__gte=today)
        .order_by("date", "start_time", "pk")
        .values
    )
    return League.objects.annotate(
        next_name=Subquery(upcoming("name")[:1]),
        next_slug=Subquery(upcoming("slug")[:1]),
        next_date=Subquery(upcoming("date")[:1]),
        next_updated=Subquery(upcoming("updated")[:1]),
    ).order_by("name", "pk")


@dataclass
class SeasonTop:
    """The current season of a league and the first ``SEASON_TOP`` of its individual table."""

    season: Season
    rows: list[dict[str, Any]]
    big_points: bool


@dataclass
class LatestResult:
    """A finished tournament and the winners of its individual ranking (several when tied)."""

    tournament: Tournament
    winners: list[str]


def current_season(*, league: League) -> SeasonTop | None:
    """The league's latest season (by year) with the top of its individual table, read from the
    standings cache as the season's own page reads it; None for a league without seasons."""
    season = league.seasons.order_by("-year", "-pk").first()
    if season is None:
        return None
    counted = list(season_tournaments(season))
    return season_top(season=season, counted=counted, current=stamps(season_tournaments(season)))


def season_top(*, season: Season, counted: list[Tournament], current: dict[int, str]) -> SeasonTop:
    """The top of ``season``'s individual table given its counted tournaments and their stamps."""
    rankings = season_rankings_of(season, counted, current)
    return SeasonTop(season, rankings["individual"][:SEASON_TOP], season_uses_big_points(season, counted))


def past_seasons(*, league: League, current: Season | None) -> QuerySet[Season]:
    seasons = league.seasons.order_by("-year", "name")
    return seasons.exclude(pk=current.pk) if current else seasons


def finished_tournaments(*, league: League) -> list[Tournament]:
    """The league's last ``RESULTS_SHOWN`` published tournaments whose every series is closed,
    newest first."""
    open_series = Series.objects.filter(tournament=OuterRef("pk")).exclude(status=Series.Status.CLOSED)
    finished = (
        public_tournaments(league=league)
        .filter(Exists(Series.objects.filter(tournament=OuterRef("pk"))), ~Exists(open_series))
        .order_by("-date", "-pk")[:RESULTS_SHOWN]
    )
    return list(finished)


def latest_results(*, league: League) -> list[LatestResult]:
    """The league's :func:`finished_tournaments` with their winners; one query for the stamps of all of them."""
    tournaments = finished_tournaments(league=league)
    current = stamps(Tournament.objects.filter(pk__in=[t.pk for t in tournaments]))
    return results_of(tournaments=tournaments, current=current)


def results_of(*, tournaments: list[Tournament], current: dict[int, str]) -> list[LatestResult]:
    """Each of ``tournaments`` with the winners of its individual ranking under its stamp in ``current``."""
    results = []
    for tournament in tournaments:
        individual = tournament_rankings(tournament, current[tournament.pk])["individual"]
        results.append(LatestResult(tournament, [row["name"] for row in individual if row["place"] == 1]))
    return results


@dataclass
class LeaguePage:
    """What a league's public page is built from (the cheap reads; the tables come from the cache)."""

    league: League
    coming: list[tuple[Tournament, bool]]  # with whether it takes online sign-ups now
    season: Season | None
    counted: list[Tournament]  # the season's counted tournaments
    finished: list[Tournament]
    current: dict[int, str]  # the standings' stamps of both
    past: list[Season]


def league_page_state(*, slug: str, today: date, now: datetime) -> PageState[LeaguePage] | None:
    """The league with ``slug`` and, as plain values, everything its public page shows: its own
    settings, the next tournaments (with their sign-up windows, open or not at ``now``), its
    latest season with the standings' stamps of its tournaments, the latest finished
    tournaments with theirs, and the past seasons. Seven short queries; ``None`` for no league."""
    league = League.objects.filter(slug=slug).first()
    if league is None:
        return None
    coming = [
        (tournament, signups_open(window=getattr(tournament, "signup_window", None), now=now))
        for tournament in next_tournaments(league=league, today=today)[:NEXT_SHOWN]
    ]
    season = league.seasons.order_by("-year", "-pk").first()
    counted = list(season_tournaments(season)) if season else []
    finished = finished_tournaments(league=league)
    current = stamps(Tournament.objects.filter(pk__in=[t.pk for t in counted + finished]))
    past = list(past_seasons(league=league, current=season))
    shown = (
        field_values(league),
        [
            (field_values(t), field_values(t.signup_window) if hasattr(t, "signup_window") else None, open_now)
            for t, open_now in coming
        ],
        field_values(season) if season else None,
        [t.pk for t in counted],
        [t.pk for t in finished],
        sorted(current.items()),
        [(s.pk, str(s), s.slug) for s in past],
    )
    changed = latest(
        current.changed,
        league.updated,
        *(t.updated for t, _open in coming),
        *(t.signup_window.updated for t, _open in coming if hasattr(t, "signup_window")),
        season and season.updated,
        *(s.updated for s in past),
        day_start(today),  # the next tournaments move on then
    )
    return PageState(shown, LeaguePage(league, coming, season, counted, finished, current, past), changed)


def league_page_context(*, page: LeaguePage) -> dict[str, Any]:
    """The league page's template context from its state: the season's top and the latest
    winners read from the standings cache."""
    return {
        "league": page.league,
        "next_tournaments": page.coming,
        "season_top": season_top(season=page.season, counted=page.counted, current=page.current)
        if page.season
        else None,
        "latest_results": results_of(tournaments=page.finished, current=page.current),
        "past_seasons": page.past,
    }
