"""Print jobs: a long document (every protocol of a series) built in the background.

The organiser's page polls a :class:`PrintJob` to show "12 z 64" and offers the
file once it is done. Small documents are rendered in the request and leave no row.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

STALE_AFTER = timedelta(minutes=5)
"""A job that has shown no progress this long is taken as stopped: its worker died
(killed, restarted, out of memory) or never picked it up."""


class PrintJob(models.Model):
    class Kind(models.TextChoices):
        PROTOCOLS = "protocols", _("table protocols to play with")
        ARCHIVE = "archive", _("filled-in protocols for the archive")
        # the standings after the job's series (the last one counted when it was asked for)
        RESULTS = "results", _("results sheets")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting")
        RUNNING = "running", _("printing")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    series = models.ForeignKey(
        "league.Series", verbose_name=_("series"), related_name="print_jobs", on_delete=models.CASCADE
    )
    kind = models.CharField(_("document"), max_length=10, choices=Kind.choices)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveIntegerField(_("tables done"), default=0)
    total = models.PositiveIntegerField(_("tables"), default=0)
    file = models.FileField(_("file"), upload_to="printing/", blank=True)
    error = models.TextField(_("error"), blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("requested by"), null=True, blank=True, on_delete=models.SET_NULL
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)
    # Bumped by the worker with every table done: a job whose worker died stops moving.
    updated = models.DateTimeField(_("last progress"), default=timezone.now)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")

    def __str__(self) -> str:
        return f"{self.series}: {self.get_kind_display()} ({self.get_status_display()})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def is_stale(self) -> bool:
        """Not finished and no progress for ``STALE_AFTER``: its worker is taken as dead."""
        return not self.is_finished and timezone.now() - self.updated >= STALE_AFTER

    @property
    def is_over(self) -> bool:
        """Nothing more will happen to it by itself: finished, or stopped (the page stops polling)."""
        return self.is_finished or self.is_stale

    @property
    def failure(self) -> str:
        """Why the job did not finish, as its page says it: its error, or that its worker stopped."""
        return str(STOPPED_MESSAGE) if self.is_stale else self.error

    def give_up_if_stale(self) -> bool:
        """Mark the job failed when it has not moved for ``STALE_AFTER``; True if it was.

        Conditional, so a worker that is merely slow and reports progress in the
        meantime keeps its job; the worker, in turn, stops once its job is failed.
        """
        if not self.is_stale:
            return False
        now = timezone.now()
        error = str(STOPPED_MESSAGE)
        given_up = PrintJob.objects.filter(
            pk=self.pk, status__in=[self.Status.QUEUED, self.Status.RUNNING], updated__lt=now - STALE_AFTER
        ).update(status=self.Status.FAILED, error=error, finished=now)
        self.refresh_from_db()
        return bool(given_up)


STOPPED_MESSAGE = _(
    "The printing stopped: the background worker ended without finishing this document. "
    "Start it again; nothing from the stopped run is kept."
)
