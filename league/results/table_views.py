"""The table scorer's phone pages ("protokolant stołu"): one table's protocol behind its PIN.

Each table of a series has its own link; the protocol's PIN (league.results.pin)
opens it for one browser session. While the series is open the scorer adds deals
(by buttons or as a shorthand line), fixes or deletes the last ones, types the
paper's totals and marks the protocol complete; a second player of the table then
confirms it on their own phone, from another seat. Once the series is closed the page
is read-only and no PIN opens it any more: only the referee corrects (docs/rules.md §7).

A Preferans table's phone scores its pulka ("pulka", the sheet the table fills up to the agreed
total) with plain forms, without the Baśka page's script: the next deal, a correction or deletion
of the last entry while the protocol is open (an entry followed by another is final: only the
referee corrects it), closing the pulka by the players' agreement, then the paper's totals,
"complete" and the second seat's confirmation as for Baśka. A penalty is the referee's.
Until the draw is published, the PIN page names the table's players only to a referee
of the tournament and to a phone already let in.

Every change goes through ``league.results.services``, which computes the values
with ``scoring`` and refuses a writer holding an old protocol version; the pages
read through ``league.results.selectors`` the protocol that the draw created.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.models import Series
from league.results.deal_form import DealForm
from league.results.labels import CONTRACT_LABELS, SIDE_LABELS
from league.tournaments.roles import is_referee
from players.models import Player
from scoring import SEATS

from . import offline, pin, pulka_views, selectors, services
from .forms import PhoneConfirmForm, RowForm, TotalsForm, typed_deal
from .models import DealRow, Protocol
from .pulka import protocol_pulka
from .pulka_describe import describe_pulka_entry, player_label
from .pulka_forms import PulkaDealForm
from .shorthand import SIDE_LETTERS, format_deal, kontra_letters

CHANGES_SHOWN = 5
"""How many of the latest changes a stale save shows the scorer to re-check."""


@dataclass(frozen=True)
class Scorer:
    """Who is at the phone: the protocol their PIN opened and their grant (the seat they said they sit at)."""

    protocol: Protocol
    grant: pin.Grant

    @property
    def seat(self) -> str:
        return self.grant.seat

    @property
    def author(self) -> str:
        # Plain Polish, not gettext: it is stored in the history and must read the same in any UI language.
        return f"stolik {self.protocol.table} (telefon), miejsce {self.seat}"

    def url(self, name: str = "protocol", *args: Any) -> str:
        series = self.protocol.series
        return reverse(f"table:{name}", args=[series.tournament.slug, series.number, self.protocol.table, *args])


View = Callable[..., HttpResponse]


def _protocol(slug: str, series: int, table: int) -> Protocol:
    return get_object_or_404(
        Protocol.objects.select_related("series__tournament"),
        series__tournament__slug=slug,
        series__number=series,
        table=table,
    )


def _players(protocol: Protocol) -> dict[str, Player]:
    return selectors.table_players(series=protocol.series, table=protocol.table)


def _names_shown(request: HttpRequest, protocol: Protocol) -> bool:
    """Whether the PIN page may name the players: anyone once the draw is published, before that
    a referee or organiser of the tournament and a phone holding a grant for this table."""
    tournament = protocol.series.tournament
    return (
        tournament.draw_published or pin.grant_of(request, protocol) is not None or is_referee(request.user, tournament)
    )


def _pin_form(request: HttpRequest, protocol: Protocol, data: Any = None) -> pin.PinForm:
    players = _players(protocol) if _names_shown(request, protocol) else {}
    seats = [(seat, f"{seat} · {player.full_name}") for seat, player in players.items()]
    return pin.PinForm(data, request=request, protocol=protocol, seats=seats or [(s, s) for s in SEATS])


def _render_pin(request: HttpRequest, protocol: Protocol, form: pin.PinForm, status: int = 200) -> HttpResponse:
    """The PIN form; for a closed series only the notice that no PIN opens it any more."""
    context = {
        "protocol": protocol,
        "series": protocol.series,
        "tournament": protocol.series.tournament,
        "form": form,
        "closed": protocol.series.status == Series.Status.CLOSED,
    }
    return render(request, "results/table/pin.html", context, status=status)


def table_scorer(view: View) -> View:
    """Let in only a session holding this protocol's PIN; others get the PIN form (a POST gets 403).

    Grants end with the series: once it is closed the page only says so (its results, once
    published, are on the public table page), whoever asks, and a POST is refused.
    """

    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, series: int, table: int, **kwargs: Any) -> HttpResponse:
        protocol = _protocol(slug, series, table)
        grant = pin.grant_of(request, protocol)
        if protocol.series.status == Series.Status.CLOSED:
            status = 403 if request.method == "POST" else 200
            return _render_pin(request, protocol, _pin_form(request, protocol), status=status)
        if grant is None:
            if request.method == "POST":
                raise PermissionDenied
            return _render_pin(request, protocol, _pin_form(request, protocol))
        return view(request, Scorer(protocol, grant), **kwargs)

    return wrapped


def baska_only(view: View) -> View:
    """The Baśka scorer's deal forms: a Preferans table's phone answers them with its pulka page (a POST: 409)."""

    @wraps(view)
    def wrapped(request: HttpRequest, scorer: Scorer, **kwargs: Any) -> HttpResponse:
        if scorer.protocol.series.tournament.is_preferans:
            return _pulka_page(request, scorer, status=409 if request.method == "POST" else 200)
        return view(request, scorer, **kwargs)

    return wrapped


def pulka_only(view: View) -> View:
    """A pulka's forms: a Baśka table has none (404)."""

    @wraps(view)
    def wrapped(request: HttpRequest, scorer: Scorer, **kwargs: Any) -> HttpResponse:
        if not scorer.protocol.series.tournament.is_preferans:
            raise Http404
        return view(request, scorer, **kwargs)

    return wrapped


