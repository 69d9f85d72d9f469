"""The referee's results screens: a series' tables, closing it after a look at what is still open and
reopening it with a reason, a protocol's entry, totals, corrections (with what to do next), undoing
"complete", the history, and the tables' PINs: a new PIN for one table or the whole series, and
unlocking a table's PIN page after too many wrong PINs (the series and protocol pages show that alert).
A table's protocol page and its entry forms are its game's (``game_of(tournament)``:
``league.games.baska.referee``, ``league.games.preferans.referee``); around them every game shares
the PIN, the paper's totals, "complete", the confirmation and the referee's penalties
(:func:`protocol_page_context`).

Every page works as plain forms. All changes go through ``league.results.services``, all reads
through ``league.results.selectors``; a page reads the protocol that the draw
created and never creates one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms as django_forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.games import game_of, linked_related
from league.models import Series
from league.results import history, selectors, services
from league.results.forms import ConfirmForm, ReopenSeriesForm, RowChangeForm, TotalsForm, VersionForm
from league.results.models import Protocol
from league.results.penalties.forms import penalty_block
from league.results.penalties.services import table_penalty_history
from league.results.submissions import submission_seen
from league.standings.selectors import series_byes
from league.tournaments.roles import (
    TournamentRefusal,
    is_referee,
    referee_required,
    role_annotations,
    roles_remember,
)


def series_of(request: HttpRequest, number: int) -> Series:
    series = get_object_or_404(Series, tournament=request.tournament, number=number)
    series.tournament = request.tournament  # read by the door already, with the user's roles
    return series


def referee_protocol(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``referee_required`` for the pages of one table's protocol, handing the view the protocol.

    The protocol, its series, the tournament and the user's roles come in one
    query, as the referee reloads these pages after every deal; a table the draw
    did not make is a 404 (to referees: the tournament's door answers others).
    """

    @wraps(view)
    def wrapped(request: HttpRequest, *, slug: str, number: int, table: int, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        protocol = (
            Protocol.objects.select_related("series__tournament", *linked_related("series__tournament"))
            .annotate(**role_annotations(user=request.user, tournament="series__tournament"))
            .filter(series__tournament__slug=slug, series__number=number, table=table)
            .first()
        )
        if protocol is None:
            return referee_required(_no_such_table)(request, slug=slug)
        tournament = protocol.series.tournament
        roles_remember(tournament=tournament, user=request.user, annotated=protocol)
        if not is_referee(request.user, tournament):
            raise TournamentRefusal(tournament=tournament, role="referees")
        request.tournament = tournament
        return view(request, protocol, **kwargs)

    return wrapped


def _no_such_table(request: HttpRequest, slug: str) -> HttpResponse:
    raise Http404


def protocol_url(protocol: Protocol, name: str = "protocol") -> str:
    series = protocol.series
    return reverse(f"results:{name}", args=[series.tournament.slug, series.number, protocol.table])


@referee_required
def series_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = series_of(request, number)
    return render(
        request,
        "results/series.html",
        {
            "tournament": request.tournament,
            "series": series,
            "seats": request.tournament.seats,
            "tables": selectors.series_tables(series=series),
            "byes": series_byes(series),  # with the ruleset's compensation
            "reopen_form": ReopenSeriesForm(),
            **penalty_block(series=series),
        },
    )


@referee_required
def close_series(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """GET asks: the tables whose protocols are not confirmed yet, or the button that closes; POST closes."""
    series = series_of(request, number)
    if request.method == "POST":
        try:
            services.series_close(series=series, user=request.user)
            messages.success(request, _("The series is closed."))
            return redirect("results:series", slug, number)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        return redirect("results:close", slug, number)
    tables = selectors.series_tables(series=series)
    context = {
        "tournament": request.tournament,
        "series": series,
        "tables": tables,
        "unconfirmed": [t for t in tables if t.protocol.status != Protocol.Status.CONFIRMED],
    }
    return render(request, "results/close.html", context)


@referee_required
@require_POST
def reopen_series(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A referee or organiser reopens a closed series, with a reason, for corrections."""
    form = ReopenSeriesForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("Give the reason for reopening the series."), code="reason")
        services.series_reopen(series=series_of(request, number), user=request.user, reason=form.cleaned_data["reason"])
        messages.success(
            request, _("The series is open again; the public standings leave it out until it is closed again.")
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return back_to(request, reverse("results:series", args=[slug, number]))


class ChangeReasonForm(django_forms.Form):
    """Why the referee enters a row on a confirmed protocol: saving it undoes the confirmation, so the
    entry forms ask for the reason (the service refuses without one) and the history keeps it."""

    reason = RowChangeForm.base_fields["reason"]


def change_reason(request: HttpRequest) -> tuple[ChangeReasonForm, str | None]:
    """The reason posted with an entry form; None when the form refused it (too long)."""
    form = ChangeReasonForm(request.POST)
    return form, form.cleaned_data["reason"] if form.is_valid() else None


def protocol_page_context(
    protocol: Protocol, seats: dict[str, Any], sheet: list[selectors.SheetRow] | None = None, **forms: Any
) -> dict[str, Any]:
    """What every protocol page shows around its rows, whatever the game: the PIN,
    what to do next, the paper's totals, the confirmation and the referee's penalties.

    A Preferans table of three has no seat D: its totals and confirmation leave it out.
    ``sheet``: the rows read already, to spare reading them again.
    """
    tournament = protocol.series.tournament
    version = protocol.version
    difference = selectors.totals_difference(protocol=protocol, sheet=sheet)
    confirm_form = ConfirmForm(initial={"version": version})
    confirm_form.fields["seat"].choices = [(seat, seat) for seat in tournament.seats]
    return {
        "tournament": tournament,
        "series": protocol.series,
        "protocol": protocol,
        "seats": seats,
        "totals_form": TotalsForm(
            initial={"version": version, **(protocol.declared_totals or {}), "ended_early": protocol.ended_early}
        ),
        "confirm_form": confirm_form,
        "version_form": VersionForm(initial={"version": version}),
        "difference": difference,
        "next_steps": history.protocol_next_steps(protocol=protocol, difference=difference),
        "reason_form": ChangeReasonForm(),
        **penalty_block(series=protocol.series, table=protocol.table, seated=seats),
        **forms,
    }


def protocol_page(request: HttpRequest, protocol: Protocol, **forms: Any) -> HttpResponse:
    """The protocol page of the table's game, with any forms a refusal sends back."""
    return game_of(protocol.series.tournament).referee_page(request, protocol, **forms)


@referee_protocol
def protocol_entry(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    """The protocol page; a POST is the next row typed there, as the game reads it."""
    if request.method != "POST":
        return protocol_page(request, protocol)
    return game_of(protocol.series.tournament).referee_entry(request, protocol)


@referee_protocol
@require_POST
def protocol_totals(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    """Record the paper's totals and mark the protocol complete if they agree.

    In a closed series the protocol is accepted already: only the paper's corrected totals are recorded.
    """
    form = TotalsForm.of_table(request.POST, protocol)
    if form.is_valid():
        data = form.cleaned_data
        try:
            protocol = services.protocol_totals_set(
                protocol=protocol, totals=data, expected_version=data["version"], user=request.user
            )
            if protocol.series.status == Series.Status.CLOSED:
                messages.success(request, _("The corrected totals from the paper are recorded."))
                return redirect(protocol_url(protocol))
            services.protocol_complete(
                protocol=protocol, expected_version=protocol.version, ended_early=data["ended_early"], user=request.user
            )
            messages.success(request, _("The protocol is complete; a player of the table confirms it."))
            return redirect(protocol_url(protocol))
        except ValidationError as error:
            if error.code != "totals_mismatch":  # the page shows the difference by the totals, once
                form.add_error(None, error)
        protocol.refresh_from_db()
    return protocol_page(request, protocol, totals_form=form)


@referee_protocol
@require_POST
def protocol_confirm(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    form = ConfirmForm(request.POST)
    if form.is_valid():
        try:
            services.protocol_confirm(
                protocol=protocol,
                seat=form.cleaned_data["seat"],
                expected_version=form.cleaned_data["version"],
                user=request.user,
            )
            messages.success(request, _("The protocol is confirmed."))
            return redirect(protocol_url(protocol))
        except ValidationError as error:
            form.add_error("seat" if getattr(error, "code", None) == "same_seat" else None, error)
    return protocol_page(request, protocol, confirm_form=form)


@referee_protocol
@require_POST
def protocol_reopen(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    """Undo "complete" (or a confirmation): the protocol is being entered again, to be completed and confirmed anew."""
    form = VersionForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("The page was out of date; look at the protocol as it is now."), code="version")
        services.protocol_reopen(protocol=protocol, expected_version=form.cleaned_data["version"], user=request.user)
        messages.success(request, _("The protocol is being entered again; mark it complete when it is right."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(protocol_url(protocol))


@referee_protocol
def row_correction(request: HttpRequest, protocol: Protocol, row: int) -> HttpResponse:
    """The game's page that corrects (or deletes) saved row ``row``."""
    current = protocol.rows.filter(number=row).first()
    if current is None:
        if request.method == "POST" and submission_seen(protocol=protocol, key=request.POST.get("key", "")):
            return redirect(protocol_url(protocol))  # a deletion sent again: answered as the first time
        raise Http404
    return game_of(protocol.series.tournament).referee_correction(request, protocol, current)


@referee_protocol
def protocol_history(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    return render(
        request,
        "results/history.html",
        {
            "tournament": protocol.series.tournament,
            "series": protocol.series,
            "protocol": protocol,
            "entries": history.protocol_history(protocol=protocol),
            "entry_template": game_of(protocol.series.tournament).templates.entry,
            "penalty_changes": table_penalty_history(series=protocol.series, table=protocol.table),
        },
    )


@referee_protocol
@require_POST
def protocol_pin_renew(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    """A new PIN for the table: the phones let in with the old one must enter the new one."""
    try:
        services.protocol_pin_renew(protocol=protocol, user=request.user)
        messages.success(
            request,
            _("Table %(table)s has a new PIN: %(pin)s. Phones let in with the old PIN must enter the new one.")
            % {"table": protocol.table, "pin": protocol.pin},
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return back_to(request, protocol_url(protocol))


@referee_protocol
@require_POST
def protocol_pin_unlock(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    """Let the table's phones try the PIN again after the table was locked by wrong PINs."""
    try:
        services.protocol_pin_unlock(protocol=protocol, user=request.user)
        messages.success(request, _("The PIN page of table %(table)s is unlocked.") % {"table": protocol.table})
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return back_to(request, protocol_url(protocol))


@referee_required
@require_POST
def series_pins_renew(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A new PIN for every table of the series; the series page lists them."""
    try:
        services.series_pins_renew(series=series_of(request, number), user=request.user)
        messages.success(request, _("Every table has a new PIN; phones let in with an old PIN must enter the new one."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return back_to(request, reverse("results:series", args=[slug, number]))


def back_to(request: HttpRequest, default: str) -> HttpResponse:
    """Back to the page the button was on (the PIN page posts its address as ``next``), if it is ours."""
    back = request.POST.get("next", "")
    ours = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return redirect(back if ours else default)
