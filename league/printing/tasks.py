"""The batch print: every protocol of a series in one PDF, built in the background."""

from __future__ import annotations

import logging

from celery import shared_task
from django.core.files.base import ContentFile
from django.utils import timezone

from league.printing import documents
from league.printing.models import PrintJob

logger = logging.getLogger(__name__)


@shared_task
def print_series_protocols(job_id: int, base_url: str) -> None:
    """Render the protocol of each table of the job's series, counting tables done
    so the organiser's page can show "12 z 64", then store one PDF.

    ``base_url`` is the site's address as the organiser reached it: the worker has
    no request of its own to build the QR codes' absolute links from.
    """
    job = PrintJob.objects.select_related("series__tournament").get(pk=job_id)
    series, tournament = job.series, job.series.tournament
    tables = documents.series_tables(series)
    archive = job.kind == PrintJob.Kind.ARCHIVE
    job.status, job.total, job.progress = PrintJob.Status.RUNNING, len(tables), 0
    job.save(update_fields=["status", "total", "progress"])
    try:
        renderer, rendered = documents.Renderer(), []
        for table in tables:
            sheet = documents.protocol_sheet(series, table, filled=archive, base_url=base_url)
            context = documents.protocol_context(tournament, sheet)
            rendered.append(renderer.render("printing/protocol.html", context))
            job.progress += 1
            job.save(update_fields=["progress"])
        name = documents.protocols_file_name(series, archive=archive)
        job.file.save(name, ContentFile(documents.write_pdf(rendered)), save=False)
        job.status = PrintJob.Status.DONE
    except Exception as error:
        # Not re-raised: the page must stop polling and say so, and with eager tasks
        # (no broker) a raise would turn the organiser's click into a server error.
        logger.exception("Print job %s failed", job.pk)
        job.status, job.error = PrintJob.Status.FAILED, str(error)
    finally:
        job.finished = timezone.now()
        job.save(update_fields=["file", "status", "error", "finished"])
