"""The league screens: the organiser's (my leagues, a new league, one league's settings and
organisers) and the public ones (the league's page, its calendar and iCalendar feed, and the
feed of every league).

Anyone who may create tournaments may create a league and becomes its organiser; only a
league's organisers (and superusers) change it. Every change goes through ``services``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST, require_safe

from league.leagues import selectors, services
from league.leagues.forms import LeagueForm, OrganiserForm, OrganiserRemoveForm
from league.leagues.ical import CONTENT_TYPE, calendar_ics
from league.models import League
from league.public.page_store import PageState, day_start, page_answer
from league.public.views import sorted_only
from league.standings.cache import latest

View = Callable[..., HttpResponse]
# a changed logo shows within the hour; the address carries the league's ``updated`` to show it at once
LOGO_CACHE_SECONDS = 60 * 60
# A calendar feed may be kept this long by a calendar app (a tournament's time rarely changes on the
# day; a quarter of an hour late is soon enough); after that a current copy costs it a bodiless 304.
FEED_MAX_AGE = 15 * 60


def league_organiser_required(view: View) -> View:
    """Anonymous users go to the login page, anyone but the league's organisers gets 403;
    the view finds the league as ``request.league``."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, slug: str, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        league = get_object_or_404(League, slug=slug)
        if not selectors.is_league_organiser(user=request.user, league=league):
            raise PermissionDenied(_("Only the league's organisers may change it."))
        request.league = league
        return view(request, *args, slug=slug, **kwargs)

    return wrapped


# --- the organiser's screens -------------------------------------------------


@login_required
def league_list(request: HttpRequest) -> HttpResponse:
    """The leagues the user organises."""
    return render(request, "leagues/league_list.html", {"leagues": selectors.leagues_organised(user=request.user)})


