"""The referee's pages of a Preferans table: its pulka sheet and the forms that write it.

A Preferans table's protocol is its pulka (``league.games.preferans.pulka``): the referee adds a deal
or a penalty ("równe za równe", equal for equal), corrects or deletes an entry, and closes the
pulka by the players' agreement (or opens it again). Each form carries a key made when it is
rendered and the protocol version the referee saw, so a double click or a retried POST stores
once (``league.results.submissions``); the engine's refusal comes back as the form's error
and nothing is stored. The paper's totals, "complete", the confirmation and the PIN are the
every game's (``league.results.referee.views.protocol_page_context``). The table's phone
(``league.games.preferans.phone``) saves its deals and closes the pulka through the same steps here
(``entry_save``, ``pulka_close_save``), as the phone's writer instead of the referee.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from league.games.choices import Game
from league.games.preferans.describe import describe_pulka_entry, player_label
from league.games.preferans.forms import PulkaDealForm, PulkaPenaltyForm
from league.games.preferans.pulka import PULKA_ROW_LIMIT, protocol_pulka, pulka_progress
from league.games.preferans.services import protocol_pulka_close
from league.results import selectors
from league.results.forms import RowChangeForm, RowStamp, VersionForm
from league.results.models import DealRow, Protocol
from league.results.referee.views import change_reason, protocol_page_context, protocol_url, referee_protocol
from league.results.submissions import row_form_save as entry_save
from players.models import Player

EntryForm = PulkaDealForm | PulkaPenaltyForm


class PulkaChangeForm(RowChangeForm):
    """A change of a saved entry (its fields are the entry's own form), or the last entry's deletion;
    the reason is required once the series is closed (checked by the service), as for a Baśka deal."""


class PulkaCloseForm(VersionForm):
    """Close the pulka by the players' agreement (``closed``), or open it again."""

    closed = forms.BooleanField(required=False)
    reason = forms.CharField(
        label=gettext_lazy("Reason (required once the series is closed)"), required=False, max_length=2000
    )


def preferans_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A pulka's page of another game's table does not exist (404)."""

    @wraps(view)
    def wrapped(request: HttpRequest, protocol: Protocol, *args: Any, **kwargs: Any) -> HttpResponse:
        if protocol.series.tournament.game != Game.PREFERANS:
            raise Http404
        return view(request, protocol, *args, **kwargs)

    return wrapped


def _names(seats: Mapping[str, Player]) -> dict[str, str]:
    return {seat: player.full_name for seat, player in seats.items()}


def entry_players(protocol: Protocol, names: Mapping[str, str]) -> list[tuple[str, str]]:
    """The forms' players: the table's seats, labelled "B – Nowak"."""
    return [(seat, player_label(seat, names)) for seat in protocol.series.tournament.seats]


def entry_stamp(protocol: Protocol, number: int, key: str | None = None) -> RowStamp:
    """The hidden part of an entry form: the entry's number, the version seen and the form's key.

    After a refusal the same key goes back (nothing was stored under it) with the version as it is now.
    """
    initial: dict[str, Any] = {"number": number, "version": protocol.version}
    if key:
        initial["key"] = key
    return RowStamp(initial=initial)


def pulka_page(request: HttpRequest, protocol: Protocol, *, seats: Mapping[str, Player], **forms: Any) -> HttpResponse:
    """The protocol page of a Preferans table: the sheet, the settlement once over, the entry forms."""
    pulka = protocol_pulka(protocol=protocol)
    names = _names(seats)
    players = entry_players(protocol, names)
    next_number = len(pulka.lines) + 1
    context = {
        "pulka": pulka,
        "names": names,
        "progress": pulka_progress(pulka.sheet),
        "dealer": player_label(pulka.sheet.upcoming_dealer, names),
        "can_add": next_number <= PULKA_ROW_LIMIT,
        "next_number": next_number,
        "stamp": forms.pop("stamp", None) or entry_stamp(protocol, next_number),
        "pulka_deal_form": PulkaDealForm(players=players),
        "pulka_penalty_form": PulkaPenaltyForm(players=players),
        "close_form": PulkaCloseForm(initial={"version": protocol.version, "closed": not protocol.closed_by_agreement}),
        **protocol_page_context(protocol, seats, **forms),
    }
    return render(request, "games/preferans/protocol.html", context)


def _entry_add(request: HttpRequest, protocol: Protocol, form_class: type[EntryForm], name: str) -> HttpResponse:
    seats = selectors.table_players(series=protocol.series, table=protocol.table)
    form = form_class(request.POST, players=entry_players(protocol, _names(seats)))
    stamp = RowStamp(request.POST)
    reason_form, reason = change_reason(request)
    try:
        if reason is not None and entry_save(
            protocol=protocol, form=form, stamp=stamp, reason=reason, user=request.user
        ):
            return redirect(protocol_url(protocol))
    except ValidationError as error:
        form.add_error(None, error)
        protocol.refresh_from_db(fields=["version", "status", "closed_by_agreement"])  # keeps the series read
    number = protocol.rows.count() + 1
    return pulka_page(
        request,
        protocol,
        seats=seats,
        stamp=entry_stamp(protocol, number, stamp.data.get("key")),
        reason_form=reason_form,
        **{name: form},
    )


@referee_protocol
@require_POST
@preferans_only
def pulka_deal_add(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    return _entry_add(request, protocol, PulkaDealForm, "pulka_deal_form")


@referee_protocol
@require_POST
@preferans_only
def pulka_penalty_add(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    """The referee's penalty of a deliberately wrong entry; it may follow the deal that ended the pulka."""
    return _entry_add(request, protocol, PulkaPenaltyForm, "pulka_penalty_form")


@referee_protocol
@require_POST
@preferans_only
def pulka_close(request: HttpRequest, protocol: Protocol) -> HttpResponse:
    """Close the pulka by agreement, or open it again; a repeat of the same request changes nothing."""
    pulka_close_save(request, protocol, user=request.user)
    return redirect(protocol_url(protocol))


def pulka_close_save(request: HttpRequest, protocol: Protocol, **writer: Any) -> None:
    """Close the pulka by agreement or open it again as a submitted ``PulkaCloseForm`` asks, saying
    how it went in a message. ``writer``: the referee's ``user``, or the table phone's ``seat`` and ``grant``."""
    form = PulkaCloseForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(_("The page was out of date; look at the protocol as it is now."), code="version")
        closed = form.cleaned_data["closed"]
        protocol_pulka_close(
            protocol=protocol,
            closed=closed,
            expected_version=form.cleaned_data["version"],
            reason=form.cleaned_data["reason"],
            **writer,
        )
        messages.success(request, _("The pulka is closed by agreement.") if closed else _("The pulka is open again."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    except PermissionDenied as error:  # the phone, once the protocol is complete
        messages.error(request, str(error))


def entry_changed_message(change: PulkaChangeForm, number: int) -> str:
    """What a saved correction says: the entry deleted, or corrected."""
    done = (
        _("Entry %(number)s has been deleted.")
        if change.cleaned_data["delete"]
        else _("Entry %(number)s has been corrected.")
    )
    return done % {"number": number}


def _penalty_initial(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A stored penalty as its form's initial data, for its correction."""
    return {
        "column": entry["penalty"],
        "player": entry["player"],
        "wronged": entry.get("wronged", ""),
        "size": entry["size"],
        "penalty_reason": entry["reason"],
    }


def pulka_correction(request: HttpRequest, protocol: Protocol, current: DealRow) -> HttpResponse:
    """Correct entry ``current`` through its own form (prefilled), or delete it if it is the last one."""
    seats = selectors.table_players(series=protocol.series, table=protocol.table)
    names = _names(seats)
    players = entry_players(protocol, names)
    data = request.POST if request.method == "POST" else None
    if "penalty" in current.deal:
        form: EntryForm = PulkaPenaltyForm(data, players=players, initial=_penalty_initial(current.deal))
    else:
        form = PulkaDealForm(data, players=players, initial=PulkaDealForm.initial_from(current.deal))
    change = PulkaChangeForm(data, initial={"number": current.number, "version": protocol.version})
    if data is not None:
        try:
            if entry_save(protocol=protocol, form=form, stamp=change, number=current.number, user=request.user):
                messages.success(request, entry_changed_message(change, current.number))
                return redirect(protocol_url(protocol))
        except ValidationError as error:
            change.add_error(None, error)
    return render(
        request,
        "games/preferans/correction.html",
        {
            "tournament": protocol.series.tournament,
            "series": protocol.series,
            "protocol": protocol,
            "row": current,
            "description": describe_pulka_entry(current.deal, names),
            "is_last": not protocol.rows.filter(number__gt=current.number).exists(),
            "form": form,
            "change": change,
        },
    )


def urls() -> list[URLPattern]:
    """The pulka's forms on the referee's protocol page (named in the ``results`` namespace)."""
    table = "<slug:slug>/seria-<int:number>/stol-<int:table>/"
    return [
        path(table + "pulka/rozdanie/", pulka_deal_add, name="pulka_deal"),
        path(table + "pulka/kara/", pulka_penalty_add, name="pulka_penalty"),
        path(table + "pulka/zamkniecie/", pulka_close, name="pulka_close"),
    ]
