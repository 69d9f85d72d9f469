"""The pages of a plain-rows game (``league.games.plain.game``): the referee's protocol page, its
correction page and the table's phone, each row typed as one number per seat.

What surrounds the rows is every game's (``league.results``): the PIN, the paper's totals,
"complete" and the confirmation, the penalties; every save goes once per form key
(``league.results.submissions.row_form_save``), the referee's as the ``user``, the phone's as its
``author`` and ``seat``. The game is handed in (``game``): its seats' check and its row limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from typing import Protocol as Shape

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from league.games.plain.forms import RowValuesForm
from league.results import selectors
from league.results.forms import PhoneConfirmForm, RowChangeForm, RowStamp, TotalsForm
from league.results.models import DealRow, Protocol
from league.results.referee.views import change_reason, protocol_page_context, protocol_url
from league.results.submissions import row_form_save
from league.results.table.scorer import Scorer, finish_step, scorer_refused, table_names, table_players

if TYPE_CHECKING:
    from league.models import Tournament


class PlainRowsGame(Shape):
    """What these pages ask of their game (``league.games.plain.game.PlainRowsGame``)."""

    def values_check(self, values: Mapping[str, int], path: str) -> None: ...

    def row_limit(self, tournament: Tournament) -> int: ...

    def describe(self, entry: Mapping[str, Any] | None, names: Mapping[str, str] | None = None) -> Any: ...


def values_form(game: PlainRowsGame, protocol: Protocol, *args: Any, **kwargs: Any) -> RowValuesForm:
    """The row form of ``protocol``'s table, a number for each of its seats (the players' names head
    the page), checked by the game's rule."""
    seats = {seat: seat for seat in protocol.series.tournament.seats}
    return RowValuesForm(*args, seats=seats, check=game.values_check, **kwargs)


def _changed(change: RowChangeForm, number: int) -> str:
    done = _("Deal %(number)s deleted.") if change.cleaned_data["delete"] else _("Deal %(number)s has been corrected.")
    return done % {"number": number}


# --- the referee ---


def referee_page(request: HttpRequest, protocol: Protocol, *, game: PlainRowsGame, **forms: Any) -> HttpResponse:
    """The rows with running totals and the next row's form, while the series has room for one."""
    seats = selectors.table_players(series=protocol.series, table=protocol.table)
    rows = selectors.protocol_sheet(protocol=protocol)
    next_number = len(rows) + 1
    context = {
        "rows": rows,
        "next_number": next_number if next_number <= game.row_limit(protocol.series.tournament) else None,
        "stamp": forms.pop("stamp", None) or RowStamp.for_row(protocol, next_number),
        "row_form": forms.pop("row_form", None) or values_form(game, protocol),
        **protocol_page_context(protocol, seats, sheet=rows, **forms),
    }
    return render(request, "games/plain/protocol.html", context)


def referee_entry(request: HttpRequest, protocol: Protocol, *, game: PlainRowsGame) -> HttpResponse:
    """The next row typed on the protocol page; a refusal comes back beside the form, nothing stored."""
    form = values_form(game, protocol, request.POST)
    stamp = RowStamp(request.POST)
    reason_form, reason = change_reason(request)
    try:
        if reason is not None and row_form_save(
            protocol=protocol, form=form, stamp=stamp, reason=reason, user=request.user
        ):
            return redirect(protocol_url(protocol))
    except ValidationError as error:
        form.add_error(None, error)
        protocol.refresh_from_db(fields=["version", "status"])
    stamp = RowStamp.for_row(protocol, protocol.rows.count() + 1, stamp.data.get("key"))
    return referee_page(request, protocol, game=game, row_form=form, stamp=stamp, reason_form=reason_form)


def referee_correction(
    request: HttpRequest, protocol: Protocol, current: DealRow, *, game: PlainRowsGame
) -> HttpResponse:
    """Row ``current`` typed again, or deleted if it is the last one; a reason once the series is closed."""
    names = table_names(protocol)
    data = request.POST if request.method == "POST" else None
    form = values_form(game, protocol, data, initial=RowValuesForm.initial_from(current.deal))
    change = RowChangeForm(data, initial={"number": current.number, "version": protocol.version})
    if data is not None:
        try:
            if row_form_save(protocol=protocol, form=form, stamp=change, number=current.number, user=request.user):
                messages.success(request, _changed(change, current.number))
                return redirect(protocol_url(protocol))
        except ValidationError as error:
            change.add_error(None, error)
    context = {
        "tournament": protocol.series.tournament,
        "series": protocol.series,
        "protocol": protocol,
        "row": current,
        "description": game.describe(current.deal, names),
        "is_last": not protocol.rows.filter(number__gt=current.number).exists(),
        "form": form,
        "change": change,
    }
    return render(request, "games/plain/correction.html", context)


