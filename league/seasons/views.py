"""The organiser's season screens: my seasons, a new season, and one season's settings
with its tournaments (attach, detach, count or not).

Anyone who may create tournaments may create a season and becomes its organiser;
only a season's organisers (and superusers) change it, and only tournaments the
user organises may join it. Every change goes through ``services``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.models import Season, Tournament
from league.seasons import selectors, services
from league.seasons.forms import AttachForm, CountsForm, SeasonForm

View = Callable[..., HttpResponse]


def season_organiser_required(view: View) -> View:
    """Anonymous users go to the login page, anyone but the season's organisers gets 403;
    the view finds the season as ``request.season``."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, slug: str, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        season = get_object_or_404(Season, slug=slug)
        if not selectors.is_season_organiser(user=request.user, season=season):
            raise PermissionDenied(_("Only the season's organisers may change it."))
        request.season = season
        return view(request, *args, slug=slug, **kwargs)

    return wrapped


@login_required
def season_list(request: HttpRequest) -> HttpResponse:
    """The seasons the user organises."""
    return render(request, "seasons/season_list.html", {"seasons": selectors.season_list(user=request.user)})


@login_required
@permission_required("league.add_tournament", raise_exception=True)
def season_create(request: HttpRequest) -> HttpResponse:
    form = SeasonForm(request.POST or None, user=request.user)
    if form.is_valid():
        try:
            season = services.season_create(user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The season has been created: add its tournaments."))
            return redirect("seasons:edit", slug=season.slug)
    return render(request, "seasons/season_form.html", {"form": form})


@season_organiser_required
def season_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """The season's settings, its tournaments and the user's tournaments that may join it."""
    season = request.season
    form = SeasonForm(request.POST or None, instance=season, user=request.user)
    if form.is_valid():
        try:
            season = services.season_update(season=season, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The settings have been saved."))
            return redirect("seasons:edit", slug=season.slug)
    # a posted form has changed the instance as typed: the page's heading shows the season as stored
    return _edit_page(request, Season.objects.get(pk=season.pk) if form.is_bound else season, form=form)


def _edit_page(
    request: HttpRequest, season: Season, *, form: SeasonForm, attach: AttachForm | None = None
) -> HttpResponse:
    """The season's page: its settings form, its tournaments and the form adding one."""
    tournaments = selectors.attachable_tournaments(user=request.user, season=season)
    context = {
        "season": season,
        "form": form,
        "tournaments": selectors.season_tournaments_all(season=season),
        "history": selectors.season_history(season=season),
        "attach": attach or AttachForm(tournaments=tournaments),
        "mixed_rules": selectors.season_mixed_rules_warning(season=season),
    }
    return render(request, "seasons/season_form.html", context)


@season_organiser_required
@require_POST
def season_attach(request: HttpRequest, slug: str) -> HttpResponse:
    """Add one of the user's tournaments to the season; the list of choices holds no other."""
    season = request.season
    form = AttachForm(request.POST, tournaments=selectors.attachable_tournaments(user=request.user, season=season))
    if not form.is_valid():
        posted = request.POST.get("tournament", "")
        if posted.isdigit() and season.tournaments.filter(pk=posted).exists():
            return redirect("seasons:edit", slug=slug)  # a resent form: attached already
        return _edit_page(request, season, form=SeasonForm(instance=season, user=request.user), attach=form)
    tournament = form.cleaned_data["tournament"]
    try:
        services.season_tournament_attach(
            season=season, tournament=tournament, user=request.user, move=form.cleaned_data["move"]
        )
    except ValidationError as error:
        if error.code == "in_other_season":  # the page asks; its button posts the same choice with the yes
            form = AttachForm(
                {"tournament": tournament.pk, "move": True},
                tournaments=selectors.attachable_tournaments(user=request.user, season=season),
            )
            form.is_valid()
            form.add_error(None, error)
        else:
            form.add_error("tournament", error)
        return _edit_page(request, season, form=SeasonForm(instance=season, user=request.user), attach=form)
    messages.success(request, _("%(name)s now belongs to the season.") % {"name": tournament.name})
    if warning := selectors.season_mixed_rules_warning(season=season):
        messages.warning(request, warning)
    return redirect("seasons:edit", slug=slug)


@season_organiser_required
@require_POST
def season_detach(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Take a tournament out of the season (it stays as it is, in no season)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if services.season_tournament_detach(season=request.season, tournament=tournament, user=request.user):
        messages.success(request, _("%(name)s no longer belongs to the season.") % {"name": tournament.name})
    return redirect("seasons:edit", slug=slug)


@season_organiser_required
@require_POST
def season_counts(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Let a tournament of the season count for its tables, or not."""
    tournament = get_object_or_404(request.season.tournaments, pk=pk)
    form = CountsForm(request.POST)
    counts = form.is_valid() and form.cleaned_data["counts"]  # nothing posted: does not count
    services.season_tournament_count(season=request.season, tournament=tournament, counts=counts, user=request.user)
    return redirect("seasons:edit", slug=slug)
