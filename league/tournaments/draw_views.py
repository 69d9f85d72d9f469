"""The organiser's draw screens: drawing series, redrawing outdated ones, swapping seats, fixed seats,
the draw log and each series' draw history."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.history import REASON_MAX_LENGTH
from league.models import FixedSeat, Tournament
from league.tournaments import draw_history as history
from league.tournaments import draws, selectors
from league.tournaments import fixed_seats as seat_rules
from league.tournaments.draw_messages import table_layout
from league.tournaments.forms import DrawForm, FixedSeatForm, RedrawForm, SwapForm
from league.tournaments.roles import organiser_required
from league.tournaments.views import posted_number, show_errors


def _redraw_outdated(request: HttpRequest, seed: int | None) -> bool:
    """Draw the outdated series again with the seed and series their preview showed; True when done."""
    shown = [posted_number(n) or 0 for n in request.POST.get("outdated", "").split(",") if n]
    try:
        redraw = draws.series_redraw_outdated(
            tournament=request.tournament, seed=seed, numbers=shown, user=request.user
        )
    except ValidationError as error:
        show_errors(request, error)
        return False
    messages.success(
        request,
        _(
            "Drawn again with seed %(seed)s for the players who play now: series %(numbers)s. Repeated "
            "meetings: %(before)s before, %(after)s after. Their tables have new protocols and PINs."
        )
        % {
            "numbers": ", ".join(str(n) for n in redraw.outdated.numbers),
            "seed": redraw.seed,
            "before": redraw.repeats_before,
            "after": redraw.repeats_after,
        },
    )
    return True


def _draw_series(request: HttpRequest, action: str | None, seed: int | None) -> bool:
    """Draw all remaining series or the next one; True when done. (A drawn series is drawn
    again from its own page, :func:`redraw`, which first says what that makes wrong.)"""
    tournament = request.tournament
    numbers = action if action in ("all", "next") else "next"
    try:
        drawn = draws.series_draw(tournament=tournament, numbers=numbers, seed=seed, user=request.user)
    except ValidationError as error:
        show_errors(request, error)
        return False
    messages.success(
        request,
        _("Series %(numbers)s drawn with seed %(seed)s.")
        % {"numbers": ", ".join(str(s.number) for s in drawn), "seed": drawn[0].seed},
    )
    return True


def _redraw_offer(
    tournament: Tournament, seats: list[selectors.SeriesSeats]
) -> tuple[draws.OutdatedDraw | None, draws.Redraw | None, list[str]]:
    """The outdated series, their redraw with a fresh seed (written nowhere) and why it is impossible."""
    outdated = draws.series_outdated(tournament=tournament, seats=seats)
    if outdated is None:
        return None, None, []
    try:
        redraw = draws.series_redraw_preview(tournament=tournament, outdated=outdated, seed=draws.new_seed())
    except ValidationError as error:
        return outdated, None, error.messages
    return outdated, redraw, []


@organiser_required
def draw_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The draw: seed, buttons, how the next series will sit, the redraw of outdated series,
    each series' tables and byes, the swap form."""
    tournament = request.tournament
    form = DrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        action = request.POST.get("action")
        seed = form.cleaned_data["seed"]
        done = _redraw_outdated(request, seed) if action == "outdated" else _draw_series(request, action, seed)
        if done:
            return redirect("tournaments:draw", slug=slug)
    items = selectors.tournament_series_seats(tournament=tournament)
    outdated, redraw, redraw_refusal = _redraw_offer(tournament, items)
    undrawn = [item.series.number for item in items if not item.series.is_drawn]
    undoable = draws.undoable_redraws(series=tournament.series.all())
    size = tournament.table_size
    if undrawn:
        present = draws.series_player_count(tournament=tournament, number=undrawn[0])
        next_layout = table_layout(players=present, table_size=size)
    else:
        next_layout = ""
    return render(
        request,
        "league/draw.html",
        {
            "tournament": tournament,
            "form": form,
            "outdated": outdated,
            "redraw": redraw,
            "redraw_refusal": redraw_refusal,
            "series_list": [
                {
                    "seats": item,
                    "swap_form": SwapForm(series=item.series, players=item.players),
                    "layout": table_layout(players=len(item.players), table_size=size),
                    "undo": undoable.get(item.series.number),
                }
                for item in items
            ],
            "repeats": selectors.tournament_repeats(tournament=tournament),
            "undrawn": undrawn,
            "next_layout": next_layout,
            "fixed_seats": seat_rules.fixed_seat_list(tournament=tournament),
        },
    )


@organiser_required
def redraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Draw one drawn, unplayed series again, after saying what that makes wrong: the published
    draw, the sheets printed for it, the phones holding its PINs, the swaps made by hand. The
    typed seed is the one used; the redraw can be undone while no deal is played."""
    tournament = request.tournament
    series = get_object_or_404(tournament.series, number=number)
    if not series.is_drawn:
        return redirect("tournaments:draw", slug=slug)
    risk = draws.series_redraw_risk(series=series)
    form = RedrawForm(request.POST or None, risky=risk.any)
    if request.method == "POST" and form.is_valid():
        try:
            [drawn] = draws.series_draw(
                tournament=tournament, numbers=[number], seed=form.cleaned_data["seed"], user=request.user
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                _(
                    "Series %(number)s drawn again with seed %(seed)s: new tables, protocols and PINs. "
                    "Until a deal is played, the previous draw can be restored."
                )
                % {"number": number, "seed": drawn.seed},
            )
            return redirect(f"{reverse('tournaments:draw', args=[slug])}#series-{number}")
    return render(
        request,
        "league/redraw.html",
        {"tournament": tournament, "series": series, "risk": risk, "form": form},
        status=400 if request.method == "POST" else 200,
    )


@organiser_required
@require_POST
def redraw_undo(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Restore the draw that the series' last redraw replaced, with its PINs (the printed sheets)."""
    series = get_object_or_404(request.tournament.series, number=number)
    try:
        restored = draws.series_redraw_undo(series=series, user=request.user)
    except ValidationError as error:
        show_errors(request, error)
    else:
        messages.success(
            request,
            _("The previous draw of series %(number)s is back (seed %(seed)s), with its PINs and printed sheets.")
            % {"number": number, "seed": restored.seed},
        )
    return redirect(f"{reverse('tournaments:draw', args=[slug])}#series-{number}")


