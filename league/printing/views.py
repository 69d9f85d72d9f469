"""The organiser's print screen and the documents behind its buttons.

Every view is for the tournament's organisers and referees (``referee_required``
hands it ``request.tournament``). Small documents are rendered in the request;
a whole series' protocols go to a :class:`PrintJob` the page polls.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.models import Series, TableAssignment, Tournament
from league.printing import documents, seating
from league.printing.models import PrintJob
from league.printing.services import print_job_start
from league.tournaments.roles import referee_required


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    """Shown in the browser's PDF viewer (to print straight away), saved under ``filename``."""
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(as_attachment=False, filename=filename)
    return response


def drawn_series(request: HttpRequest, number: int) -> Series:
    series = get_object_or_404(Series, tournament=request.tournament, number=number)
    if not series.is_drawn:
        raise Http404(_("Series %(number)s has not been drawn yet.") % {"number": number})
    return series


def site_url(request: HttpRequest) -> str:
    """The site's address as this user reached it, for the QR codes' links."""
    return request.build_absolute_uri("/")


@referee_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    """The "Druk" page: every printable document of the tournament."""
    tournament = request.tournament
    series_list = tournament.series.order_by("number")
    tables = _tables_by_series(series_list)
    return render(
        request,
        "printing/index.html",
        {
            "tournament": tournament,
            "series_list": [(series, tables.get(series.number, [])) for series in series_list],
            "results_in_background": results_in_background(tournament),
            "results_after": last_counted_series(tournament),
            "jobs": PrintJob.objects.filter(series__tournament=tournament).select_related("series")[:10],
        },
    )


def _tables_by_series(series_list: QuerySet[Series]) -> dict[int, list[int]]:
    """Table numbers by series number, for the per-table links."""
    tables: dict[int, list[int]] = {}
    pairs = (
        TableAssignment.objects.filter(series__in=series_list)
        .order_by("series__number", "table")
        .values_list("series__number", "table")
        .distinct()
    )
    for number, table in pairs:
        tables.setdefault(number, []).append(table)
    return tables


@referee_required
def registration_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Sorted by name, or with ``?by=team`` grouped by team."""
    tournament = request.tournament
    by_team = request.GET.get("by") == "team"
    groups = documents.registration_groups(tournament, by_team=by_team)
    context = documents.document_context(
        tournament,
        _("Registration list"),
        groups=groups,
        total=sum(len(group.registrations) for group in groups),
    )
    name = documents.file_name(tournament, "zapisy", *(["druzyny"] if by_team else []))
    return pdf_response(documents.render_pdf("printing/registration_list.html", context), name)


@referee_required
def table_list(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = drawn_series(request, number)
    context = documents.document_context(
        request.tournament,
        _("Tables of series %(number)s") % {"number": number},
        **documents.table_list(series),
    )
    name = documents.file_name(request.tournament, "stoliki", "seria", number)
    return pdf_response(documents.render_pdf("printing/table_list.html", context), name)


@referee_required
def seating_slips(request: HttpRequest, slug: str) -> HttpResponse:
    """A slip for each player, ten to an A4 sheet with cut lines: their table and seat in every drawn series."""
    context = documents.document_context(
        request.tournament, _("Seating slips"), **seating.seating_slips(request.tournament)
    )
    name = documents.file_name(request.tournament, "karteczki")
    return pdf_response(documents.render_pdf("printing/seating_slips.html", context), name)


@referee_required
def noticeboard(request: HttpRequest, slug: str) -> HttpResponse:
    """For the wall: every player by surname with the table and seat of each drawn series."""
    context = documents.document_context(
        request.tournament, _("Who sits where"), **seating.noticeboard(request.tournament)
    )
    name = documents.file_name(request.tournament, "kto-gdzie-siedzi")
    return pdf_response(documents.render_pdf("printing/noticeboard.html", context), name)


@referee_required
def protocol(request: HttpRequest, slug: str, number: int, table: int, kind: str) -> HttpResponse:
    """One table's protocol: to play with, or (``archive``) with the entered deals."""
    series = drawn_series(request, number)
    archive = kind == PrintJob.Kind.ARCHIVE
    sheets = documents.protocol_sheets(series, [table], filled=archive, base_url=site_url(request))
    if not sheets:
        raise Http404(_("There is no such table in this series."))
    sheet = sheets[0]
    context = documents.protocol_context(request.tournament, sheet)
    name = documents.protocols_file_name(series, archive=archive, table=table)
    return pdf_response(documents.render_pdf(documents.protocol_template(request.tournament), context), name)


