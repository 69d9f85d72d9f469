"""The Baśka table's phone: the protocol's rows and the deal entry by big buttons or a shorthand line.

While the series is open the scorer adds deals, fixes or deletes the last ones, types the paper's
totals and marks the protocol complete; a second player confirms it from another seat
(``league.results.table``). The page's script keeps deals typed offline in a queue
(``league.results.table.queue``) and values them provisionally from the value table.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import format_html
from django.utils.translation import gettext as _

import scoring
from league.games.baska.forms import DealForm, RowForm, typed_deal, with_kept_note
from league.games.baska.settings import baska_settings, tournament_ruleset
from league.games.baska.shorthand import SIDE_LETTERS, format_deal
from league.games.labels import CONTRACT_LABELS, SIDE_LABELS
from league.results import selectors, services
from league.results.forms import PhoneConfirmForm, TotalsForm
from league.results.models import DealRow, Protocol
from league.results.submissions import protocol_row_save_once
from league.results.table.scorer import Scorer, finish_step, scorer_refused, table_players
from scoring import SEATS


def _entry_forms(number: int, row: DealRow | None = None) -> dict[str, Any]:
    """Fresh entry forms for deal ``number``: the next one, or the saved ``row`` to fix it."""
    return {
        "row_form": RowForm(initial={"number": number, "line": format_deal(row.deal) if row else ""}),
        "deal_form": DealForm(
            prefix="full", initial=DealForm.initial_from(row.deal) if row else {"contract": "zwykla"}
        ),
        "editing": row,
    }


def _display_rows(rows: list[selectors.SheetRow]) -> list[dict[str, Any]]:
    """The rows as the phone lists them: the deal in words with its shorthand, and (value, running total) per seat."""
    return [
        {
            "number": row.number,
            "bok_round": row.doubled,
            "description": row.description,
            "cells": [(row.values[seat], row.totals[seat]) for seat in SEATS],
        }
        for row in rows
    ]


def _contract_choices(protocol: Protocol) -> list[tuple[str, str]]:
    """Only the contracts the tournament's rules play, so the scorer is not offered one that is refused."""
    ruleset = tournament_ruleset(protocol.series.tournament)
    return [(code, label) for code, label in CONTRACT_LABELS.items() if ruleset.contract(code) is not None]


def _contract_words(protocol: Protocol, deal_form: DealForm) -> dict[str, Any]:
    """What the button form says for the chosen contract: a solo game has a declarer ("rozgrywający")
    who won or lost, not the old and the young ("starzy", "młodzi"); a thrown game ("rzucana") is won.

    The page is rendered for the contract the form holds; the form lists the solo and thrown
    contracts so that its script switches the words (and ticks "won") when another one is tapped.
    """
    ruleset = tournament_ruleset(protocol.series.tournament)
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


def _bok_marked(protocol: Protocol) -> bool:
    """The rules have the scorer mark the bok rows (``bok_rounds.trigger`` "marked"), so the phone offers the mark."""
    bok = tournament_ruleset(protocol.series.tournament).bok_rounds
    return bok.enabled and bok.trigger == "marked"


def _bok_states(protocol: Protocol, rows: list[selectors.SheetRow]) -> str:
    """The bok rounds' state before each row and after the last, as the engine names them, for the
    page's script to walk on over its queued deals (``scoring.value_table``); empty where a deal's
    own fields say whether it is in a bok round, or where the stored rows no longer score (then a
    queued deal has no provisional value until the server values it)."""
    if scoring.value_table(tournament_ruleset(protocol.series.tournament))["bok_walk"] is None:
        return ""
    try:
        result = selectors.protocol_score(protocol=protocol, deals=[row.deal for row in rows])
    except ValidationError:
        return ""
    return " ".join([row.bok_state for row in result.rows] + [result.bok_state])


