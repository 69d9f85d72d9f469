"""The organiser's draw screens: drawing series, swapping seats, the draw log."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from league.tournaments import draws, selectors
from league.tournaments.forms import (
    DrawForm,
    SwapForm,
)
from league.tournaments.roles import organiser_required
from league.tournaments.views import posted_number, show_errors


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