# --- the table's phone ---


def phone_page(
    request: HttpRequest, scorer: Scorer, status: int = 200, *, game: PlainRowsGame, **context: Any
) -> HttpResponse:
    """The phone's page: the players and their totals, the rows (each correctable while the protocol
    is open), the next row's form (or a row's correction, ``editing``) and the end-of-series steps."""
    protocol = scorer.protocol
    tournament = protocol.series.tournament
    rows = selectors.protocol_sheet(protocol=protocol)
    totals = selectors.sheet_totals(rows)
    players = table_players(protocol)
    can_enter = protocol.status == Protocol.Status.OPEN
    next_number = len(rows) + 1
    context = {
        "scorer": scorer,
        "protocol": protocol,
        "series": protocol.series,
        "tournament": tournament,
        "seats": [(seat, players.get(seat), totals[seat]) for seat in tournament.seats],
        "rows": rows,
        "last": rows[-1].number if rows else None,
        "can_enter": can_enter,
        "can_add": can_enter and next_number <= game.row_limit(tournament),
        "all_entered": next_number > game.row_limit(tournament),
        "stamp": RowStamp.for_row(protocol, next_number),
        "row_form": values_form(game, protocol),
        "editing": None,
        "finish_step": finish_step(scorer, has_rows=bool(rows)),
        "totals_form": TotalsForm.on_the_phone(protocol),
        "confirm_form": PhoneConfirmForm(initial={"version": protocol.version}),
        **context,
    }
    return render(request, "games/plain/phone.html", context, status=status)


def _editing(request: HttpRequest, scorer: Scorer) -> DealRow | None:
    """The saved row a posted form was correcting (its ``fixing`` number); None for a new row."""
    fixing = request.POST.get("fixing", "")
    return scorer.protocol.rows.filter(number=int(fixing)).first() if fixing.isdigit() else None


def phone_edit(request: HttpRequest, scorer: Scorer, *, game: PlainRowsGame, number: int) -> HttpResponse:
    """The page with row ``number`` loaded into the form, to correct it."""
    row = get_object_or_404(scorer.protocol.rows, number=number)
    form = values_form(game, scorer.protocol, initial=RowValuesForm.initial_from(row.deal))
    stamp = RowStamp.for_row(scorer.protocol, number)
    return phone_page(request, scorer, game=game, row_form=form, stamp=stamp, editing=row)


def phone_save(request: HttpRequest, scorer: Scorer, *, game: PlainRowsGame) -> HttpResponse:
    """The next row, or a saved one corrected; the refusal comes back beside the form."""
    protocol = scorer.protocol
    form = values_form(game, protocol, request.POST)
    stamp = RowStamp(request.POST)
    extra: dict[str, Any] = {}
    try:
        if row_form_save(protocol=protocol, form=form, stamp=stamp, author=scorer.author, seat=scorer.seat):
            messages.success(request, _("Deal %(number)s saved.") % {"number": stamp.cleaned_data["number"]})
            return redirect(scorer.url() + "#entry")
    except (ValidationError, PermissionDenied) as error:
        extra = scorer_refused(request, form, scorer, error)
    editing = _editing(request, scorer)
    number = editing.number if editing else protocol.rows.count() + 1
    stamp = RowStamp.for_row(protocol, number, stamp.data.get("key"))  # nothing was stored under it
    return phone_page(request, scorer, game=game, row_form=form, stamp=stamp, editing=editing, **extra)


def phone_delete(request: HttpRequest, scorer: Scorer, *, game: PlainRowsGame, number: int) -> HttpResponse:
    """Delete the last row (the services refuse any other); a deletion sent again stores nothing."""
    data = request.POST.copy()
    data["number"], data["delete"] = str(number), "on"
    change = RowChangeForm(data)
    try:
        unread = values_form(game, scorer.protocol)  # a deletion reads no values
        row_form_save(protocol=scorer.protocol, form=unread, stamp=change, author=scorer.author, seat=scorer.seat)
        messages.success(request, _("Deal %(number)s deleted.") % {"number": number})
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, " ".join(error.messages if isinstance(error, ValidationError) else [str(error)]))
    return redirect(scorer.url() + "#entry")


def phone_preview(request: HttpRequest, scorer: Scorer, *, game: PlainRowsGame) -> HttpResponse:
    """The typed row checked without saving it (the page has no script: this answers a plain POST)."""
    form = values_form(game, scorer.protocol, request.POST)
    form.is_valid()
    return phone_page(request, scorer, game=game, row_form=form, editing=_editing(request, scorer))
