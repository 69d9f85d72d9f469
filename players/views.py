"""Organiser screens for clubs, players and teams.

The Organisers group holds ``players.add_player`` and ``players.change_player``;
the first opens every screen here, the second is needed to edit, and then only
the players and teams that ``players.services`` lets the user change: the others
answer 403 with the reason.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from . import importing, selectors, services
from .filters import PlayerFilter
from .forms import ClubForm, DeleteForm, ImportForm, MergeForm, PlayerForm, PlayerSearchForm, TeamForm
from .models import Club, Player, Team
from .names import player_key
from .tables import ClubTable, PlayerTable, TeamTable

# The id of the user's PendingImport; named anew when it stopped holding the rows themselves.
IMPORT_SESSION_KEY = "players_pending_import"


def login_and_permission_required(permission: str) -> Callable:
    """Anonymous visitors go to the login page; users without ``permission`` get 403.

    Django's ``permission_required(raise_exception=True)`` alone would refuse
    the anonymous visitor too instead of offering the login page.
    """

    def decorator(view: Callable) -> Callable:
        return login_required(permission_required(permission, raise_exception=True)(view))

    return decorator


def _refused(request: HttpRequest, refusal: PermissionDenied, *, back: str) -> HttpResponse:
    """403 with the service's reason, in the site's frame, and the way back to the list ``back``."""
    return render(request, "players/refused.html", {"reason": str(refusal), "back": back}, status=403)


def _table_page(request: HttpRequest, table, template: str, **context) -> HttpResponse:
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, template, {"table": table, **context})


@login_and_permission_required("players.add_player")
def player_list(request: HttpRequest) -> HttpResponse:
    filterset = PlayerFilter(request.GET, queryset=Player.objects.select_related("club"))
    players = filterset.qs
    if not request.GET.get("sort"):  # by name in Polish order, which the database does not know
        players = sorted(players, key=lambda player: (player_key(player), player.pk))
    return _table_page(request, PlayerTable(players), "players/player_list.html", filter=filterset)


@login_and_permission_required("players.add_player")
def player_add(request: HttpRequest) -> HttpResponse:
    return _player_form(request, Player())


@login_and_permission_required("players.change_player")
def player_edit(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    try:
        services.player_check_editable(player=player, user=request.user)
    except PermissionDenied as refusal:
        return _refused(request, refusal, back="players:player_list")
    return _player_form(request, player)


def _player_form(request: HttpRequest, player: Player) -> HttpResponse:
    form = PlayerForm(request.POST or None, instance=player)
    if form.is_valid():
        if player.pk:
            services.player_update(player=player, user=request.user, **form.player_data())
        else:
            player = services.player_create(**form.player_data(), created_by=request.user)
        messages.success(request, _("Saved %(player)s.") % {"player": player})
        return redirect("players:player_list")
    title = _("Edit player") if player.pk else _("Add player")
    return render(request, "players/form.html", {"form": form, "title": title, "player": player})


def _editable_or_refused(request: HttpRequest, pk: int) -> Player | HttpResponse:
    """The player ``pk`` if the user may change them, else the 403 page saying why."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    try:
        services.player_check_editable(player=player, user=request.user)
    except PermissionDenied as refusal:
        return _refused(request, refusal, back="players:player_list")
    return player


@login_and_permission_required("players.change_player")
def player_merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge another entry of the same person into this player: search for it (``q``), see what
    would move (``inny``, the other's number) and confirm with a reason (POST)."""
    kept = _editable_or_refused(request, pk)
    if isinstance(kept, HttpResponse):
        return kept
    form = MergeForm(request.POST or None, initial={"other": request.GET.get("inny")})
    if form.is_valid():
        try:
            services.player_merge(
                kept=kept, merged=form.cleaned_data["other"], user=request.user, reason=form.cleaned_data["reason"]
            )
        except PermissionDenied as refusal:
            return _refused(request, refusal, back="players:player_list")
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request, _("%(merged)s merged into %(kept)s.") % {"merged": form.cleaned_data["other"], "kept": kept}
            )
            return redirect("players:player_edit", pk=kept.pk)
    search = PlayerSearchForm(request.GET)
    text = search.cleaned_data["q"] if search.is_valid() else ""
    found = (
        [player for player in selectors.players_found(text=text, inactive_too=True) if player.pk != kept.pk]
        if text
        else []
    )
    other = form["other"].value()
    other = Player.objects.filter(pk=other).select_related("club").first() if str(other or "").isdigit() else None
    preview = selectors.player_merge_preview(kept=kept, merged=other) if other else None
    if other is not None:
        try:
            services.player_check_editable(player=other, user=request.user)
        except PermissionDenied as refusal:
            preview.conflicts.append(str(refusal))
    return render(
        request,
        "players/merge.html",
        {"player": kept, "search": search, "query": text, "found": found, "preview": preview, "form": form},
    )


