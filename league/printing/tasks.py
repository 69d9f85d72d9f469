"""The batch print: every protocol of a series in one PDF, built in the background.

With a broker the job goes to a Celery worker. Without one (the embedded default,
where tasks run eagerly) it runs in a thread of the web process, so the organiser's
click returns at once and the job's page shows the tables being printed, as it does
with a worker; a thread killed with its process leaves a job its page reports stopped.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

from celery import shared_task
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import connections, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from league.printing import documents, layout
from league.printing.models import PrintJob
from league.queueing import enqueue_or_run

logger = logging.getLogger(__name__)

# Protocols laid out as one WeasyPrint document: each document parses and cascades
# the stylesheet once, so fewer are faster, while the organiser's page still sees
# the count move ("8 z 64") between documents, and the cores share the chunks.
TABLES_PER_DOCUMENT = 8

CPU_MAX = Path("/sys/fs/cgroup/cpu.max")
"""The CPU quota of this process's cgroup (v2), as a container sees its own."""


def usable_cpus(cpu_max: Path = CPU_MAX) -> int:
    """How many CPUs this process can keep busy, at least 1: those it may run on
    (``os.sched_getaffinity``, else ``os.cpu_count``), fewer when its cgroup's quota
    (``cpu.max``: "<quota> <period>" in microseconds, "max <period>" for none) grants
    less CPU time per period, rounded up (1.5 CPUs' time keeps 2 processes busy).

    A container given 2 CPUs on a 16-core host still sees 16 in ``os.cpu_count()``:
    16 layout processes there would only share the 2 CPUs' time, each with its own memory.
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    try:
        quota, period = cpu_max.read_text().split()[:2]
        if quota != "max":
            cpus = min(cpus, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        pass  # no cgroup v2 quota to read (another system, cgroup v1, a host without a limit)
    return max(1, cpus)


def _in_order(render: Callable[[layout.Chunk], bytes], htmls: Iterator[layout.Chunk], count: int) -> Iterator[bytes]:
    """``render`` applied to each of ``count`` chunks, on every CPU this process may use
    (:func:`usable_cpus`, at most ``BASKA_PRINT_PROCESSES`` when set) where it may have
    children (a daemonic Celery prefork child may not: there the chunks go one by one).
    The pool takes each chunk as soon as it is written, so writing the next one here
    overlaps laying out the last one there."""
    cores = usable_cpus()
    if settings.BASKA_PRINT_PROCESSES:  # the operator's cap: CPUs left to the web processes
        cores = min(cores, settings.BASKA_PRINT_PROCESSES)
    if cores < 2 or count < 2 or multiprocessing.current_process().daemon:
        yield from map(render, htmls)
        return
    # forkserver: the children are forked from a clean server process (no copy of this
    # process's threads, locks or database connections) that has the layout module
    # loaded once, so each batch starts its processes in milliseconds
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["league.printing.layout"])
    pool: Executor = ProcessPoolExecutor(max_workers=min(cores, count), mp_context=context)
    with pool:
        yield from pool.map(render, htmls)


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
    """Print the job: the protocol of each table of its series (or its game's own sheet),
    a chunk of tables per document, counting tables done so the organiser's page can show
    "16 z 64"; or, for a results job, the results sheets after its series. Then store one PDF.

    ``base_url`` is the site's address as the organiser reached it: the worker has
    no request of its own to build the QR codes' absolute links from.
    """
    if not _claim(job_id):
        logger.warning("Print job %s is not waiting to be printed; skipped", job_id)
        return
    job = PrintJob.objects.select_related("series__tournament").get(pk=job_id)
    try:
        if job.kind == PrintJob.Kind.RESULTS:
            content, name = _results(job)
        else:
            content, name = _protocols(job, base_url)
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


def _protocols(job: PrintJob, base_url: str) -> tuple[bytes, str]:
    """The protocols of every table of the job's series, and the file's name."""
    series, tournament = job.series, job.series.tournament
    archive = job.kind == PrintJob.Kind.ARCHIVE
    tables = documents.series_table_numbers(series)
    _report(job, total=len(tables), progress=0)
    chunks = [tables[start : start + TABLES_PER_DOCUMENT] for start in range(0, len(tables), TABLES_PER_DOCUMENT)]
    # the database work happens here; the layout, the slow part, may run in other processes
    roots = documents.own_file_roots()
    htmls = (
        layout.Chunk(
            render_to_string(
                documents.protocol_template(tournament),
                documents.protocols_context(
                    tournament,
                    documents.protocol_sheets(series, chunk, filled=archive, base_url=base_url),
                ),
            ),
            str(settings.BASE_DIR),
            roots,
        )
        for chunk in chunks
    )
    parts, done = [], 0
    for chunk, part in zip(chunks, _in_order(layout.html_to_pdf, htmls, len(chunks)), strict=True):
        parts.append(part)
        done += len(chunk)
        _report(job, progress=done)
    return documents.merge_pdfs(parts), documents.protocols_file_name(series, archive=archive)


def _results(job: PrintJob) -> tuple[bytes, str]:
    """The results sheets after the job's series, as the public standings count it, and the file's name."""
    tournament = job.series.tournament
    _report(job, total=1, progress=0)
    content = documents.render_pdf("printing/results.html", documents.results_now(tournament))
    _report(job, progress=1)
    return content, documents.file_name(tournament, "wyniki")


_printing: set[threading.Thread] = set()
"""The threads printing jobs in this process (no broker), for :func:`wait_for_background_prints`."""


def print_in_background(*, job: PrintJob, base_url: str) -> None:
    """Print ``job`` once its row is committed (whoever prints it must find it): on a Celery
    worker where there is a broker, else in a thread of this process, as also when the
    broker is down (the organiser then gets the file, not a server error)."""
    if print_series_protocols.app.conf.task_always_eager:
        transaction.on_commit(lambda: _start_thread(job.pk, base_url))
    else:
        transaction.on_commit(lambda: enqueue_or_run(print_series_protocols, job.pk, base_url, fallback=_start_thread))


def _start_thread(job_id: int, base_url: str) -> None:
    # a daemon: a server shutting down does not wait for a PDF; the job's page then says it stopped
    thread = threading.Thread(target=_print_in_thread, args=(job_id, base_url), name=f"print-job-{job_id}", daemon=True)
    _printing.add(thread)
    thread.start()


def _print_in_thread(job_id: int, base_url: str) -> None:
    try:
        print_series_protocols(job_id, base_url)
    finally:
        # the thread's connections are its own: left open, every batch would keep one to the database
        connections.close_all()
        _printing.discard(threading.current_thread())


def wait_for_background_prints(timeout: float = 120) -> None:
    """Return once every job this process is printing in a thread has ended (tests wait with it)."""
    for thread in list(_printing):
        thread.join(timeout)
