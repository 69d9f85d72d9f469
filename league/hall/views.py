"""The control room ("sala") of a series, for its referees and organisers: the tables live, the clock,
and at the end of time the organiser's stopping of the tables still playing (after a page that lists them).

The page shows its tables in a fragment that htmx polls every 2 s (``static/js/hall.js``). The fragment
carries an ETag from one query (:func:`league.hall.selectors.room_validator`); a browser asking with the
ETag it holds gets a bodiless 304 before anything is computed, and ``Cache-Control: no-cache`` makes
it ask every time. The fragment names no user and carries no token, so each web process keeps it
ready under its ETag (:data:`ready_rooms`): when a deal changes the room, the referees' browsers
polling it get one fragment built per process, not one each. Without JavaScript the page reloads
itself instead. Every change is a POST to
``league.hall.services`` followed by a redirect back to the room.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from league.models import Series
from league.public.page_store import LruStore, page_etag, with_validators
from league.results.table.queue import heartbeat_silence
from league.tournaments.roles import is_organiser, organiser_required, referee_required

from . import selectors, services
from .clock import clock_face

MAX_LATE_MINUTES = 180
ready_rooms: LruStore[str] = LruStore(64)  # fragments by ETag: a few series × filters × languages at once


class LateForm(forms.Form):
    """The late filter: only the tables more than ``late`` minutes behind the median."""

    late = forms.IntegerField(
        label=gettext_lazy("Late by more than (minutes)"),
        min_value=1,
        max_value=MAX_LATE_MINUTES,
        required=False,
        widget=forms.NumberInput(attrs={"size": 4}),
    )


class PauseForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason for the pause"),
        max_length=300,
        # the projector's clock says why it stands, to the whole hall
        help_text=gettext_lazy("Shown on the public projector beside the stopped clock."),
    )


def _late_filter(request: HttpRequest) -> tuple[LateForm, int, bool]:
    """The filter's form, its N and whether it is on; a wrong N shows all tables, the error by the field."""
    form = LateForm(request.GET)
    if form.is_valid() and form.cleaned_data["late"] is not None:
        return form, form.cleaned_data["late"], True
    if "late" not in request.GET:
        form = LateForm(initial={"late": selectors.DEFAULT_LATE_MINUTES})
    return form, selectors.DEFAULT_LATE_MINUTES, False


def _series(request: HttpRequest, number: int) -> Series:
    series = selectors.room_series(tournament=request.tournament, number=number)
    if series is None:
        raise Http404
    return series


def _room_context(request: HttpRequest, series: Series, late_minutes: int, only_late: bool) -> dict[str, Any]:
    now = timezone.now()
    room = selectors.series_room(series=series, now=now, late_minutes=late_minutes, only_late=only_late)
    face = clock_face(room.clock, now=now)
    return {
        "tournament": request.tournament,
        "series": series,
        "room": room,
        "clock_time": face.text,
        "clock_ends_ms": face.ends_ms,
        "clock_from_ms": face.counts_from_ms,
        "organiser": is_organiser(request.user, request.tournament),
        "late_query": f"?late={late_minutes}" if only_late else "",
        "heartbeat_seconds": settings.TABLE_HEARTBEAT_SECONDS,
        "silence_seconds": int(heartbeat_silence().total_seconds()),
    }


@referee_required
@require_GET
def room(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(request, number)
    form, late_minutes, only_late = _late_filter(request)
    return _room_page(request, series, form, late_minutes, only_late)


def _room_page(
    request: HttpRequest,
    series: Series,
    late_form: LateForm,
    late_minutes: int,
    only_late: bool,
    pause_form: PauseForm | None = None,
) -> HttpResponse:
    context = _room_context(request, series, late_minutes, only_late)
    context.update(
        late_form=late_form,
        pause_form=pause_form or PauseForm(),
        server_now_ms=int(timezone.now().timestamp() * 1000),
    )
    response = render(request, "hall/room.html", context)
    # a referee's live page: never kept by a browser or a proxy, as its polled fragment
    patch_cache_control(response, private=True, no_cache=True)
    return response


@referee_required
@require_GET
def room_tables(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The polled fragment: 304 when the browser's copy is current, from the one query of ``_series``."""
    series = _series(request, number)
    _form, late_minutes, only_late = _late_filter(request)
    now = timezone.now()
    validator = selectors.room_validator(series=series, now=now)
    organiser = is_organiser(request.user, request.tournament)  # only the organiser's fragment offers to stop tables
    etag = page_etag(validator, late_minutes, only_late, organiser, get_language())
    changed = series.protocols_updated or series.clock_started_at or now
    response = with_validators(request, HttpResponse(), etag=etag, last_modified=int(changed.timestamp()))
    patch_cache_control(response, private=True, no_cache=True)
    if response.status_code == 304:
        return response
    response.content = ready_rooms.get_or_build(
        etag,
        lambda: render_to_string("hall/_room.html", _room_context(request, series, late_minutes, only_late), request),
    )
    return response


def _back(slug: str, number: int) -> HttpResponse:
    return redirect("hall:room", slug, number)


@referee_required
@require_POST
def clock_start(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(request, number)
    started = series.clock_started_at is not None
    try:
        services.series_clock_start(series=series, user=request.user)
        if started:
            messages.info(request, _("The clock was running already; its start is kept."))
        else:
            messages.success(request, _("The series has started; the clock is running."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return _back(slug, number)


@referee_required
@require_POST
def clock_pause(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(request, number)
    form = PauseForm(request.POST)
    if form.is_valid():
        try:
            services.series_clock_pause(series=series, user=request.user, reason=form.cleaned_data["reason"])
            messages.success(request, _("The clock is paused."))
            return _back(slug, number)
        except ValidationError as error:
            form.add_error(None, error)
    late_form, late_minutes, only_late = _late_filter(request)
    return _room_page(request, series, late_form, late_minutes, only_late, pause_form=form)


@referee_required
@require_POST
def clock_resume(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(request, number)
    paused = series.clock_paused_at is not None
    services.series_clock_resume(series=series, user=request.user)
    if paused:
        messages.success(request, _("The clock is running again."))
    else:
        messages.info(request, _("The clock is not paused."))
    return _back(slug, number)


@organiser_required
def time_up(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """GET lists the tables still playing that the end of time would stop; POST stops the tables listed."""
    series = _series(request, number)
    if request.method == "POST":
        tables = [int(t) for t in request.POST.getlist("table") if t.isdigit()]
        try:
            stopped = services.series_time_up_stop(series=series, user=request.user, tables=tables)
            if stopped:
                messages.success(
                    request,
                    _("Stopped by the time limit: tables %(tables)s.") % {"tables": ", ".join(map(str, stopped))},
                )
            else:
                messages.info(request, _("No table was left to stop."))
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        return _back(slug, number)
    room = selectors.series_room(series=series, now=timezone.now(), late_minutes=selectors.DEFAULT_LATE_MINUTES)
    return render(request, "hall/time_up.html", {"tournament": request.tournament, "series": series, "room": room})