@login_and_permission_required("players.change_player")
def player_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a player entered by mistake, after a confirmation; refused with the reason while a
    registration, seat, bye, penalty or team names them."""
    player = _editable_or_refused(request, pk)
    if isinstance(player, HttpResponse):
        return player
    form = DeleteForm(request.POST or None)
    if form.is_valid():
        try:
            services.player_delete(player=player, user=request.user, reason=form.cleaned_data["reason"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Deleted %(player)s.") % {"player": player})
            return redirect("players:player_list")
    held = [reference for reference in selectors.player_reference_counts(player=player) if reference.keeps_player]
    return render(request, "players/delete.html", {"player": player, "form": form, "held": held})


@require_GET
@login_and_permission_required("players.add_player")
def player_search(request: HttpRequest) -> HttpResponse:
    """Type-ahead for picking team members: an htmx fragment of member rows,
    or JSON for other callers. A query the form refuses (a NUL, an endless text)
    finds nobody and says why: in the list for htmx, with 400 for JSON."""
    form = PlayerSearchForm(request.GET)
    if not form.is_valid():
        error = " ".join(form.errors["q"])
        if request.htmx:
            return render(request, "players/_search_results.html", {"players": [], "error": error})
        return JsonResponse({"results": [], "error": error}, status=400)
    text = form.cleaned_data["q"]
    players = selectors.players_found(text=text) if text else []
    if request.htmx:
        return render(request, "players/_search_results.html", {"players": players, "q": text})
    return JsonResponse(
        {
            "results": [
                {
                    "id": p.pk,
                    "name": p.full_name,
                    "club": p.club.name if p.club else "",
                    "licence": p.licence,
                    "team": p.team_name or "",
                }
                for p in players
            ]
        }
    )


@login_and_permission_required("players.add_player")
def team_list(request: HttpRequest) -> HttpResponse:
    teams = Team.objects.select_related("club", "captain").annotate(member_count=Count("members"))
    return _table_page(request, TeamTable(teams), "players/team_list.html")


@login_and_permission_required("players.add_player")
def team_add(request: HttpRequest) -> HttpResponse:
    return _team_form(request, Team())


@login_and_permission_required("players.change_player")
def team_edit(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(Team, pk=pk)
    try:
        services.team_check_editable(team=team, user=request.user)
    except PermissionDenied as refusal:
        return _refused(request, refusal, back="players:team_list")
    return _team_form(request, team)


def _team_form(request: HttpRequest, team: Team) -> HttpResponse:
    form = TeamForm(request.POST or None, instance=team)
    if form.is_valid():
        try:
            if team.pk:
                services.team_update(team=team, user=request.user, **form.cleaned_data)
            else:
                team = services.team_create(**form.cleaned_data, created_by=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Saved team %(team)s.") % {"team": team})
            return redirect("players:team_list")
    title = _("Edit team") if team.pk else _("Add team")
    return render(request, "players/team_form.html", {"form": form, "title": title})


@login_and_permission_required("players.add_player")
def club_list(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.annotate(player_count=Count("players"))
    return _table_page(request, ClubTable(clubs), "players/club_list.html")


@login_and_permission_required("players.add_player")
def club_add(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if form.is_valid():
        club = services.club_create(**form.cleaned_data)
        messages.success(request, _("Saved %(club)s.") % {"club": club})
        return redirect("players:club_list")
    return render(request, "players/form.html", {"form": form, "title": _("Add club")})


@login_and_permission_required("players.add_player")
def import_upload(request: HttpRequest) -> HttpResponse:
    """Step 1: read the file and build its preview. A preview with errors is shown at once
    and kept nowhere; one that can be confirmed waits for step 2 as a ``PendingImport``
    (at most ``MAX_ROWS`` rows, every cell within its field of the register), of which
    the session keeps only the id."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if form.is_valid():
        request.session.pop(IMPORT_SESSION_KEY, None)
        upload = form.cleaned_data["file"]
        update_existing = form.cleaned_data["update_existing"]
        try:
            rows = importing.read_rows(upload, upload.name)
        except importing.ImportFileError as error:
            form.add_error("file", str(error))
        else:
            preview = importing.build_preview(rows, user=request.user, update_existing=update_existing)
            if not (preview.can_confirm or preview.can_import_rest):
                return _preview_page(request, preview, upload.name)
            pending = importing.pending_import_create(
                user=request.user, filename=upload.name, rows=rows, update_existing=update_existing
            )
            request.session[IMPORT_SESSION_KEY] = pending.pk
            return redirect("players:import_preview")
    return render(request, "players/import_upload.html", {"form": form})


