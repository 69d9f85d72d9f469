"""The exchange file on the organiser's screens: the tournament's file downloaded from its screen,
and a file uploaded ("Wczytaj turniej z pliku"), previewed and confirmed.

The upload is read once, within the site's upload limit, and kept as a ``PendingExchangeImport``
of which the session holds only the id; the preview is built again from it on every request,
and the organiser's choices for probable duplicates are checked against it on confirming.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from league.leagues.selectors import leagues_organised
from league.models import League
from league.tournaments.roles import organiser_required

from . import selectors, services
from .exporting import exchange_file_text
from .format import ExchangeError
from .forms import ExchangeUploadForm
from .parsing import parse_exchange_file
from .preview import DUPLICATE, ExchangePreview, exchange_preview

SESSION_KEY = "exchange_pending_import"
LEAGUE_KEY = "exchange_pending_league"  # the league a new tournament joins, chosen with the upload
UPLOAD_PERMISSION = "league.add_tournament"


def _attachment(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text.encode("utf-8"), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    return response


@require_GET
@organiser_required
def download(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's exchange file, the same bytes as ``manage.py export_tournament``."""
    return _attachment(exchange_file_text(request.tournament), f"{request.tournament.slug}.json")


@require_GET
@organiser_required
def version_download(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """An earlier version of the tournament, as the file that brings it back when uploaded."""
    version = get_object_or_404(request.tournament.file_versions, pk=pk)
    stamp = version.created.strftime("%Y%m%d-%H%M%S")
    return _attachment(selectors.version_file_text(version=version), f"{request.tournament.slug}-{stamp}.json")


def _unreadable(error: ExchangeError) -> str:
    """Why a file could not be read at all, in the organiser's words."""
    reasons = {
        "too_large": _("The file is larger than the site accepts; an exchange file of a tournament takes far less."),
        "not_utf8": _("This is not a text file in UTF-8: an exchange file is the JSON the app writes."),
        "not_json": _("This is not an exchange file: its text is not JSON."),
        "too_deep": _("This is not an exchange file: it nests far deeper than one."),
    }
    return reasons.get(error.code, _("This file cannot be read as an exchange file."))


@login_required
@permission_required(UPLOAD_PERMISSION, raise_exception=True)
def upload(request: HttpRequest) -> HttpResponse:
    """Step 1: read the file within the limit and preview it. A file with an error is previewed at
    once and kept nowhere; one that can be imported waits for step 2 as a ``PendingExchangeImport``."""
    form = ExchangeUploadForm(
        request.POST or None,
        request.FILES or None,
        user=request.user,
        initial={"league": League.objects.filter(slug=request.GET.get("liga", "")).first()},
    )
    if form.is_valid():
        request.session.pop(SESSION_KEY, None)
        league = form.cleaned_data["league"]
        request.session[LEAGUE_KEY] = league.pk if league else None
        upload = form.cleaned_data["file"]
        try:
            data = parse_exchange_file(upload, max_bytes=settings.BASKA_UPLOAD_MAX_BYTES)
        except ExchangeError as error:
            form.add_error("file", _unreadable(error))
        else:
            preview = exchange_preview(data=data, user=request.user)
            if not preview.can_confirm:
                return _preview_page(request, preview, upload.name)
            pending = services.pending_exchange_create(user=request.user, filename=upload.name, data=data)
            request.session[SESSION_KEY] = pending.pk
            return redirect("exchange:preview")
    return render(request, "exchange/upload.html", {"form": form})


@login_required
@permission_required(UPLOAD_PERMISSION, raise_exception=True)
def preview(request: HttpRequest) -> HttpResponse:
    """Step 2: what the file brings, with a choice for each probable duplicate; POST imports it
    all or nothing, as chosen."""
    pending = selectors.pending_exchange_get(pk=request.session.get(SESSION_KEY), user=request.user)
    if pending is None:
        return redirect("exchange:upload")
    shown = exchange_preview(data=pending.data, user=request.user)
    # read again from the leagues the user organises now: the session keeps only its number
    league = leagues_organised(user=request.user).filter(pk=request.session.get(LEAGUE_KEY)).first()
    if request.method != "POST":
        return _preview_page(request, shown, pending.filename, league)
    choices = _chosen(request, shown)
    try:
        imported = services.pending_exchange_confirm(pending=pending, user=request.user, players=choices, league=league)
    except ExchangeError as error:  # the register changed since the preview: show it again
        messages.error(request, _("The file cannot be imported now: %(error)s") % {"error": error})
        return _preview_page(
            request, exchange_preview(data=pending.data, user=request.user, choices=choices), pending.filename, league
        )
    except PermissionDenied as refusal:
        messages.error(request, str(refusal))
        return _preview_page(request, shown, pending.filename, league)
    request.session.pop(SESSION_KEY, None)
    request.session.pop(LEAGUE_KEY, None)
    if imported is None:  # confirmed by an earlier click
        return redirect("tournaments:list")
    tournament, written = imported
    if not written:
        messages.info(request, _("Nothing changes: the file is the tournament as it is here."))
    elif shown.replaces is not None:
        messages.success(request, _("The tournament has been replaced by the file; its earlier version is kept."))
    else:
        messages.success(request, _("The tournament has been imported as a draft: check it and publish it."))
    return redirect(tournament)


def _chosen(request: HttpRequest, shown: ExchangePreview) -> dict[str, int]:
    """The stored player chosen for each probable duplicate: only one of its candidates counts,
    anything else posted (or nothing) adds a new player."""
    choices = {}
    for line in shown.players:
        if line.state != DUPLICATE:
            continue
        posted = request.POST.get(f"player-{line.ref}")
        candidate = next((c for c in line.candidates if str(c.pk) == posted), None)
        if candidate is not None:
            choices[line.ref] = candidate.pk
    return choices


def _preview_page(
    request: HttpRequest, shown: ExchangePreview, filename: str, league: League | None = None
) -> HttpResponse:
    return render(request, "exchange/preview.html", {"preview": shown, "filename": filename, "league": league})