@organiser_required
def swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Swap two players; a swap that repeats meetings first shows them and asks to confirm."""
    tournament = request.tournament
    series = get_object_or_404(tournament.series, number=number)
    [seats] = selectors.tournament_series_seats(tournament=tournament, series=series)
    form = SwapForm(request.POST or None, series=series, players=seats.players)
    warnings: list[str] = []
    if form.is_valid():
        try:
            draws.series_swap(
                series=series,
                player_a=form.cleaned_data["player_a"],
                player_b=form.cleaned_data["player_b"],
                user=request.user,
                reason=form.cleaned_data["reason"],
                allow_repeats=form.cleaned_data["confirm"],
            )
        except draws.RepeatedMeetings as warning:
            warnings = warning.messages
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Players swapped."))
            return redirect("tournaments:draw", slug=slug)
    item = {
        "seats": seats,
        "swap_form": form,
        "layout": table_layout(players=len(seats.players), table_size=tournament.table_size),
    }
    if warnings:
        item |= {"repeats": warnings, "confirm_form": form.confirmation()}
    return render(
        request,
        "league/swap.html",
        {"tournament": tournament, "item": item},
        status=400 if request.method == "POST" and not warnings else 200,
    )


@organiser_required
def draw_log(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    log = selectors.draw_log(tournament=tournament)
    return render(request, "league/draw_log.html", {"tournament": tournament, "log": log})


@organiser_required
def fixed_seats(request: HttpRequest, slug: str) -> HttpResponse:
    """The fixed seats (stałe miejsca) the draw keeps, the form that sets one, and their history."""
    tournament = request.tournament
    form = FixedSeatForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            fixed = seat_rules.fixed_seat_set(
                registration=data["registration"],
                table=data["table"],
                seat=data["seat"],
                series=data["series"],
                user=request.user,
                reason=data["reason"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                _("%(player)s keeps table %(table)s%(seat)s. The next draw of a series keeps it.")
                % {"player": fixed.registration.player.full_name, "table": fixed.table, "seat": fixed.seat},
            )
            return redirect("tournaments:fixed_seats", slug=slug)
    return render(
        request,
        "league/fixed_seats.html",
        {
            "tournament": tournament,
            "form": form,
            "fixed_seats": seat_rules.fixed_seat_list(tournament=tournament),
            "history": tournament.fixed_seat_history.select_related("user")[:50],
        },
        status=400 if request.method == "POST" else 200,
    )


@organiser_required
@require_POST
def fixed_seat_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Let the draw seat the player anywhere again (a repeated press does nothing more)."""
    fixed = FixedSeat.objects.filter(pk=pk, registration__tournament=request.tournament).first()
    if fixed is not None:
        reason = request.POST.get("reason", "")[:REASON_MAX_LENGTH]
        seat_rules.fixed_seat_remove(fixed=fixed, user=request.user, reason=reason)
        messages.success(request, _("The fixed seat is removed."))
    return redirect("tournaments:fixed_seats", slug=slug)


@organiser_required
def draw_history(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The draw history of one series: every version of its draw (who, when, why; the printed one
    marked), each but the one in force with a button that restores it."""
    tournament = request.tournament
    series = get_object_or_404(tournament.series, number=number)
    names, _teams = selectors.draw_names(tournament=tournament)
    versions = [
        {
            "version": version,
            "tables": [[names.get(p, "?") for p in table] for table in version.draw["tables"]],
            "byes": [names.get(p, "?") for p in version.draw["byes"]],
        }
        for version in history.series_draw_history(series=series)
    ]
    return render(
        request,
        "league/draw_history.html",
        {"tournament": tournament, "series": series, "versions": versions, "reason_max": REASON_MAX_LENGTH},
    )


@organiser_required
@require_POST
def draw_restore(request: HttpRequest, slug: str, number: int, pk: int) -> HttpResponse:
    """Restore one version of the series' draw, with its PINs; a repeated press changes nothing."""
    series = get_object_or_404(request.tournament.series, number=number)
    try:
        restored = history.series_draw_restore(
            series=series, entry_id=pk, user=request.user, reason=request.POST.get("reason", "")[:REASON_MAX_LENGTH]
        )
    except ValidationError as error:
        show_errors(request, error)
    else:
        series.refresh_from_db()
        if restored:
            message = _("Series %(number)s has its earlier draw again (seed %(seed)s), with its PINs.")
        else:
            message = _("Series %(number)s already has this draw (seed %(seed)s); nothing changed.")
        messages.success(request, message % {"number": number, "seed": series.seed})
        seating = selectors.series_seating(series=series)
        if moved := seat_rules.series_fixed_seat_breaks(series=series, seating=seating):
            messages.warning(
                request,
                _("This draw does not keep the fixed seats of: %(players)s. Swap them back or draw the series again.")
                % {"players": ", ".join(moved)},
            )
    return redirect("tournaments:draw_history", slug=slug, number=number)
