"""Starting print jobs: the one place a :class:`~league.printing.models.PrintJob` is created."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from league.models import Series
from league.printing.models import PrintJob
from league.printing.tasks import print_in_background


def print_job_start(*, series: Series, kind: str, user: AbstractBaseUser, base_url: str) -> PrintJob:
    """A new job printing ``kind`` of every table of ``series``, started in the background.

    ``base_url`` is the site's address as the organiser reached it, for the QR codes' links.
    """
    job = PrintJob.objects.create(series=series, kind=kind, requested_by=user)
    print_in_background(job=job, base_url=base_url)
    return job