def pin_entry(request: HttpRequest, slug: str, series: int, table: int) -> HttpResponse:
    """The PIN form: a correct PIN and a seat open this one protocol for the session, while its series is open."""
    protocol = _protocol(slug, series, table)
    form = _pin_form(request, protocol, request.POST or None)
    if protocol.series.status == Series.Status.CLOSED:
        return _render_pin(request, protocol, form, status=403 if request.method == "POST" else 200)
    if request.method == "POST":
        if form.is_valid():
            pin.grant_access(request, protocol, form.cleaned_data["seat"])
            return redirect("table:protocol", slug, series, table)
        locked = form.has_error("pin", "locked") or form.has_error("pin", "table_locked")
        return pin.phone_id_remember(request, _render_pin(request, protocol, form, status=403 if locked else 200))
    return _render_pin(request, protocol, form)


def _deal_initial(deal: dict[str, Any]) -> dict[str, Any]:
    """A stored deal as the button form's initial data (the shorthand line carries any deal)."""
    keys = ("contract", "old", "old_eyes", "tie", "winner", "level", "misplay", "offence", "laid_down")
    initial = {key: deal[key] for key in keys if key in deal}
    initial["kontras"] = kontra_letters(deal.get("kontras", []))
    return initial


def _entry_forms(number: int, row: DealRow | None = None) -> dict[str, Any]:
    """Fresh entry forms for deal ``number``: the next one, or the saved ``row`` to fix it."""
    return {
        "row_form": RowForm(initial={"number": number, "line": format_deal(row.deal) if row else ""}),
        "deal_form": DealForm(prefix="full", initial=_deal_initial(row.deal) if row else {"contract": "zwykla"}),
        "editing": row,
    }


def _display_rows(rows: list[selectors.SheetRow]) -> list[dict[str, Any]]:
    """The rows as the phone lists them: the deal in words with its shorthand, and (value, running total) per seat."""
    return [
        {
            "number": row.number,
            "bok_round": row.bok_round,
            "description": row.description,
            "cells": [(row.values[seat], row.totals[seat]) for seat in SEATS],
        }
        for row in rows
    ]


def _contract_choices(protocol: Protocol) -> list[tuple[str, str]]:
    """Only the contracts the tournament's rules play, so the scorer is not offered one that is refused."""
    ruleset = protocol.series.tournament.ruleset()
    return [(code, label) for code, label in CONTRACT_LABELS.items() if ruleset.contract(code) is not None]


