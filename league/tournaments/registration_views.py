"""The organiser's registration list: registering known and new players, the day's ticks, teams, withdrawals.

Every form of the list sends the search the organiser had typed (``q``) along, and every action
comes back to the list with it, so the search results stay on the screen at the door.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_POST

from league.models import Registration
from league.tournaments import registrations, regulars, selectors
from league.tournaments.filters import FILTER_PARAMETERS, RegistrationFilter
from league.tournaments.forms import (
    BulkTickForm,
    FlagAllForm,
    QuickAddForm,
    RegisterForm,
    RegistrationGroupForm,
    RegistrationSearchForm,
    RegistrationTeamForm,
    TeamBuildForm,
    WithdrawForm,
)
from league.tournaments.roles import organiser_required
from league.tournaments.views import show_errors
from players.models import Gender
from players.selectors import players_found


def _search_text(data) -> str:
    """The search text of ``data`` (the page's query or a form's fields); empty when the form refuses it."""
    search = RegistrationSearchForm(data)
    return search.cleaned_data["q"] if search.is_valid() else ""


def _kept_filter(data) -> list[tuple[str, str]]:
    """The filter of the list as ``data`` gives it (the page's query or a form's fields), as pairs of
    parameter and value: what every form of the list sends along to come back to the same rows."""
    return [(name, data[name]) for name in FILTER_PARAMETERS if data.get(name)]


def _back_to_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The registration list again, with the search and the filter the posted form carried."""
    url = reverse("tournaments:registrations", args=[slug])
    query = _search_text(request.POST)
    parameters = ([("q", query)] if query else []) + _kept_filter(request.POST)
    return redirect(f"{url}?{urlencode(parameters)}" if parameters else url)


def _form_refused(request: HttpRequest, form: Form) -> None:
    """A tampered or incomplete form of the list: its messages, without the internal field names."""
    for errors in form.errors.values():
        for message in errors:
            messages.error(request, message)


@organiser_required
def registration_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Registered players with the day's ticks, and the search that registers more."""
    tournament = request.tournament
    search = RegistrationSearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    matches = list(players_found(text=query, marked_in=tournament)) if query else []
    found = [player for player in matches if not player.registered]
    registered_found = [player for player in matches if player.registered]
    results = {
        "tournament": tournament,
        "search": search,
        "found": found,
        "registered_found": registered_found,
        "query": query,
        "kept_filter": _kept_filter(request.GET),
    }
    if request.htmx and request.htmx.target == "search-results":
        return render(request, "league/_search_results.html", results)
    rows = RegistrationFilter(request.GET or None, queryset=selectors.registration_rows(tournament=tournament))
    registered = selectors.registration_list(tournament=tournament, rows=rows.qs if rows.is_valid() else rows.queryset)
    return render(
        request,
        "league/registration_list.html",
        {
            **results,
            "registrations": registered,
            "filter": rows,
            "total": tournament.registrations.count() if rows.active else len(registered),
            "flag_legends": [("checked_in", _("Presence")), ("fee_paid", _("Entry fee"))],
            # every team of the tournament, filtered out or not: each row offers them without a query of its own
            "teams": selectors.tournament_teams(tournament=tournament),
            "build_form": TeamBuildForm(tournament=tournament),
            "withdraw_choices": range(1, tournament.series_count),
            "next_series": selectors.series_next_undrawn(tournament=tournament),
        },
    )


def _registered(request: HttpRequest, registration: Registration) -> None:
    if registration.first_series > 1:
        messages.success(
            request,
            _("%(player)s registered as a late arrival and plays from series %(number)s.")
            % {"player": registration.player, "number": registration.first_series},
        )
    else:
        messages.success(request, _("%(player)s registered.") % {"player": registration.player})


