"""The organiser's tournament screens: the list, creating one, its programme and publication.

Only the tournament's organisers (and superusers) may open them; every change
goes through the services (``services``, ``registrations``, ``draws``), every
read through ``selectors``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.tournaments import selectors, services
from league.tournaments.forms import (
    TournamentForm,
)
from league.tournaments.roles import organiser_required


def posted_number(value: str | None) -> int | None:
    """A series number from a button's posted value; None when a tampered form sent something else."""
    try:
        return int(value) if value else None
    except ValueError:
        return None


def show_errors(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    """The tournaments the user organises or referees, newest first."""
    return render(request, "league/tournament_list.html", {"rows": selectors.tournament_list(user=request.user)})


@login_required
@permission_required("league.add_tournament", raise_exception=True)
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None, request.FILES or None)
    if form.is_valid():
        tournament = services.tournament_create(user=request.user, **form.cleaned_data)
        messages.success(request, _("The tournament has been created."))
        return redirect(tournament)
    return render(request, "league/tournament_form.html", {"form": form})


@organiser_required
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    return render(
        request,
        "league/tournament_detail.html",
        {
            "tournament": tournament,
            "series_list": tournament.series.order_by("number"),
            "summary": selectors.tournament_summary(tournament=tournament),
        },
    )


@organiser_required
@require_POST
def publish(request: HttpRequest, slug: str) -> HttpResponse:
    """Switch what the public pages show: the draw, or one series' results."""
    tournament = request.tournament
    number = request.POST.get("series")
    if number:
        series = get_object_or_404(tournament.series, number=posted_number(number))
        services.series_results_publication_toggle(series=series)
    else:
        services.tournament_draw_publication_toggle(tournament=tournament)
    return redirect("tournaments:detail", slug=slug)
