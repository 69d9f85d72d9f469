"""Print jobs: a long document (every protocol of a series) built in the background.

The organiser's page polls a :class:`PrintJob` to show "12 z 64" and offers the
file once it is done. Small documents are rendered in the request and leave no row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PrintJob(models.Model):
    class Kind(models.TextChoices):
        PROTOCOLS = "protocols", _("table protocols to play with")
        ARCHIVE = "archive", _("filled-in protocols for the archive")

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

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")

    def __str__(self) -> str:
        return f"{self.series}: {self.get_kind_display()} ({self.get_status_display()})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)
