"""The Preferans table's phone: its pulka with plain forms, without the Baśka page's script.

The next deal, a correction or deletion of the last entry while the protocol is open (an entry
followed by another is final: only the referee corrects it), closing the pulka by the players'
agreement, then the paper's totals, "complete" and the second seat's confirmation as for Baśka
(``league.results.table``). A penalty is the referee's.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.games.choices import Game
from league.games.preferans import referee as pulka_views
from league.games.preferans.describe import describe_pulka_entry, player_label
from league.games.preferans.forms import PulkaDealForm
from league.games.preferans.pulka import PULKA_ROW_LIMIT, protocol_pulka, pulka_progress
from league.results.forms import PhoneConfirmForm, RowStamp, TotalsForm
from league.results.models import DealRow, Protocol
from league.results.submissions import submission_seen
from league.results.table.scorer import (
    Scorer,
    finish_step,
    game_only,
    scorer_refused,
    table_names,
    table_players,
    table_scorer,
)

pulka_only = game_only(Game.PREFERANS)


def _last_deal(protocol: Protocol) -> DealRow | None:
    """The entry the table may still correct or delete: the last one, if it is a deal (a penalty is the referee's)."""
    row = protocol.rows.order_by("-number").first()
    return row if row is not None and "penalty" not in row.deal else None


def phone_page(request: HttpRequest, scorer: Scorer, status: int = 200, **context: Any) -> HttpResponse:
    """A Preferans table's phone: the sheet, who deals next and the next deal's form (or the last
    entry's correction, ``editing``), closing by agreement, and the end-of-series steps."""
    protocol = scorer.protocol
    tournament = protocol.series.tournament
    pulka = protocol_pulka(protocol=protocol)
    progress = pulka_progress(pulka.sheet)
    players = table_players(protocol)
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
        "can_add": can_enter and not progress.over and next_number <= PULKA_ROW_LIMIT,
        "last": _last_deal(protocol) if can_enter else None,
        "next_number": next_number,
        "stamp": pulka_views.entry_stamp(protocol, next_number),
        "deal_form": PulkaDealForm(players=pulka_views.entry_players(protocol, names)),
        "editing": None,
        "close_form": pulka_views.PulkaCloseForm(
            initial={"version": protocol.version, "closed": not protocol.closed_by_agreement}
        ),
        "finish_step": finish_step(scorer, has_rows=bool(pulka.lines)),
        "totals_form": TotalsForm.on_the_phone(protocol),
        "confirm_form": PhoneConfirmForm(initial={"version": protocol.version}),
        **context,
    }
    return render(request, "games/preferans/phone.html", context, status=status)


@table_scorer
@require_POST
@pulka_only
def pulka_deal(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """Add the pulka's next deal; the engine's refusal comes back beside the form and nothing is stored."""
    protocol = scorer.protocol
    form = PulkaDealForm(request.POST, players=pulka_views.entry_players(protocol, table_names(protocol)))
    stamp = RowStamp(request.POST)
    extra: dict[str, Any] = {}
    try:
        if pulka_views.entry_save(protocol=protocol, form=form, stamp=stamp, author=scorer.author, seat=scorer.seat):
            messages.success(request, _("Deal %(number)s saved.") % {"number": stamp.cleaned_data["number"]})
            return redirect(scorer.url() + "#entry")
    except (ValidationError, PermissionDenied) as error:
        extra = scorer_refused(request, form, scorer, error)
    # the same key goes back: nothing was stored under it
    stamp = pulka_views.entry_stamp(protocol, protocol.rows.count() + 1, stamp.data.get("key"))
    return phone_page(request, scorer, deal_form=form, stamp=stamp, **extra)


@table_scorer
@pulka_only
def pulka_entry(request: HttpRequest, scorer: Scorer, number: int) -> HttpResponse:
    """Entry ``number`` loaded into the deal form, to correct or delete it: only the last entry,
    a deal, while the protocol is open (the pencil rule: a later deal makes an entry final)."""
    protocol = scorer.protocol
    last = _last_deal(protocol) if protocol.status == Protocol.Status.OPEN else None
    data = request.POST if request.method == "POST" else None
    if last is None or last.number != number:
        if data is None or not submission_seen(protocol=protocol, key=data.get("key", "")):
            messages.error(
                request, _("Only the last deal can be corrected at the table; the referee corrects the others.")
            )
        return redirect(scorer.url() + "#entry")  # a deletion sent again is answered as the first time
    names = table_names(protocol)
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
            extra = scorer_refused(request, change, scorer, error)
    editing = {"row": last, "description": describe_pulka_entry(last.deal, names), "form": form, "change": change}
    return phone_page(request, scorer, editing=editing, **extra)


@table_scorer
@require_POST
@pulka_only
def pulka_close(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """Close the pulka by the players' agreement, or open it again; the history names the phone's seat."""
    pulka_views.pulka_close_save(request, scorer.protocol, seat=scorer.seat, grant=scorer.grant.id)
    return redirect(scorer.url() + "#pulka-state")


def urls() -> list[URLPattern]:
    """The pulka's forms on the table's phone (named in the ``table`` namespace)."""
    table = "<slug:slug>/stolik/<int:series>/<int:table>/"
    return [
        path(table + "pulka/rozdanie/", pulka_deal, name="pulka_deal"),
        path(table + "pulka/wpis-<int:number>/", pulka_entry, name="pulka_entry"),
        path(table + "pulka/zamkniecie/", pulka_close, name="pulka_close"),
    ]
