"""Pages of players' data (RODO): the privacy notices (public; edited by the league's organisers,
the installation's by a superuser), and on a player of the register the anonymisation and the
copy of their data (JSON and PDF), for whoever may change the player (docs/register.md)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from league.models import League
from league.printing.documents import font_faces, page_counter_css, render_pdf
from league.privacy import selectors, services
from league.privacy.forms import AnonymiseForm, NoticeForm
from league.privacy.models import Anonymisation
from players.models import Player
from players.services import player_check_editable
from players.views import login_and_permission_required


def _league(slug: str | None) -> League | None:
    return get_object_or_404(League, slug=slug) if slug else None


def notice_page(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """The privacy notice of a league, or of the installation (which lists the leagues' own)."""
    league = _league(slug)
    version, text = selectors.notice_shown(league=league)
    latest = selectors.notice_latest(league=league)
    return render(
        request,
        "privacy/notice.html",
        {
            "league": league,
            "version": version,
            "since": latest.created if latest else None,
            "notice": text,
            "body": text.text_en if get_language() == "en" else text.text_pl,
            "leagues": League.objects.order_by("name") if league is None else [],
            "may_edit": _may_edit(request, league),
        },
    )


def _may_edit(request: HttpRequest, league: League | None) -> bool:
    try:
        services.notice_check_editable(league=league, user=request.user)
    except PermissionDenied:
        return False
    return True


@login_required
def notice_edit(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """A new version of the notice, from the one shown now (the default text the first time)."""
    league = _league(slug)
    services.notice_check_editable(league=league, user=request.user)
    _version, shown = selectors.notice_shown(league=league)
    initial = {
        "controller": shown.controller,
        "contact": shown.contact,
        "text_pl": shown.text_pl,
        "text_en": shown.text_en,
    }
    form = NoticeForm(request.POST or None, initial=initial)
    if form.is_valid():
        try:
            notice = services.notice_save(
                league=league, text=form.notice_text(), user=request.user, reason=form.cleaned_data["reason"]
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request, _("The privacy notice is saved as version %(version)d.") % {"version": notice.version}
            )
            return redirect("privacy:league_notice", league.slug) if league else redirect("privacy:notice")
    return render(
        request,
        "privacy/notice_edit.html",
        {"league": league, "form": form, "versions": selectors.notice_versions(league=league)},
    )


def _editable_player(request: HttpRequest, pk: int) -> Player:
    """The player ``pk`` if the user may change them; otherwise 403 with the register's reason."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    player_check_editable(player=player, user=request.user)
    return player


@login_and_permission_required("players.change_player")
def player_anonymise(request: HttpRequest, pk: int) -> HttpResponse:
    """Anonimizuj: after a reason and a confirmation, the player becomes "Zawodnik #<number>"."""
    player = _editable_player(request, pk)
    done = Anonymisation.objects.filter(player=player).select_related("user").first()
    form = AnonymiseForm(request.POST or None)
    if done is None and form.is_valid():
        try:
            services.player_anonymise(player=player, user=request.user, reason=form.cleaned_data["reason"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request, _("The player is anonymised: every page now names them %(name)s.") % {"name": player}
            )
            return redirect("players:player_edit", player.pk)
    return render(request, "privacy/anonymise.html", {"player": player, "form": form, "done": done})


def _download(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"  # a person's data stays out of every cache on the way
    return response


@require_GET
@login_and_permission_required("players.change_player")
def player_data_json(request: HttpRequest, pk: int) -> HttpResponse:
    """Everything held about the player, as one JSON file (the right of access and portability)."""
    player = _editable_player(request, pk)
    data = selectors.person_data_json(player=player, now=timezone.now())
    content = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2).encode()
    return _download(content, "application/json", f"zawodnik-{player.pk}.json")


@require_GET
@login_and_permission_required("players.change_player")
def player_data_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """The same as the JSON file, laid out to read: a table per kind of row."""
    player = _editable_player(request, pk)
    entry, held = selectors.person_data(player=player)
    context = {
        "player": player,
        "entry": entry,
        "held": held,
        "made": timezone.now(),
        "title": _("Data held about %(name)s") % {"name": player.full_name},
        "font_faces": font_faces(),
        "page_counter": page_counter_css(),
    }
    return _download(render_pdf("privacy/person_data.html", context), "application/pdf", f"zawodnik-{player.pk}.pdf")