@login_and_permission_required("players.add_player")
def import_preview(request: HttpRequest) -> HttpResponse:
    """Step 2: show what the import would do; POST confirms it. The preview is
    rebuilt on confirm because players may have changed in the meantime."""
    pending = importing.pending_import_get(pk=request.session.get(IMPORT_SESSION_KEY), user=request.user)
    if pending is None:
        return redirect("players:import_upload")
    rows = importing.pending_import_rows(pending=pending)
    preview = importing.build_preview(
        rows, user=request.user, update_existing=pending.update_existing, choices=_duplicate_choices(request)
    )
    skip_errors = request.POST.get("skip_errors") == "on"
    if request.method == "POST" and (preview.can_confirm or (skip_errors and preview.can_import_rest)):
        try:
            result = importing.player_import(preview=preview, user=request.user, skip_errors=skip_errors)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        except PermissionDenied as refusal:  # somebody registered one of the players meanwhile
            messages.error(request, str(refusal))
        else:
            importing.pending_import_delete(pending=pending)
            del request.session[IMPORT_SESSION_KEY]
            messages.success(request, import_summary(result))
            return redirect("players:player_list")
    return _preview_page(request, preview, pending.filename)


def import_summary(result: importing.ImportResult) -> str:
    """What the organiser reads after an import: players added and updated, clubs and teams
    created, rows with errors skipped."""
    actions = result.actions
    parts = [
        _("%(created)d added, %(updated)d updated")
        % {"created": actions.get(importing.Action.CREATE, 0), "updated": actions.get(importing.Action.UPDATE, 0)}
    ]
    if result.clubs:
        parts.append(ngettext("%(count)d new club", "%(count)d new clubs", result.clubs) % {"count": result.clubs})
    if result.teams:
        parts.append(ngettext("%(count)d new team", "%(count)d new teams", result.teams) % {"count": result.teams})
    if result.skipped:
        parts.append(
            ngettext("%(count)d row with errors skipped", "%(count)d rows with errors skipped", result.skipped)
            % {"count": result.skipped}
        )
    return _("Import finished: %(summary)s.") % {"summary": ", ".join(parts)}


def _duplicate_choices(request: HttpRequest) -> dict[int, int | None]:
    """The preview's choices for rows with probable duplicates: ``duplicate-<row>`` is a candidate's
    number, or "new" for a different person (``importing.build_preview``); anything else is no choice."""
    choices: dict[int, int | None] = {}
    for name, value in request.POST.items():
        row = name.removeprefix("duplicate-")
        if row != name and row.isdigit() and (value == "new" or value.isdigit()):
            choices[int(row)] = None if value == "new" else int(value)
    return choices


def _preview_page(request: HttpRequest, preview: importing.Preview, filename: str) -> HttpResponse:
    return render(request, "players/import_preview.html", {"preview": preview, "filename": filename})
