"""The table scorer's phone pages ("protokolant stołu"): one table's protocol behind its PIN.

Each table of a series has its own link; the protocol's PIN (league.results.table.pin)
opens it for one browser session. While the series is open the scorer adds deals
(by buttons or as a shorthand line), fixes or deletes the last ones, types the
paper's totals and marks the protocol complete; a second player of the table then
confirms it on their own phone, from another seat. Once the series is closed the page
is read-only and no PIN opens it any more: only the referee corrects (docs/rules.md §7).

The page and its entry forms are the game's (``game_of(tournament)``: ``league.games.baska.phone``,
``league.games.preferans.phone``); the door, the PIN page, the paper's totals, "complete" and the
confirmation are every game's, here and in ``league.results.table.scorer``.

Every change goes through ``league.results.services``, which computes the values
with ``scoring`` and refuses a writer holding an old protocol version; the pages
read through ``league.results.selectors`` the protocol that the draw created.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.games import game_of
from league.models import Series
from league.results import services
from league.results.forms import PhoneConfirmForm, TotalsForm
from league.results.table import pin
from league.results.table.scorer import (
    Scorer,
    View,
    pin_form,
    pin_page,
    scorer_refused,
    table_protocol,
    table_scorer,
)


def pin_entry(request: HttpRequest, slug: str, series: int, table: int) -> HttpResponse:
    """The PIN form: a correct PIN and a seat open this one protocol for the session, while its series is open."""
    protocol = table_protocol(request, slug, series, table)
    form = pin_form(request, protocol, request.POST or None)
    if protocol.series.status == Series.Status.CLOSED:
        return pin_page(request, protocol, form, status=403 if request.method == "POST" else 200)
    if request.method == "POST":
        if form.is_valid():
            pin.grant_access(request, protocol, form.cleaned_data["seat"], token=form.token)
            return redirect("table:protocol", slug, series, table)
        status = 403 if form.refused_unheard() else 200
        return pin.phone_id_remember(request, pin_page(request, protocol, form, status=status))
    return pin_page(request, protocol, form)


def _page(request: HttpRequest, scorer: Scorer, **context: Any) -> HttpResponse:
    """The phone's page of the table's game."""
    return game_of(scorer.protocol.series.tournament).phone_page(request, scorer, **context)


@table_scorer
def protocol_page(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    return _page(request, scorer)


def _entry_step(step: str, *, post: bool) -> View:
    """The phone's deal entry ``step``, as the table's game answers it (``GameRules.phone_entry``)."""

    def entry(request: HttpRequest, scorer: Scorer, **kwargs: Any) -> HttpResponse:
        return game_of(scorer.protocol.series.tournament).phone_entry(request, scorer, step, **kwargs)

    return table_scorer(require_POST(entry) if post else entry)


edit_row = _entry_step("edit", post=False)  # the page with deal ``number`` loaded into the entry forms, to fix it
save_row = _entry_step("save", post=True)  # the next deal, or an earlier one fixed
preview = _entry_step("preview", post=True)  # the typed deal valued in place, with the totals after it
delete_row = _entry_step("delete", post=True)  # the last deal deleted (the services refuse any other)


@table_scorer
@require_POST
def finish(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """Record the totals from the paper and mark the protocol complete if they agree with the rows.

    A Preferans table of three has no seat D: its total is 0, as the paper has no column for it.
    """
    form = TotalsForm.of_table(request.POST, scorer.protocol)
    extra: dict[str, Any] = {}
    if form.is_valid():
        data = form.cleaned_data
        try:
            protocol = services.protocol_totals_set(
                protocol=scorer.protocol,
                totals=data,
                expected_version=data["version"],
                seat=scorer.seat,
                grant=scorer.grant.id,
            )
            services.protocol_complete(
                protocol=protocol,
                expected_version=protocol.version,
                ended_early=data["ended_early"],
                seat=scorer.seat,
                grant=scorer.grant.id,
            )
            messages.success(request, _("The protocol is complete. Now another player of the table confirms it."))
            return redirect(scorer.url() + "#finish")
        except (ValidationError, PermissionDenied) as error:
            extra = scorer_refused(request, form, scorer, error)
    return _page(request, scorer, totals_form=form, **extra)


@table_scorer
@require_POST
def confirm(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """A second player confirms the protocol on their own phone, as the seat their PIN was entered for.

    The services refuse the grant and the seat that marked it complete (both stored on the protocol).
    """
    form = PhoneConfirmForm(request.POST)
    extra: dict[str, Any] = {}
    if form.is_valid():
        try:
            services.protocol_confirm(
                protocol=scorer.protocol,
                seat=scorer.seat,
                grant=scorer.grant.id,
                expected_version=form.cleaned_data["version"],
            )
            messages.success(request, _("The protocol is confirmed. Thank you!"))
            return redirect(scorer.url() + "#finish")
        except (ValidationError, PermissionDenied) as error:
            extra = scorer_refused(request, form, scorer, error)
    return _page(request, scorer, confirm_form=form, **extra)