@referee_required
def blank_protocol(request: HttpRequest, slug: str) -> HttpResponse:
    """A protocol without names for a walk-in table."""
    tournament = request.tournament
    context = documents.protocol_context(tournament, documents.blank_protocol_sheet(tournament))
    return pdf_response(
        documents.render_pdf(documents.protocol_template(tournament), context),
        documents.file_name(tournament, "protokol"),
    )


def pins_context(request: HttpRequest, number: int) -> dict[str, Any]:
    """The tables of a drawn series with their links and PINs, for the page and its PDF."""
    series = drawn_series(request, number)
    return {
        "series": series,
        "tables": documents.table_pins(series, base_url=site_url(request)),
        # a closed series' tables no longer open by PIN: nothing to unlock or renew
        "pins_in_use": series.status != Series.Status.CLOSED,
    }


@referee_required
def table_pins(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The "PIN-y stolików" page: each table's link and PIN, with its lock state, unlocking and new PINs."""
    return render(request, "printing/pins.html", {"tournament": request.tournament, **pins_context(request, number)})


@referee_required
def table_pins_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The same links and PINs on paper, for the referee's desk."""
    context = documents.document_context(
        request.tournament, _("Table PINs: series %(number)s") % {"number": number}, **pins_context(request, number)
    )
    name = documents.file_name(request.tournament, "piny", "seria", number)
    return pdf_response(documents.render_pdf("printing/pins_sheet.html", context), name)


@referee_required
def results(request: HttpRequest, slug: str) -> HttpResponse:
    """The results sheets at once, for a tournament small enough to lay them out in the request;
    a larger one's go to a print job (``start_results_job``), offered on the printing page."""
    tournament = request.tournament
    if results_in_background(tournament):
        return redirect("printing:index", slug=slug)
    # the sheet on the wall says what the website says: closed, published series only
    return pdf_response(
        documents.render_pdf("printing/results.html", documents.results_now(tournament)),
        documents.file_name(tournament, "wyniki"),
    )


def results_in_background(tournament: Tournament) -> bool:
    return tournament.registrations.count() > documents.RESULTS_IN_REQUEST_PLAYERS


def last_counted_series(tournament: Tournament) -> Series | None:
    """The series a results job prints the standings after: the last one the public standings count."""
    counted = tournament.series.filter(status=Series.Status.CLOSED, results_published=True)
    return counted.order_by("-number").first()


@referee_required
@require_POST
def start_results_job(request: HttpRequest, slug: str) -> HttpResponse:
    """Queue the results sheets after the last counted series and show the job's progress."""
    last = last_counted_series(request.tournament)
    if last is None:
        raise Http404  # nothing counted yet: the printing page offers no results to print
    job = print_job_start(series=last, kind=PrintJob.Kind.RESULTS, user=request.user, base_url=site_url(request))
    return redirect("printing:job", slug=slug, pk=job.pk)


@referee_required
@require_POST
def start_job(request: HttpRequest, slug: str, number: int, kind: str) -> HttpResponse:
    """Queue every protocol of a series as one PDF and show its progress."""
    job = print_job_start(
        series=drawn_series(request, number), kind=kind, user=request.user, base_url=site_url(request)
    )
    return redirect("printing:job", slug=slug, pk=job.pk)


@referee_required
def job(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The job's progress; htmx polls the same address for the progress box alone."""
    print_job = get_object_or_404(
        PrintJob.objects.select_related("series"), pk=pk, series__tournament=request.tournament
    )
    # A worker killed mid-PDF leaves the job "printing" for ever: the page says it stopped
    # (``is_stale``) and stops polling; only restarting it, a POST, marks it failed.
    template = "printing/_job_progress.html" if request.htmx else "printing/job.html"
    return render(request, template, {"tournament": request.tournament, "job": print_job})


@referee_required
@require_POST
def restart_job(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Print a failed or stopped job again, as a new job (the old one keeps its error)."""
    old = get_object_or_404(PrintJob.objects.select_related("series"), pk=pk, series__tournament=request.tournament)
    old.give_up_if_stale()
    if not old.is_finished:
        return redirect("printing:job", slug=slug, pk=old.pk)  # still printing: nothing to restart
    job = print_job_start(series=old.series, kind=old.kind, user=request.user, base_url=site_url(request))
    return redirect("printing:job", slug=slug, pk=job.pk)


@referee_required
def job_file(request: HttpRequest, slug: str, pk: int) -> FileResponse:
    """The finished PDF, behind the same permission as the page (media files may be public)."""
    print_job = get_object_or_404(PrintJob, pk=pk, series__tournament=request.tournament, status=PrintJob.Status.DONE)
    return FileResponse(
        print_job.file.open("rb"), content_type="application/pdf", filename=print_job.file.name.rsplit("/", 1)[-1]
    )
