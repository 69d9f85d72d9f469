"""The referee's pages of a Baśka table: the protocol typed deal by deal, keyboard first.

The referee types each deal as a shorthand line (``league.games.baska.shorthand``), with a live
preview of its value and the running totals while typing, or through the full deal form; a saved
deal is corrected (or the last one deleted) on its own page, with a reason once the series is
closed; a deal typed on a confirmed protocol asks for the reason too, as saving it undoes the
confirmation. Every save goes once per form key (``league.results.submissions``); what surrounds the
rows (PIN, the paper's totals, "complete", confirmation, penalties) is every game's
(``league.results.referee.views.protocol_page_context``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.games.baska.describe import describe_deal
from league.games.baska.forms import CorrectionForm, DealForm, RowForm, typed_deal, with_kept_note
from league.games.baska.settings import baska_settings
from league.games.baska.shorthand import format_deal
from league.results import selectors
from league.results.models import DealRow, Protocol
from league.results.referee.views import change_reason, protocol_page_context, protocol_url, referee_protocol
from league.results.submissions import protocol_row_save_once


def protocol_page(request: HttpRequest, protocol: Protocol, **forms: Any) -> HttpResponse:
    """The protocol's rows with running totals and the line where the next deal is typed."""
    seats = selectors.table_players(series=protocol.series, table=protocol.table)
    rows = selectors.protocol_sheet(protocol=protocol)
    next_number = len(rows) + 1
    limit = baska_settings(protocol.series.tournament).deals_per_series
    row_form = forms.pop("row_form", None) or RowForm(initial={"number": next_number, "version": protocol.version})
    if not forms or "deal_form" in forms:
        # the cursor waits in the line, unless another form's refusal is what the referee must read
        row_form.focus_line()
    context = {
        "rows": rows,
        "totals": rows[-1].totals if rows else None,
        "next_number": next_number if next_number <= limit else None,
        "row_form": row_form,
        "deal_form": DealForm(prefix="full"),
        **protocol_page_context(protocol, seats, sheet=rows, **forms),
    }
    return render(request, "games/baska/protocol.html", context)


def deal_entry(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    """The next deal (or a change) typed on the protocol page, saved once per form key."""
    row_form, deal_form, deal = typed_deal(request, protocol)
    reason_form, reason = change_reason(request)
    if deal is not None and reason is not None:
        try:
            # once per form key: a double Enter or a retried POST answers as the first did
            protocol_row_save_once(
                protocol=protocol,
                key=row_form.cleaned_data["key"],
                number=row_form.cleaned_data["number"],
                deal=deal,
                expected_version=row_form.cleaned_data["version"],
                user=request.user,
                reason=reason,
            )
            # no "#entry": a fragment in the address makes the browser skip autofocus (and drop focus);
            # the focused line scrolls into view by itself
            return redirect(protocol_url(protocol))
        except ValidationError as error:
            row_form.add_error(None, error)
    return protocol_page(request, protocol, row_form=row_form, deal_form=deal_form, reason_form=reason_form)


@referee_protocol
@require_POST
def deal_preview(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    """The typed row valued in place, with the running totals after it (htmx fragment)."""
    form = RowForm(request.POST)
    context: dict[str, Any] = {"form": form}
    if form.is_valid() and form.cleaned_data["line"] is not None:
        try:
            context["row"] = selectors.protocol_row_preview(
                protocol=protocol, number=form.cleaned_data["number"], deal=form.cleaned_data["line"]
            )
        except ValidationError as error:
            form.add_error(None, error)
    return render(request, "games/baska/_preview.html", context)


def deal_correction(request: HttpRequest, protocol: Protocol, current: DealRow) -> HttpResponse:
    """Deal ``current`` retyped as a shorthand line, or deleted if it is the last one."""
    row = current.number
    form = CorrectionForm(
        request.POST or None, initial={"number": row, "version": protocol.version, "line": format_deal(current.deal)}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        common = {
            "protocol": protocol,
            "number": row,
            "expected_version": data["version"],
            "user": request.user,
            "reason": data["reason"],
        }
        try:
            deal = None if data["delete"] else with_kept_note(data["line"], current.deal)  # None: deleted
            protocol_row_save_once(key=data["key"], deal=deal, **common)
            done = _("Deal %(number)s deleted.") if deal is None else _("Deal %(number)s has been corrected.")
            messages.success(request, done % {"number": row})
            return redirect(protocol_url(protocol))
        except ValidationError as error:
            form.add_error(None, error)
    return render(
        request,
        "games/baska/correction.html",
        {
            "tournament": protocol.series.tournament,
            "series": protocol.series,
            "protocol": protocol,
            "row": current,
            "description": describe_deal(current.deal),
            "form": form,
        },
    )


def urls() -> list[URLPattern]:
    """The live preview of a typed line (named in the ``results`` namespace)."""
    return [path("<slug:slug>/seria-<int:number>/stol-<int:table>/podglad/", deal_preview, name="preview")]
