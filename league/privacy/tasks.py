"""The retention task (okres przechowywania): sign-ups' contacts erased after their tournament.
Celery beat runs it daily in the deployed configuration (settings.CELERY_BEAT_SCHEDULE); the
embedded default runs it by ``manage.py erase_signup_contacts``."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from league.privacy.services import signup_contacts_erase


@shared_task(name="league.privacy.erase_signup_contacts")
def erase_signup_contacts() -> int:
    """Erase the contacts of sign-ups ``BASKA_SIGNUP_CONTACT_DAYS`` days after their tournament;
    how many were erased. Running it twice on a day erases nothing the second time."""
    erasure = signup_contacts_erase(today=timezone.localdate(), days=settings.BASKA_SIGNUP_CONTACT_DAYS)
    return erasure.signups if erasure else 0
