"""The organiser's registration list: registering known and new players, the day's ticks, withdrawals."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.models import Registration
from league.tournaments import registrations, selectors
from league.tournaments.forms import (
    QuickAddForm,
    RegisterForm,
    RegistrationSearchForm,
    WithdrawForm,
)
from league.tournaments.roles import organiser_required
from league.tournaments.views import show_errors


@organiser_required
def registration_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Registered players with the day's ticks, and the search that registers more."""
    tournament = request.tournament
    search = RegistrationSearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    found = selectors.player_search(tournament=tournament, query=query) if query else []
    results = {"tournament": tournament, "search": search, "found": found, "query": query}
    if request.htmx and request.htmx.target == "search-results":
        return render(request, "league/_search_results.html", results)
    return render(
        request,
        "league/registration_list.html",
        {
            **results,
            "registrations": selectors.registration_list(tournament=tournament),
            "quick_form": QuickAddForm(),
            "withdraw_choices": range(1, tournament.series_count),
            "next_series": selectors.series_next_undrawn(tournament=tournament),
        },
    )


def _registered(request: HttpRequest, registration: Registration) -> None:
    if registration.first_series > 1:
        messages.success(
            request,
            _("%(player)s registered as a late arrival and plays from series %(number)s.")
            % {"player": registration.player, "number": registration.first_series},
        )
    else:
        messages.success(request, _("%(player)s registered.") % {"player": registration.player})


@organiser_required
@require_POST
def register(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    form = RegisterForm(request.POST)
    if form.is_valid():
        try:
            _registered(
                request, registrations.registration_create(tournament=tournament, player=form.cleaned_data["player"])
            )
        except ValidationError as error:
            show_errors(request, error)
    return redirect("tournaments:registrations", slug=slug)


@organiser_required
def quick_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    form = QuickAddForm(request.POST or None)
    if form.is_valid():
        try:
            _registered(request, registrations.registration_quick_add(tournament=tournament, **form.cleaned_data))
            return redirect("tournaments:registrations", slug=slug)
        except ValidationError as error:
            form.add_error(None, error)
    return render(request, "league/quick_add.html", {"tournament": tournament, "form": form})


@organiser_required
@require_POST
def toggle(request: HttpRequest, slug: str, pk: int, flag: registrations.Flag) -> HttpResponse:
    """Tick presence or fee; htmx gets the new button, a plain form goes back to the list."""
    tournament = request.tournament
    registration = get_object_or_404(tournament.registrations, pk=pk)
    registrations.registration_flag_toggle(registration=registration, flag=flag)
    if request.htmx:
        return render(
            request, "league/_toggle.html", {"tournament": tournament, "registration": registration, "flag": flag}
        )
    return redirect("tournaments:registrations", slug=slug)


@organiser_required
@require_POST
def withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = request.tournament
    registration = get_object_or_404(tournament.registrations.select_related("player"), pk=pk)
    form = WithdrawForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            to_redraw = registrations.registration_withdraw(
                registration=registration, number=form.cleaned_data["after_series"]
            )
        except ValidationError as error:
            show_errors(request, error)
        else:
            messages.success(request, _("Saved: %(player)s.") % {"player": registration.player})
            if to_redraw:
                messages.warning(
                    request,
                    _("%(player)s is still seated in series %(numbers)s; draw them again.")
                    % {"player": registration.player, "numbers": ", ".join(map(str, to_redraw))},
                )
    return redirect("tournaments:registrations", slug=slug)
