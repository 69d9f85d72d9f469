"""The table phone's JSON endpoints (issue 15): deals sent from the phone's queue, the protocol's
state, the phone's report of its queue, and the value table for provisional values.

All sit under the table's URL (``league.results.table.urls``) behind the table's PIN grant, as
the phone pages do; POSTs carry the CSRF token in ``X-CSRFToken``. Without a grant the answer is
403 ``{"status": "pin_required"}`` (the phone keeps its queue and shows the PIN form); once the
series is closed, 409 ``{"status": "closed"}``, since grants end with the series. What is stored
and answered is decided in ``league.results.table.queue``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

import scoring
from league.games import game_of
from league.models import Series
from league.results.table import pin, queue
from league.results.table.scorer import Scorer, table_protocol

View = Callable[..., HttpResponse]
WAITING_MAX = 32767  # what PhoneContact.waiting (a small integer) holds


def _answer(answer: queue.Answer) -> JsonResponse:
    return JsonResponse(answer.body, status=answer.status, json_dumps_params={"ensure_ascii": False})


def phone_json(*, after_closing: bool = False) -> Callable[[View], View]:
    """Let in a session holding this protocol's PIN grant, answering others in JSON.

    ``after_closing``: the view is also reached with a grant once the series is closed (the
    sent deals, so that a repeat of a stored deal still gets its answer; anything else is closed).
    """

    def decorate(view: View) -> View:
        @wraps(view)
        @never_cache
        def wrapped(request: HttpRequest, slug: str, series: int, table: int) -> HttpResponse:
            protocol = table_protocol(request, slug, series, table)
            grant = pin.grant_of(request, protocol)
            closed = protocol.series.status == Series.Status.CLOSED
            if closed and (grant is None or not after_closing):
                return _answer(queue.closed(protocol))
            if grant is None:
                return JsonResponse({"status": "pin_required"}, status=403)
            return view(request, Scorer(protocol, grant))

        return wrapped

    return decorate


# One deal with its key is a few hundred bytes; the bound keeps a hostile body from costing more
# than refusing it (and deep nesting from exhausting the parser's recursion).
BODY_MAX_BYTES = 16 * 1024


def _body(request: HttpRequest) -> dict[str, Any] | None:
    if len(request.body) > BODY_MAX_BYTES:
        return None
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return body if isinstance(body, dict) else None


def _storable(body: Any) -> bool:
    """Every text of the body, its keys too, can be stored: no NUL character (PostgreSQL refuses it)
    and no lone surrogate (a ``\\ud800`` escape, half of a character, which UTF-8 cannot encode).
    Walked with a list, not by recursion: the parser allows nesting deeper than Python's recursion."""
    waiting = [body]
    while waiting:
        value = waiting.pop()
        if isinstance(value, dict):
            waiting.extend(value.keys())
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
        elif isinstance(value, str):
            if "\x00" in value:
                return False
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return False
    return True


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _malformed(body: dict[str, Any] | None) -> queue.Answer | None:
    """The refusal of a request that is not the contract's shape, naming the part that is wrong."""
    if body is None:
        return queue.invalid("invalid_request", _("The request is not a JSON object."))
    key = body.get("key")
    if not isinstance(key, str) or not 0 < len(key) <= queue.KEY_MAX_LENGTH:
        return queue.invalid("invalid_request", _("The deal has no key made on the phone."), "key")
    if not _integer(body.get("number")) or body["number"] < 1:
        return queue.invalid("invalid_request", _("The deal number must be a whole number from 1."), "number")
    if not isinstance(body.get("deal"), dict):
        return queue.invalid("invalid_request", _("The deal is missing."), "deal")
    base = body.get("base_version")
    if base is not None and not _integer(base):
        return queue.invalid("invalid_request", _("The version must be a whole number."), "base_version")
    if not isinstance(body.get("replace", False), bool):
        return queue.invalid("invalid_request", _("“replace” must be true or false."), "replace")
    if body.get("replace") and base is None:
        return queue.invalid("invalid_request", _("Replacing a deal needs the version the phone saw."), "base_version")
    return None


def _no_queue(scorer: Scorer) -> JsonResponse:
    """A table whose game has no offline queue (its rows need more than the queue's values) is
    entered with the page's forms; the status names the game."""
    message = _("This table's protocol is entered with the page's forms, without the offline queue.")
    body = {"status": scorer.protocol.series.tournament.game, "message": message}
    return JsonResponse(body, status=409, json_dumps_params={"ensure_ascii": False})


@require_POST
@phone_json(after_closing=True)
def deals(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """``POST rozdania.json``: one deal from the phone's queue, stored exactly once (see ``queue.deal_submit``)."""
    if not game_of(scorer.protocol.series.tournament).offline_queue:
        return _no_queue(scorer)
    body = _body(request)
    if body is not None and not _storable(body):
        message = _("The request holds a character that cannot be stored (a NUL character or half of a character).")
        return _answer(dataclasses.replace(queue.invalid("invalid_request", message), status=400))
    if refusal := _malformed(body):
        return _answer(refusal)
    assert body is not None
    return _answer(
        queue.deal_submit(
            protocol=scorer.protocol,
            key=body["key"],
            number=body["number"],
            deal=body["deal"],
            base_version=body.get("base_version"),
            replace=body.get("replace", False),
            author=scorer.author,
            seat=scorer.seat,
        )
    )


@require_GET
@phone_json()
def state(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """``GET stan.json``: the protocol as stored now, for the phone to compare its queue with. Reads only."""
    return JsonResponse(queue.protocol_state(protocol=scorer.protocol), json_dumps_params={"ensure_ascii": False})


@require_POST
@phone_json()
def contact(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """``POST kontakt.json``: the phone reports how many deals wait on it (``{"waiting": 3, "online": true}``)."""
    body = _body(request)
    waiting = body.get("waiting") if body else None
    if not _integer(waiting) or not 0 <= waiting <= WAITING_MAX or not isinstance(body.get("online", True), bool):
        return _answer(queue.invalid("invalid_request", _("Report the number of waiting deals."), "waiting"))
    queue.phone_contact_report(
        protocol=scorer.protocol,
        grant=scorer.grant.id,
        seat=scorer.seat,
        waiting=waiting,
        online=body.get("online", True),
    )
    return HttpResponse(status=204)


@require_GET
@phone_json()
def value_table(request: HttpRequest, scorer: Scorer) -> HttpResponse:
    """``GET tabela-wartosci.json``: the engine's values of every deal the phone's form can describe,
    under the tournament's rules (``scoring.value_table``), for provisional values while offline."""
    if not game_of(scorer.protocol.series.tournament).offline_queue:
        return _no_queue(scorer)
    tournament = scorer.protocol.series.tournament
    table = scoring.value_table(game_of(tournament).standing_rules(tournament))
    return JsonResponse(table, json_dumps_params={"ensure_ascii": False, "separators": (",", ":")})