def _contract_words(protocol: Protocol, deal_form: DealForm) -> dict[str, Any]:
    """What the button form says for the chosen contract: a solo game has a declarer ("rozgrywający")
    who won or lost, not the old and the young ("starzy", "młodzi"); a thrown game ("rzucana") is won.

    The page is rendered for the contract the form holds; the form lists the solo and thrown
    contracts so that its script switches the words (and ticks "won") when another one is tapped.
    """
    ruleset = protocol.series.tournament.ruleset()
    rules = [rule for rule in map(ruleset.contract, CONTRACT_LABELS) if rule is not None]
    chosen = ruleset.contract(str(deal_form["contract"].value() or ""))
    return {
        "solo": chosen is not None and not chosen.pair,
        "solo_contracts": " ".join(rule.code for rule in rules if not rule.pair),
        "thrown_contracts": " ".join(rule.code for rule in rules if rule.thrown),
        "winner_choices": [
            ("", "—"),
            ("old", _both_words(SIDE_LABELS["old"], _("the declarer won"))),
            ("young", _both_words(SIDE_LABELS["young"], _("the declarer lost"))),
        ],
    }


def _both_words(pair: str, solo: str) -> str:
    """A label in the words of a pair game and of a solo game; the page's CSS shows the one that fits."""
    return format_html('<i class="pair-only">{}</i><i class="solo-only">{}</i>', pair, solo)


def _finish_step(scorer: Scorer, *, has_rows: bool) -> str | None:
    """Which end-of-series step the page offers: the paper's totals, the second player's confirmation
    (or why this phone cannot give it: it marked the protocol complete, or chose the completing seat),
    or the result."""
    protocol = scorer.protocol
    if protocol.status == Protocol.Status.CONFIRMED:
        return "confirmed"
    if protocol.status == Protocol.Status.COMPLETE:
        if scorer.grant.id == protocol.completed_by_grant:
            return "completed_here"
        return "same_seat" if scorer.seat == protocol.completed_by_seat else "confirm"
    return "totals" if has_rows else None


def _last_deal(protocol: Protocol) -> DealRow | None:
    """The entry the table may still correct or delete: the last one, if it is a deal (a penalty is the referee's)."""
    row = protocol.rows.order_by("-number").first()
    return row if row is not None and "penalty" not in row.deal else None


def _names(protocol: Protocol) -> dict[str, str]:
    return {seat: player.full_name for seat, player in _players(protocol).items()}


def _pulka_page(request: HttpRequest, scorer: Scorer, status: int = 200, **context: Any) -> HttpResponse:
    """A Preferans table's phone: the sheet, who deals next and the next deal's form (or the last
    entry's correction, ``editing``), closing by agreement, and the end-of-series steps."""
    protocol = scorer.protocol
    tournament = protocol.series.tournament
    pulka = protocol_pulka(protocol=protocol)
    progress = selectors.pulka_progress(pulka.sheet)
    players = _players(protocol)
    names = {seat: player.full_name for seat, player in players.items()}
    next_number = len(pulka.lines) + 1
    can_enter = protocol.status == Protocol.Status.OPEN
    context = {
        "scorer": scorer,
        "protocol": protocol,
        "series": protocol.series,
        "tournament": tournament,
        "pulka": pulka,
        "names": names,
        # each seat's small points so far (provisional until the pulka is over): what the paper's totals are
        "seats": [(seat, players.get(seat), pulka.score.totals[seat]) for seat in tournament.seats],
        "progress": progress,
        "dealer": player_label(pulka.sheet.upcoming_dealer, names),
        "can_enter": can_enter,
        "can_add": can_enter and not progress.over and next_number <= tournament.row_limit,
        "last": _last_deal(protocol) if can_enter else None,
        "next_number": next_number,
        "stamp": pulka_views.entry_stamp(protocol, next_number),
        "deal_form": PulkaDealForm(players=pulka_views.entry_players(protocol, names)),
        "editing": None,
        "close_form": pulka_views.PulkaCloseForm(
            initial={"version": protocol.version, "closed": not protocol.pulka_closed}
        ),
        "finish_step": _finish_step(scorer, has_rows=bool(pulka.lines)),
        "totals_form": TotalsForm(initial={"version": protocol.version, **(protocol.declared_totals or {})}),
        "confirm_form": PhoneConfirmForm(initial={"version": protocol.version}),
        **context,
    }
    return render(request, "results/table/pulka.html", context, status=status)


def _page(request: HttpRequest, scorer: Scorer, **context: Any) -> HttpResponse:
    """The phone's page of the table's game: the pulka of a Preferans table, else the Baśka protocol."""
    if scorer.protocol.series.tournament.is_preferans:
        return _pulka_page(request, scorer, **context)
    return _render_page(request, scorer, **context)


