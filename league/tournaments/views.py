"""The organiser's tournament screens: the list, creating one, its programme and publication,
its settings and staff, the archive and deleting one.

Only the tournament's organisers (and superusers) may open them; every change
goes through the services (``services``, ``registrations``, ``draws``), every
read through ``selectors``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.exchange.selectors import tournament_file_versions
from league.models import StaffInvitation
from league.tournaments import selectors, services
from league.tournaments.forms import (
    StaffForm,
    TournamentForm,
    UserSearchForm,
)
from league.tournaments.roles import organiser_required


def posted_number(value: str | None) -> int | None:
    """A series number from a button's posted value; None when a tampered form sent something else."""
    try:
        return int(value) if value else None
    except ValueError:
        return None


def show_errors(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    """The tournaments the user organises or referees, newest first; the archived ones apart."""
    rows = selectors.tournament_list(user=request.user)
    context = {
        "invitations": selectors.staff_invitations(user=request.user),
        "rows": [row for row in rows if not row[0].archived],
        "archived_rows": [row for row in rows if row[0].archived],
    }
    return render(request, "league/tournament_list.html", context)


@login_required
@permission_required("league.add_tournament", raise_exception=True)
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None, request.FILES or None, user=request.user)
    if form.is_valid():
        tournament = services.tournament_create(user=request.user, **form.cleaned_data)
        messages.success(request, _("The tournament has been created."))
        return redirect(tournament)
    return render(request, "league/tournament_form.html", {"form": form})


@organiser_required
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    return render(
        request,
        "league/tournament_detail.html",
        {
            "tournament": tournament,
            "series_list": tournament.series.order_by("number"),
            "summary": selectors.tournament_summary(tournament=tournament),
            "staff": selectors.tournament_staff(tournament=tournament),
            "deletable": selectors.series_last_drawn(tournament=tournament) is None,
            "file_versions": tournament_file_versions(tournament=tournament),
        },
    )


@organiser_required
def tournament_update(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's settings; the rules stay as they are once deals are played, the game
    and the players at a table once a series is drawn."""
    tournament = request.tournament
    form = TournamentForm(
        request.POST or None,
        request.FILES or None,
        instance=tournament,
        user=request.user,
        rules_fixed=selectors.tournament_played(tournament=tournament),
        tables_fixed=selectors.series_last_drawn(tournament=tournament) is not None,
    )
    if form.is_valid():
        try:
            services.tournament_update(tournament=tournament, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The settings have been saved."))
            return redirect(tournament)
    return render(request, "league/tournament_form.html", {"form": form, "tournament": tournament})


@organiser_required
def tournament_delete(request: HttpRequest, slug: str) -> HttpResponse:
    """Asks first (GET), deletes on the confirming POST; refused once tables are drawn."""
    tournament = request.tournament
    if request.method == "POST":
        try:
            services.tournament_delete(tournament=tournament)
        except ValidationError as error:
            show_errors(request, error)
            return redirect(tournament)
        messages.success(request, _("The tournament %(name)s has been deleted.") % {"name": tournament.name})
        return redirect("tournaments:list")
    context = {
        "tournament": tournament,
        "summary": selectors.tournament_summary(tournament=tournament),
        "deletable": selectors.series_last_drawn(tournament=tournament) is None,
    }
    return render(request, "league/tournament_delete.html", context)


@organiser_required
@require_POST
def tournament_publish(request: HttpRequest, slug: str) -> HttpResponse:
    """A draft goes public: on the home page, its public pages open for everyone."""
    services.tournament_publish(tournament=request.tournament)
    messages.success(request, _("The tournament is public now."))
    return redirect("tournaments:detail", slug=slug)


@organiser_required
@require_POST
def tournament_archive(request: HttpRequest, slug: str) -> HttpResponse:
    """Into the archive or back out of it."""
    if services.tournament_archive_toggle(tournament=request.tournament):
        messages.success(request, _("The tournament has been archived; its results stay readable."))
    else:
        messages.success(request, _("The tournament is back among the active ones."))
    return redirect("tournaments:detail", slug=slug)


@organiser_required
def staff(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's organisers and referees, and a search for accounts to add."""
    tournament = request.tournament
    search = UserSearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    people = selectors.tournament_staff(tournament=tournament)
    context = {
        "tournament": tournament,
        "staff_rows": [(choice, getattr(people, choice[0])) for choice in StaffForm.base_fields["role"].choices],
        "invited": selectors.tournament_invitations(tournament=tournament),
        "search": search,
        "query": query,
        "found": selectors.user_search(query=query) if query else [],
        "roles": [("organisers", _("Add as co-organiser")), ("referees", _("Add as referee"))],
    }
    return render(request, "league/tournament_staff.html", context)


@organiser_required
@require_POST
def staff_change(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """Add an account to the staff, or remove one (``action`` is "add" or "remove")."""
    tournament = request.tournament
    form = StaffForm(request.POST)
    back = redirect(f"{reverse('tournaments:staff', args=[slug])}?{urlencode({'q': request.POST.get('q', '')})}")
    if not form.is_valid():
        messages.error(request, _("Choose a user from the list."))
        return back
    user, role = form.cleaned_data["user"], form.cleaned_data["role"]
    name = user.get_full_name() or user.get_username()
    if action == "add":
        services.tournament_staff_invite(tournament=tournament, role=role, user=user, invited_by=request.user)
        messages.success(request, _("%(name)s has been invited and joins once they accept.") % {"name": name})
        return back
    try:
        services.tournament_staff_remove(tournament=tournament, role=role, user=user)
    except ValidationError as error:
        show_errors(request, error)
        return back
    messages.success(request, _("%(name)s has been removed.") % {"name": name})
    if user == request.user and role == "organisers" and not request.user.is_superuser:
        return redirect("tournaments:list")
    return back


@login_required
@require_POST
def invitation_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """The invited person's answer to an invitation to a tournament's staff: accept or decline."""
    accept = request.POST.get("answer") == "accept"
    try:
        invitation = services.staff_invitation_answer(invitation_id=pk, user=request.user, accept=accept)
    except StaffInvitation.DoesNotExist:
        messages.error(request, _("This invitation has been answered or withdrawn already."))
        return redirect("tournaments:list")
    if accept:
        messages.success(request, _("You have joined %(tournament)s.") % {"tournament": invitation.tournament.name})
        return redirect(selectors.staff_landing(tournament=invitation.tournament, user=request.user))
    messages.success(request, _("Invitation declined."))
    return redirect("tournaments:list")


@organiser_required
@require_POST
def publish(request: HttpRequest, slug: str) -> HttpResponse:
    """Switch what the public pages show: the draw, or one series' results."""
    tournament = request.tournament
    number = request.POST.get("series")
    if number:
        series = get_object_or_404(tournament.series, number=posted_number(number))
        services.series_results_publication_toggle(series=series)
    else:
        services.tournament_draw_publication_toggle(tournament=tournament)
        if request.POST.get("next") == "draw":  # the draw page's next step
            return redirect("tournaments:draw", slug=slug)
    return redirect("tournaments:detail", slug=slug)
