"""The batch print: every protocol of a series in one PDF, built in the background."""

from __future__ import annotations

import logging

from celery import shared_task
from django.core.files.base import ContentFile
from django.utils import timezone

from league.printing import documents
from league.printing.models import PrintJob

logger = logging.getLogger(__name__)

# Protocols laid out as one WeasyPrint document: each document parses and cascades
# the stylesheet once, so fewer are faster, while the organiser's page still sees
# the count move ("16 z 64") between documents.
TABLES_PER_DOCUMENT = 16


class Superseded(Exception):
    """The job was given up (its page found it stalled) while this run was still going."""


def _claim(job_id: int) -> bool:
    """Take a queued job; False when it is already running elsewhere, finished or given up.

    With ``acks_late`` a job whose worker was killed is delivered again later; by then
    the organiser has been told it stopped and may have started a new one, so the old
    delivery must not print a second copy.
    """
    now = timezone.now()
    return bool(
        PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.QUEUED).update(
            status=PrintJob.Status.RUNNING, updated=now
        )
    )


def _report(job: PrintJob, **fields: object) -> None:
    """Store progress (and the heartbeat) only while the job is still this run's."""
    fields["updated"] = timezone.now()
    if not PrintJob.objects.filter(pk=job.pk, status=PrintJob.Status.RUNNING).update(**fields):
        raise Superseded


@shared_task
def print_series_protocols(job_id: int, base_url: str) -> None:
    """Render the protocol of each table of the job's series, a chunk of tables per
    document, counting tables done so the organiser's page can show "16 z 64",
    then store one PDF.

    ``base_url`` is the site's address as the organiser reached it: the worker has
    no request of its own to build the QR codes' absolute links from.
    """
    if not _claim(job_id):
        logger.warning("Print job %s is not waiting to be printed; skipped", job_id)
        return
    job = PrintJob.objects.select_related("series__tournament").get(pk=job_id)
    series, tournament = job.series, job.series.tournament
    archive = job.kind == PrintJob.Kind.ARCHIVE
    try:
        tables = documents.series_tables(series)
        _report(job, total=len(tables), progress=0)
        renderer, rendered, done = documents.Renderer(), [], 0
        with documents.collector_paused():
            for start in range(0, len(tables), TABLES_PER_DOCUMENT):
                chunk = tables[start : start + TABLES_PER_DOCUMENT]
                sheets = [documents.protocol_sheet(series, table, filled=archive, base_url=base_url) for table in chunk]
                context = documents.protocols_context(tournament, sheets)
                rendered.append(renderer.render("printing/protocol.html", context))
                done += len(chunk)
                _report(job, progress=done)
            content = documents.write_pdf(rendered)
        name = documents.protocols_file_name(series, archive=archive)
        job.file.save(name, ContentFile(content), save=False)
        try:
            _report(job, file=job.file.name, status=PrintJob.Status.DONE, finished=timezone.now())
        except Superseded:
            job.file.delete(save=False)  # given up meanwhile: leave no file nobody can download
            raise
    except Superseded:
        logger.warning("Print job %s was given up while running; stopped", job_id)
    except Exception as error:
        # Not re-raised: the page must stop polling and say so, and with eager tasks
        # (no broker) a raise would turn the organiser's click into a server error.
        logger.exception("Print job %s failed", job.pk)
        PrintJob.objects.filter(pk=job.pk, status=PrintJob.Status.RUNNING).update(
            status=PrintJob.Status.FAILED, error=str(error), finished=timezone.now(), updated=timezone.now()
        )