def _render_page(request: HttpRequest, scorer: Scorer, status: int = 200, **context: Any) -> HttpResponse:
    """The protocol page: players and totals, the rows, and the forms the protocol's state allows."""
    protocol = scorer.protocol
    rows = selectors.protocol_sheet(protocol=protocol)
    totals = selectors.sheet_totals(rows)
    players = _players(protocol)
    can_enter = protocol.status == Protocol.Status.OPEN
    context = {
        "scorer": scorer,
        "protocol": protocol,
        "series": protocol.series,
        "tournament": protocol.series.tournament,
        "seats": [(seat, players.get(seat), totals[seat]) for seat in SEATS],
        "rows": _display_rows(rows),
        "contract_choices": _contract_choices(protocol),
        "kontra_buttons": [
            (SIDE_LETTERS["young"], _both_words(_("young"), _("opponents"))),
            (SIDE_LETTERS["old"], _both_words(_("old"), _("declarer"))),
        ],
        "can_enter": can_enter,
        "finish_step": _finish_step(scorer, has_rows=bool(rows)),
        "all_entered": len(rows) >= protocol.series.tournament.deals_per_series,
        # Empty until the scorer types them: offering the computed totals made the cross-check one tap.
        "totals_form": TotalsForm(initial={"version": protocol.version, **(protocol.declared_totals or {})}),
        "confirm_form": PhoneConfirmForm(initial={"version": protocol.version}),
        "next_number": len(rows) + 1,
        **_entry_forms(len(rows) + 1),
        **context,
    }
    context.update(_contract_words(protocol, context["deal_form"]))
    return render(request, "results/table/protocol.html", context, status=status)


def _refused(
    request: HttpRequest, form: forms.Form, scorer: Scorer, error: ValidationError | PermissionDenied
) -> dict[str, Any]:
    """Show a service's refusal; a stale version also lists the latest changes to re-check.

    The protocol is re-read, so the page shows the rows as they are now and its
    forms carry the current version.
    """
    scorer.protocol.refresh_from_db()
    if isinstance(error, PermissionDenied):
        # Not the form's fault: the protocol's state forbids it, and the form may not even be shown.
        messages.error(request, str(error))
        return {}
    form.add_error(None, error)
    if isinstance(error, services.StaleProtocol):
        return {"changes": scorer.protocol.history.order_by("-created", "-pk")[:CHANGES_SHOWN]}
    return {}


def _editing(request: HttpRequest, scorer: Scorer, row_form: RowForm) -> DealRow | None:
    """The saved row a submitted form was fixing; None for a new deal (or a number that did not parse).

    The form says which it was (``fixing``): after a refused stale save a new deal's number may
    belong to a row someone else has just added, and the form must stay the new deal it was.
    """
    if not request.POST.get("fixing"):
        return None
    return scorer.protocol.rows.filter(number=row_form.cleaned_data.get("number")).first()