@login_required
@permission_required("league.add_tournament", raise_exception=True)
def league_create(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST or None, request.FILES or None)
    if form.is_valid():
        try:
            league = services.league_create(user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The league has been created: choose it in its tournaments' forms."))
            return redirect("leagues:edit", slug=league.slug)
    return render(request, "leagues/league_form.html", {"form": form})


@league_organiser_required
def league_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's settings, its organisers, tournaments and seasons, and its history."""
    league = request.league
    form = LeagueForm(request.POST or None, request.FILES or None, instance=league)
    if form.is_valid():
        try:
            league = services.league_update(league=league, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The settings have been saved."))
            return redirect("leagues:edit", slug=league.slug)
    # a posted form has changed the instance as typed: the page shows the league as stored
    return _edit_page(request, League.objects.get(pk=league.pk) if form.is_bound else league, form=form)


def _edit_page(
    request: HttpRequest, league: League, *, form: LeagueForm, organiser_form: OrganiserForm | None = None
) -> HttpResponse:
    context = {
        "league": league,
        "form": form,
        "organiser_form": organiser_form or OrganiserForm(),
        "organisers": selectors.league_organisers(league=league),
        "tournaments": league.tournaments.order_by("-date", "name"),
        "seasons": league.seasons.order_by("-year", "name"),
        "history": selectors.league_history(league=league),
    }
    return render(request, "leagues/league_form.html", context)


@league_organiser_required
@require_POST
def organiser_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Make another account one of the league's organisers, by its exact user name."""
    league = request.league
    form = OrganiserForm(request.POST)
    if not form.is_valid():
        return _edit_page(request, league, form=LeagueForm(instance=league), organiser_form=form)
    organiser = form.cleaned_data["username"]
    if services.league_organiser_add(league=league, organiser=organiser, user=request.user):
        messages.success(request, _("%(name)s now organises the league.") % {"name": organiser.get_username()})
    return redirect("leagues:edit", slug=slug)


@league_organiser_required
@require_POST
def organiser_remove(request: HttpRequest, slug: str) -> HttpResponse:
    form = OrganiserRemoveForm(request.POST)
    if form.is_valid():
        organiser = form.cleaned_data["user"]
        try:
            removed = services.league_organiser_remove(league=request.league, organiser=organiser, user=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            if removed:
                messages.success(
                    request, _("%(name)s no longer organises the league.") % {"name": organiser.get_username()}
                )
    return redirect("leagues:edit", slug=slug)


# --- the public pages ----------------------------------------------------------


@gzip_page
def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's public page, phone first: what comes next, the current season's top, the
    latest results and the past seasons; kept ready on its state (``page_store.page_answer``)."""

    def state() -> PageState[selectors.LeaguePage] | None:
        return selectors.league_page_state(slug=slug, today=timezone.localdate(), now=timezone.now())

    def fresh() -> HttpResponse:
        found = state()
        if found is None:
            raise Http404
        return render(request, "leagues/league_page.html", selectors.league_page_context(page=found.data))

    return page_answer(
        request,
        kind="league",
        key=slug,
        state_read=state,
        page_build=lambda page: render(
            sorted_only(request, {}), "leagues/league_page.html", selectors.league_page_context(page=page)
        ),
        fresh=fresh,
    )


def league_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """Every published tournament of the league: the coming ones first, then the past ones; kept
    ready on the calendar's stamp and today's date (``page_store.page_answer``)."""

    def state() -> PageState[tuple[League, date]] | None:
        league = League.objects.filter(slug=slug).first()
        if league is None:
            return None
        today = timezone.localdate()
        shown, changed = selectors.calendar_stamp(league=league)
        # the coming tournaments become past ones at midnight
        return PageState(
            (league.name, today, shown), (league, today), latest(changed, league.updated, day_start(today))
        )

    def build(request: HttpRequest, league: League, today: date) -> HttpResponse:
        tournaments = list(selectors.public_tournaments(league=league))
        context = {
            "league": league,
            "upcoming": [t for t in tournaments if t.date >= today],
            "past": [t for t in reversed(tournaments) if t.date < today],
        }
        return render(request, "leagues/calendar.html", context)

    def fresh() -> HttpResponse:
        found = state()
        if found is None:
            raise Http404
        return build(request, *found.data)

    return page_answer(
        request,
        kind="calendar",
        key=slug,
        state_read=state,
        page_build=lambda found: build(sorted_only(request, {}), *found),
        fresh=fresh,
    )


@require_safe
def league_logo(request: HttpRequest, slug: str) -> FileResponse:
    """The league's logo, stored as a small PNG by the form (``league.logo``); 404 without one.
    The media files are not served as such: only what a public page shows is."""
    league = get_object_or_404(League.objects.exclude(logo=""), slug=slug)
    try:
        logo = league.logo.open("rb")
    except OSError as error:  # the file is gone from the disk
        raise Http404 from error
    response = FileResponse(logo, content_type="image/png")
    response["Cache-Control"] = f"public, max-age={LOGO_CACHE_SECONDS}"
    return response


@require_safe
def league_calendar_ics(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's calendar as an iCalendar feed, for a phone's or a mail program's calendar."""

    def state() -> PageState[League] | None:
        league = League.objects.filter(slug=slug).first()
        if league is None:
            return None
        shown, changed = selectors.calendar_stamp(league=league)
        return PageState((league.name, shown), league, latest(changed, league.updated))

    return _ics(request, key=slug, state=state, name_of=lambda league: league.name)


@require_safe
def calendar_all_ics(request: HttpRequest) -> HttpResponse:
    """Every league's published tournaments in one feed."""
    return _ics(
        request,
        key="",
        state=every_league_state,
        name_of=lambda league: _("Baśka League"),
    )


def every_league_state() -> PageState[None]:
    """The state of the feed of every league: its tournaments' (:func:`selectors.calendar_stamp`)."""
    shown, changed = selectors.calendar_stamp(league=None)
    return PageState(shown, None, changed)


def _ics(
    request: HttpRequest,
    *,
    key: str,
    state: Callable[[], PageState[League | None] | None],
    name_of: Callable[[League | None], str],
) -> HttpResponse:
    """A calendar feed kept ready (``page_store.page_answer``): built once per state and host (its
    events link to the tournaments' pages there), sent compressed, and answered with a bodiless
    304 while the calendar app's copy is current. Phones' calendars poll a feed all day,
    unattended: they may keep it ``FEED_MAX_AGE`` seconds without asking."""

    def build(league: League | None) -> HttpResponse:
        body = calendar_ics(
            name=name_of(league),
            tournaments=selectors.calendar_tournaments(league=league),
            url_of=lambda tournament: request.build_absolute_uri(reverse("public:tournament", args=[tournament.slug])),
            now=timezone.now(),
        )
        return HttpResponse(body, content_type=CONTENT_TYPE)

    return page_answer(
        request,
        kind="calendar.ics",
        key=key,
        state_read=state,
        page_build=build,
        variant=(request.scheme, request.get_host()),
        max_age=FEED_MAX_AGE,
    )
