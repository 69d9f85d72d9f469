"""The organiser's tournament screens: programme, registration, the day's ticks and the draw.

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

from league.models import Registration
from league.tournaments import draws, registrations, selectors, services
from league.tournaments.forms import (
    DrawForm,
    QuickAddForm,
    RegisterForm,
    RegistrationSearchForm,
    SwapForm,
    TournamentForm,
    WithdrawForm,
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


@organiser_required
def draw_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The draw: seed, buttons, each series' tables and byes, the swap form."""
    tournament = request.tournament
    form = DrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        action = request.POST.get("action")
        if action == "all":
            numbers: list[int] | str = "all"
        elif action == "next":
            # With nothing left to draw, "all" gives the organiser the right refusal.
            following = selectors.series_next_undrawn(tournament=tournament)
            numbers = [following] if following else "all"
        else:
            numbers = [posted_number(request.POST.get("series")) or 0]
        try:
            drawn = draws.series_draw(
                tournament=tournament, numbers=numbers, seed=form.cleaned_data["seed"], user=request.user
            )
        except ValidationError as error:
            show_errors(request, error)
        else:
            messages.success(
                request,
                _("Series %(numbers)s drawn with seed %(seed)s.")
                % {"numbers": ", ".join(str(s.number) for s in drawn), "seed": drawn[0].seed},
            )
            return redirect("tournaments:draw", slug=slug)
    items = selectors.tournament_series_seats(tournament=tournament)
    return render(
        request,
        "league/draw.html",
        {
            "tournament": tournament,
            "form": form,
            "series_list": [
                {"seats": item, "swap_form": SwapForm(series=item.series, players=item.players)} for item in items
            ],
            "repeats": selectors.tournament_repeats(tournament=tournament),
            "undrawn": [item.series.number for item in items if not item.series.is_drawn],
        },
    )


@organiser_required
def swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = request.tournament
    series = get_object_or_404(tournament.series, number=number)
    [seats] = selectors.tournament_series_seats(tournament=tournament, series=series)
    form = SwapForm(request.POST or None, series=series, players=seats.players)
    if form.is_valid():
        try:
            draws.series_swap(
                series=series,
                player_a=form.cleaned_data["player_a"],
                player_b=form.cleaned_data["player_b"],
                user=request.user,
                reason=form.cleaned_data["reason"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Players swapped."))
            return redirect("tournaments:draw", slug=slug)
    return render(
        request,
        "league/swap.html",
        {"tournament": tournament, "item": {"seats": seats, "swap_form": form}},
        status=400 if request.method == "POST" else 200,
    )


@organiser_required
def draw_log(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    log = selectors.draw_log(tournament=tournament)
    return render(request, "league/draw_log.html", {"tournament": tournament, "log": log})