@table_scorer
def protocol_page(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    return _page(request, scorer)


@table_scorer
@baska_only
def edit_row(request: HttpRequest, scorer: Scorer, number: int) -> HttpResponse:
    """The page with deal ``number`` loaded into the entry forms, to fix it."""
    row = get_object_or_404(scorer.protocol.rows, number=number)
    return _render_page(request, scorer, **_entry_forms(number, row))


@table_scorer
@require_POST
@baska_only
def save_row(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """Add the next deal or fix an earlier one, typed by buttons or as a shorthand line."""
    row_form, deal_form, deal = typed_deal(request, scorer.protocol)
    extra: dict[str, Any] = {}
    if deal is not None:
        number = row_form.cleaned_data["number"]
        try:
            offline.protocol_row_save_once(  # once per form key: a retried POST answers as the first did
                protocol=scorer.protocol,
                key=row_form.cleaned_data["key"],
                number=number,
                deal=deal,
                expected_version=row_form.cleaned_data["version"],
                author=scorer.author,
                seat=scorer.seat,
            )
            messages.success(request, _("Deal %(number)s saved.") % {"number": number})
            return redirect(scorer.url() + "#entry")
        except (ValidationError, PermissionDenied) as error:
            extra = _refused(request, row_form, scorer, error)
    return _render_page(
        request, scorer, row_form=row_form, deal_form=deal_form, editing=_editing(request, scorer, row_form), **extra
    )


@table_scorer
@require_POST
@baska_only
def preview(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """The typed deal valued in place with the totals after it: an htmx fragment, or the page without JS."""
    row_form, deal_form, deal = typed_deal(request, scorer.protocol)
    row = None
    if deal is not None:
        number = row_form.cleaned_data["number"]
        try:
            row = selectors.protocol_row_preview(protocol=scorer.protocol, number=number, deal=deal)
        except ValidationError as error:
            row_form.add_error(None, error)
    context = {"row_form": row_form, "deal_form": deal_form, "preview": row}
    if request.htmx:
        return render(request, "results/table/_preview.html", context)
    return _render_page(request, scorer, editing=_editing(request, scorer, row_form), **context)


@table_scorer
@require_POST
@baska_only
def delete_row(request: HttpRequest, scorer: Scorer, number: int) -> HttpResponse:
    """Delete the last deal (the services refuse any other)."""
    try:
        version = forms.IntegerField(min_value=0).clean(request.POST.get("version"))
        services.protocol_row_delete(
            protocol=scorer.protocol, number=number, expected_version=version, author=scorer.author, seat=scorer.seat
        )
        messages.success(request, _("Deal %(number)s deleted.") % {"number": number})
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, " ".join(error.messages if isinstance(error, ValidationError) else [str(error)]))
    return redirect(scorer.url() + "#entry")


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
            extra = _refused(request, form, scorer, error)
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
            extra = _refused(request, form, scorer, error)
    return _page(request, scorer, confirm_form=form, **extra)


@table_scorer
@require_POST
@pulka_only
def pulka_deal(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """Add the pulka's next deal; the engine's refusal comes back beside the form and nothing is stored."""
    protocol = scorer.protocol
    form = PulkaDealForm(request.POST, players=pulka_views.entry_players(protocol, _names(protocol)))
    stamp = RowForm(request.POST)
    extra: dict[str, Any] = {}
    try:
        if pulka_views.entry_save(protocol=protocol, form=form, stamp=stamp, author=scorer.author, seat=scorer.seat):
            messages.success(request, _("Deal %(number)s saved.") % {"number": stamp.cleaned_data["number"]})
            return redirect(scorer.url() + "#entry")
    except (ValidationError, PermissionDenied) as error:
        extra = _refused(request, form, scorer, error)
    # the same key goes back: nothing was stored under it
    stamp = pulka_views.entry_stamp(protocol, protocol.rows.count() + 1, stamp.data.get("key"))
    return _pulka_page(request, scorer, deal_form=form, stamp=stamp, **extra)


@table_scorer
@pulka_only
def pulka_entry(request: HttpRequest, scorer: Scorer, number: int) -> HttpResponse:
    """Entry ``number`` loaded into the deal form, to correct or delete it: only the last entry,
    a deal, while the protocol is open (the pencil rule: a later deal makes an entry final)."""
    protocol = scorer.protocol
    last = _last_deal(protocol) if protocol.status == Protocol.Status.OPEN else None
    data = request.POST if request.method == "POST" else None
    if last is None or last.number != number:
        if data is None or not offline.submission_seen(protocol=protocol, key=data.get("key", "")):
            messages.error(
                request, _("Only the last deal can be corrected at the table; the referee corrects the others.")
            )
        return redirect(scorer.url() + "#entry")  # a deletion sent again is answered as the first time
    names = _names(protocol)
    form = PulkaDealForm(
        data, players=pulka_views.entry_players(protocol, names), initial=PulkaDealForm.initial_from(last.deal)
    )
    change = pulka_views.PulkaChangeForm(data, initial={"number": number, "version": protocol.version})
    extra: dict[str, Any] = {}
    if data is not None:
        try:
            writer = {"author": scorer.author, "seat": scorer.seat}
            if pulka_views.entry_save(protocol=protocol, form=form, stamp=change, number=number, **writer):
                messages.success(request, pulka_views.entry_changed_message(change, number))
                return redirect(scorer.url() + "#entry")
        except (ValidationError, PermissionDenied) as error:
            extra = _refused(request, change, scorer, error)
    editing = {"row": last, "description": describe_pulka_entry(last.deal, names), "form": form, "change": change}
    return _pulka_page(request, scorer, editing=editing, **extra)


@table_scorer
@require_POST
@pulka_only
def pulka_close(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """Close the pulka by the players' agreement, or open it again; the history names the phone's seat."""
    pulka_views.pulka_close_save(request, scorer.protocol, seat=scorer.seat, grant=scorer.grant.id)
    return redirect(scorer.url() + "#pulka-state")
