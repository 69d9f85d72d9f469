"""The door of a table's phone ("protokolant stołu"): who is at the phone, and the PIN page.

Each table of a series has its own link; the protocol's PIN (``league.results.table.pin``) opens it
for one browser session as one seat (:class:`Scorer`). Until the draw is published, the PIN page
names the table's players only to a referee of the tournament and to a phone already let in.
A draft tournament's table pages are not found (404) for anyone but those who may see the draft
(``league.public.views.visible_tournaments``: its organisers and referees), so its name stays unknown.
Grants end with the series: once it is closed the page only says so.

The phone's pages of each game (``league.games.<game>.phone``) stand behind :func:`table_scorer`
and share the steps here: how a refusal is shown (:func:`scorer_refused`) and which end-of-series
step the page offers (:func:`finish_step`).
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
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from league.games import linked_related
from league.models import Series
from league.public.views import visible_tournaments
from league.results import selectors, services
from league.results.models import Protocol
from league.results.table import pin
from league.tournaments.roles import is_referee
from players.models import Player
from scoring import SEATS

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


def table_protocol(request: HttpRequest, slug: str, series: int, table: int) -> Protocol:
    """The protocol of one table, with its series and tournament; 404 for a table the draw did not make,
    and for a table of a draft tournament unless the visitor may see the draft (its staff)."""
    return get_object_or_404(
        Protocol.objects.select_related("series__tournament", *linked_related("series__tournament")),
        series__tournament__in=visible_tournaments(request),
        series__tournament__slug=slug,
        series__number=series,
        table=table,
    )


def table_players(protocol: Protocol) -> dict[str, Player]:
    """Who sits at the protocol's table, by seat."""
    return selectors.table_players(series=protocol.series, table=protocol.table)


def table_names(protocol: Protocol) -> dict[str, str]:
    """The full names of the protocol's players, by seat."""
    return {seat: player.full_name for seat, player in table_players(protocol).items()}


def _names_shown(request: HttpRequest, protocol: Protocol) -> bool:
    """Whether the PIN page may name the players: anyone once the draw is published, before that
    a referee or organiser of the tournament and a phone holding a grant for this table."""
    tournament = protocol.series.tournament
    return (
        tournament.draw_published or pin.grant_of(request, protocol) is not None or is_referee(request.user, tournament)
    )


def pin_form(request: HttpRequest, protocol: Protocol, data: Any = None) -> pin.PinForm:
    players = table_players(protocol) if _names_shown(request, protocol) else {}
    seats = [(seat, f"{seat} · {player.full_name}") for seat, player in players.items()]
    return pin.PinForm(data, request=request, protocol=protocol, seats=seats or [(s, s) for s in SEATS])


def pin_page(request: HttpRequest, protocol: Protocol, form: pin.PinForm, status: int = 200) -> HttpResponse:
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
        protocol = table_protocol(request, slug, series, table)
        grant = pin.grant_of(request, protocol)
        if protocol.series.status == Series.Status.CLOSED:
            status = 403 if request.method == "POST" else 200
            return pin_page(request, protocol, pin_form(request, protocol), status=status)
        if grant is None:
            if request.method == "POST":
                raise PermissionDenied
            return pin_page(request, protocol, pin_form(request, protocol))
        return view(request, Scorer(protocol, grant), **kwargs)

    return wrapped


def finish_step(scorer: Scorer, *, has_rows: bool) -> str | None:
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


def scorer_refused(
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


def game_only(game_key: str) -> Callable[[View], View]:
    """A form of one game's phone (behind :func:`table_scorer`): another game's table has none (404)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, scorer: Scorer, **kwargs: Any) -> HttpResponse:
            if scorer.protocol.series.tournament.game != game_key:
                raise Http404
            return view(request, scorer, **kwargs)

        return wrapped

    return decorate
