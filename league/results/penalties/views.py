"""The referee's screens of penalties (kary sędziowskie): the block on the series and protocol
pages (``penalty_forms.penalty_block``), adding a penalty, changing it and removing it, each with a reason.

Referees and organisers only (``referee_required``). Every write goes through
``league.results.penalties.services``; a refused form is shown again on a page of its own
with the errors next to the fields, and a done change goes back to the page the
form was on (``next``, if it is ours: ``league.results.referee.views.back_to``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.models import Series
from league.results.models import Penalty, PenaltyVersion
from league.results.penalties import services as penalties
from league.results.penalties.forms import PenaltyChangeForm, PenaltyRemoveForm, add_form, big_points_allowed
from league.results.referee import views
from league.tournaments.roles import referee_required


def _page_of(series: Series, table: int | None) -> str:
    """The page the block is on: the table's protocol, or the series' results."""
    slug = series.tournament.slug
    if table is None:
        return reverse("results:series", args=[slug, series.number])
    return reverse("results:protocol", args=[slug, series.number, table])


def _form_page(request: HttpRequest, series: Series, **context: Any) -> HttpResponse:
    return render(
        request,
        "results/penalty.html",
        {"tournament": request.tournament, "series": series, "next": request.POST.get("next", ""), **context},
    )


@referee_required
@require_POST
def penalty_add(request: HttpRequest, slug: str, number: int, table: int | None = None) -> HttpResponse:
    """A new penalty of a player of the series (of the table, from a protocol page)."""
    series = views.series_of(request, number)
    form = add_form(series, table, request.POST)
    if form.is_valid():
        try:
            penalties.penalty_add(series=series, player=form.cleaned_data["player"], **form.values(), user=request.user)
            messages.success(request, _("The penalty is saved; the standings count it."))
            return views.back_to(request, _page_of(series, table))
        except ValidationError as error:
            form.add_error(None, error)
    return _form_page(request, series, form=form, table=table)


def _penalties_of(request: HttpRequest, number: int) -> Any:
    return Penalty.objects.select_related("series", "player").filter(
        series__tournament=request.tournament, series__number=number
    )


def _change_form(penalty: Penalty, data: Any = None) -> PenaltyChangeForm:
    """The form changing ``penalty``; with big points also where the rules no longer allow them,
    so such a penalty can be set to 0 big points."""
    initial = {"small_points": penalty.small_points, "big_points": penalty.big_points, "reason": penalty.reason}
    big_points = big_points_allowed(penalty.series) or bool(penalty.big_points)
    return PenaltyChangeForm(data, initial=initial, big_points=big_points)


@referee_required
def penalty_edit(request: HttpRequest, slug: str, number: int, pk: int) -> HttpResponse:
    """GET: the penalty with the forms to change it and to remove it; POST: the change."""
    penalty = get_object_or_404(_penalties_of(request, number), pk=pk)
    penalty.series.tournament = request.tournament
    form = _change_form(penalty, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            penalties.penalty_change(
                penalty=penalty,
                **form.values(),
                change_reason=form.cleaned_data["change_reason"],
                user=request.user,
            )
            messages.success(request, _("The penalty is changed."))
            return views.back_to(request, _page_of(penalty.series, None))
        except ValidationError as error:
            form.add_error(None, error)
    return _form_page(
        request,
        penalty.series,
        penalty=penalty,
        form=form,
        remove_form=PenaltyRemoveForm(),
        next=request.POST.get("next") or request.GET.get("next", ""),
    )


@referee_required
@require_POST
def penalty_remove(request: HttpRequest, slug: str, number: int, pk: int) -> HttpResponse:
    """Take a penalty back, with the reason; the same POST again finds it gone and says so."""
    penalty = _penalties_of(request, number).filter(pk=pk).first()
    if penalty is None:
        removed = (
            PenaltyVersion.objects.filter(
                series__tournament=request.tournament,
                series__number=number,
                penalty_key=pk,
                action=PenaltyVersion.Action.DELETE,
            )
            .select_related("series")
            .first()
        )
        if removed is None:
            raise Http404
        messages.info(request, _("The penalty was removed already."))
        return views.back_to(request, _page_of(removed.series, None))
    penalty.series.tournament = request.tournament
    form = PenaltyRemoveForm(request.POST)
    if form.is_valid():
        try:
            penalties.penalty_remove(
                penalty=penalty, change_reason=form.cleaned_data["change_reason"], user=request.user
            )
            messages.success(request, _("The penalty is removed; the standings no longer count it."))
            return views.back_to(request, _page_of(penalty.series, None))
        except ValidationError as error:
            form.add_error(None, error)
    return _form_page(request, penalty.series, penalty=penalty, form=_change_form(penalty), remove_form=form)