@organiser_required
@require_POST
def register(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    form = RegisterForm(request.POST)
    if form.is_valid():
        try:
            _registered(
                request, registrations.registration_create(tournament=tournament, player=form.cleaned_data["player"])
            )
        except ValidationError as error:
            show_errors(request, error)
    return _back_to_list(request, slug)


@organiser_required
def quick_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    form = QuickAddForm(request.POST or None)
    if form.is_valid():
        try:
            _registered(request, registrations.registration_quick_add(tournament=tournament, **form.player_data()))
            return redirect("tournaments:registrations", slug=slug)
        except ValidationError as error:
            form.add_error(None, error)
    # a probable duplicate already registered is said to be so, instead of offered again
    registered = set(tournament.registrations.filter(player__in=form.duplicates).values_list("player", flat=True))
    return render(request, "league/quick_add.html", {"tournament": tournament, "form": form, "registered": registered})


@organiser_required
@require_POST
def toggle(request: HttpRequest, slug: str, pk: int, flag: registrations.Flag) -> HttpResponse:
    """Tick presence or fee; htmx gets the new button, a plain form goes back to the list."""
    tournament = request.tournament
    registration = get_object_or_404(tournament.registrations, pk=pk)
    registrations.registration_flag_toggle(registration=registration, flag=flag)
    if request.htmx:
        context = {"tournament": tournament, "registration": registration, "flag": flag}
        kept = {"query": _search_text(request.POST), "kept_filter": _kept_filter(request.POST)}
        return render(request, "league/_toggle.html", {**context, **kept})
    return _back_to_list(request, slug)


@organiser_required
@require_POST
def bulk_tick(request: HttpRequest, slug: str) -> HttpResponse:
    """Presence or the fee for every player ticked on the list, with one button."""
    form = BulkTickForm(request.POST, tournament=request.tournament)
    if form.is_valid():
        count = registrations.registration_flags_set(
            tournament=request.tournament,
            registrations=form.cleaned_data["registrations"],
            flag=form.cleaned_data["flag"],
        )
        messages.success(request, _("Ticked: %(count)s.") % {"count": count})
    else:
        _form_refused(request, form)
    return _back_to_list(request, slug)


@organiser_required
@require_POST
def flag_all(request: HttpRequest, slug: str) -> HttpResponse:
    """Tick or untick presence or the fee for every player the list's filter shows, in one transaction."""
    form = FlagAllForm(request.POST)
    rows = RegistrationFilter(request.POST, queryset=request.tournament.registrations.all())
    if form.is_valid() and rows.is_valid():
        count = registrations.registration_flags_set(
            tournament=request.tournament,
            registrations=rows.qs,
            flag=form.cleaned_data["flag"],
            value=form.cleaned_data["value"],
        )
        if form.cleaned_data["value"]:
            messages.success(request, _("Ticked: %(count)s.") % {"count": count})
        else:
            messages.success(request, _("Unticked: %(count)s.") % {"count": count})
    else:
        _form_refused(request, form)
        _form_refused(request, rows.form)
    return _back_to_list(request, slug)


@organiser_required
def add_many(request: HttpRequest, slug: str) -> HttpResponse:
    """Add many (*dodaj wielu*): choose a whole team, club or earlier tournament, see the preview, and
    confirm it (``league.tournaments.regulars``). The preview is a GET and saves nothing."""
    tournament = request.tournament
    if request.method == "POST":
        try:
            entries = regulars.entries_unsigned(tournament_pk=tournament.pk, token=request.POST.get("entries", ""))
            added = registrations.registration_group_create(tournament=tournament, entries=entries)
        except ValidationError as error:
            show_errors(request, error)
            return redirect("tournaments:add_many", slug=slug)
        if added:
            messages.success(
                request,
                ngettext("%(count)s player registered.", "%(count)s players registered.", len(added))
                % {"count": len(added)},
            )
        else:
            messages.info(request, _("Nobody new to register: they are all registered already."))
        return redirect("tournaments:registrations", slug=slug)
    form = RegistrationGroupForm(request.GET or None, tournament=tournament, user=request.user)
    preview = None
    if form.is_valid():
        candidates = selectors.registration_group_candidates(**form.cleaned_data)
        preview = selectors.registration_group_preview(tournament=tournament, candidates=candidates)
    return render(request, "league/add_many.html", {"tournament": tournament, "form": form, "preview": preview})


def withdrawal_said(registration: Registration) -> str:
    """What the organiser reads after recording a withdrawal (or taking it back), the Polish verb
    agreeing with the player's gender ("Anna Nowak wycofała się", "Jan Nowak wycofał się")."""
    player, number = registration.player, registration.withdrawn_after_series
    woman = player.gender == Gender.WOMAN
    if number is None:
        said = pgettext("woman", "%(player)s plays on.") if woman else pgettext("man", "%(player)s plays on.")
    elif woman:
        said = pgettext("woman", "%(player)s withdrew after series %(number)s.")
    else:
        said = pgettext("man", "%(player)s withdrew after series %(number)s.")
    return said % {"player": player.full_name, "number": number}


@organiser_required
@require_POST
def withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = request.tournament
    registration = get_object_or_404(tournament.registrations.select_related("player"), pk=pk)
    form = WithdrawForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            to_redraw = registrations.registration_withdraw(
                registration=registration, number=form.cleaned_data["after_series"]
            )
        except ValidationError as error:
            show_errors(request, error)
        else:
            messages.success(request, withdrawal_said(registration))
            if to_redraw:
                messages.warning(
                    request,
                    _("%(player)s is still seated in series %(numbers)s; draw them again.")
                    % {"player": registration.player, "numbers": ", ".join(map(str, to_redraw))},
                )
    return _back_to_list(request, slug)


@organiser_required
@require_POST
def unregister(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Remove a mistaken registration, as long as the player is in no series drawn; only once the
    organiser has said yes to the question the button opens ("confirmed")."""
    registration = get_object_or_404(request.tournament.registrations.select_related("player"), pk=pk)
    if request.POST.get("confirmed") != "1":
        messages.error(request, _("Nothing was removed: confirm the removal of the registration."))
        return _back_to_list(request, slug)
    try:
        registrations.registration_delete(registration=registration)
    except ValidationError as error:
        show_errors(request, error)
    else:
        messages.success(request, _("%(player)s is no longer registered.") % {"player": registration.player})
    return _back_to_list(request, slug)


@organiser_required
@require_POST
def change_team(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Move a registered player into another team of the tournament, or make them an individual."""
    tournament = request.tournament
    registration = get_object_or_404(tournament.registrations.select_related("player"), pk=pk)
    form = RegistrationTeamForm(request.POST, tournament=tournament)
    if not form.is_valid():
        _form_refused(request, form)
        return _back_to_list(request, slug)
    team = form.cleaned_data["team"]
    try:
        shared = registrations.registration_team_change(registration=registration, team=team)
    except ValidationError as error:
        show_errors(request, error)
        return _back_to_list(request, slug)
    if team is None:
        messages.success(request, _("%(player)s now plays as an individual.") % {"player": registration.player})
    else:
        messages.success(
            request, _("%(player)s now plays for %(team)s.") % {"player": registration.player, "team": team}
        )
    if shared:
        messages.warning(
            request,
            _("%(player)s already sat at a table with a member of %(team)s in series %(numbers)s.")
            % {"player": registration.player, "team": team, "numbers": ", ".join(map(str, shared))},
        )
    return _back_to_list(request, slug)


@organiser_required
@require_POST
def build_team(request: HttpRequest, slug: str) -> HttpResponse:
    """A new team of the individuals ticked on the list; they play for it in this tournament."""
    form = TeamBuildForm(request.POST, tournament=request.tournament)
    if not form.is_valid():
        _form_refused(request, form)
        return _back_to_list(request, slug)
    try:
        team = registrations.registration_team_build(
            tournament=request.tournament, user=request.user, **form.cleaned_data
        )
    except ValidationError as error:
        show_errors(request, error)
    else:
        messages.success(
            request,
            _("Team %(team)s built: %(players)s.")
            % {"team": team, "players": ", ".join(str(r.player) for r in form.cleaned_data["registrations"])},
        )
    return _back_to_list(request, slug)