def phone_page(request: HttpRequest, scorer: Scorer, status: int = 200, **context: Any) -> HttpResponse:
    """The protocol page: players and totals, the rows, and the forms the protocol's state allows."""
    protocol = scorer.protocol
    rows = selectors.protocol_sheet(protocol=protocol)
    totals = selectors.sheet_totals(rows)
    players = table_players(protocol)
    can_enter = protocol.status == Protocol.Status.OPEN
    context = {
        "scorer": scorer,
        "protocol": protocol,
        "series": protocol.series,
        "tournament": protocol.series.tournament,
        "seats": [(seat, players.get(seat), totals[seat]) for seat in SEATS],
        "rows": _display_rows(rows),
        "contract_choices": _contract_choices(protocol),
        "bok_marked": _bok_marked(protocol),
        "bok_states": _bok_states(protocol, rows),
        # the mark matters only where the rules do not count (or refuse) the kontra on such a cicha
        "cicha_mark": tournament_ruleset(protocol.series.tournament).cicha_na_dobiciu_kontra != "counts",
        "kontra_buttons": [
            (SIDE_LETTERS["young"], _both_words(_("young"), _("opponents"))),
            (SIDE_LETTERS["old"], _both_words(_("old"), _("declarer"))),
        ],
        "can_enter": can_enter,
        "finish_step": finish_step(scorer, has_rows=bool(rows)),
        "all_entered": len(rows) >= baska_settings(protocol.series.tournament).deals_per_series,
        "totals_form": TotalsForm.on_the_phone(protocol),
        "confirm_form": PhoneConfirmForm(initial={"version": protocol.version}),
        "next_number": len(rows) + 1,
        "heartbeat_seconds": settings.TABLE_HEARTBEAT_SECONDS,  # table-offline.js reports this often
        **_entry_forms(len(rows) + 1),
        **context,
    }
    context.update(_contract_words(protocol, context["deal_form"]))
    return render(request, "games/baska/phone.html", context, status=status)


def _editing(request: HttpRequest, scorer: Scorer, row_form: RowForm) -> DealRow | None:
    """The saved row a submitted form was fixing; None for a new deal (or a number that did not parse).

    The form says which it was (``fixing``): after a refused stale save a new deal's number may
    belong to a row someone else has just added, and the form must stay the new deal it was.
    """
    if not request.POST.get("fixing"):
        return None
    return scorer.protocol.rows.filter(number=row_form.cleaned_data.get("number")).first()


def edit_row(request: HttpRequest, scorer: Scorer, number: int) -> HttpResponse:
    """The page with deal ``number`` loaded into the entry forms, to fix it."""
    row = get_object_or_404(scorer.protocol.rows, number=number)
    return phone_page(request, scorer, **_entry_forms(number, row))


def save_row(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """Add the next deal or fix an earlier one, typed by buttons or as a shorthand line."""
    row_form, deal_form, deal = typed_deal(request, scorer.protocol)
    fixed = _editing(request, scorer, row_form)
    extra: dict[str, Any] = {}
    if deal is not None:
        number = row_form.cleaned_data["number"]
        if fixed is not None:
            deal = with_kept_note(deal, fixed.deal)
        try:
            protocol_row_save_once(  # once per form key: a retried POST answers as the first did
                protocol=scorer.protocol,
                key=row_form.cleaned_data["key"],
                number=number,
                deal=deal,
                expected_version=row_form.cleaned_data["version"],
                author=scorer.author,
                seat=scorer.seat,
            )
            messages.success(request, _("Deal %(number)s saved.") % {"number": number})
            # typed as a line, the next deal is typed there too: the page puts the cursor in it
            return redirect(scorer.url() + ("#line" if row_form.cleaned_data.get("line") else "#entry"))
        except (ValidationError, PermissionDenied) as error:
            extra = scorer_refused(request, row_form, scorer, error)
    return phone_page(request, scorer, row_form=row_form, deal_form=deal_form, editing=fixed, **extra)


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
        return render(request, "games/baska/_phone_preview.html", context)
    return phone_page(request, scorer, editing=_editing(request, scorer, row_form), **context)


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


STEPS = {"edit": edit_row, "save": save_row, "preview": preview, "delete": delete_row}
"""The phone's deal entry by its step (``GameRules.phone_entry``)."""
