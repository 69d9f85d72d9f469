"""``manage.py erase_signup_contacts``: the retention task where no Celery beat runs (the embedded
default); run it daily, e.g. from cron (docs/privacy.md):
``15 3 * * * cd /srv/baska && .venv/bin/python manage.py erase_signup_contacts``."""

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.privacy.tasks import erase_signup_contacts


class Command(BaseCommand):
    help = "Erase sign-ups' e-mail addresses and phone numbers BASKA_SIGNUP_CONTACT_DAYS days after the tournament."

    def handle(self, *args, **options) -> None:
        count = erase_signup_contacts()
        if count:
            self.stdout.write(
                ngettext(
                    "Erased the contacts of %(count)d sign-up.", "Erased the contacts of %(count)d sign-ups.", count
                )
                % {"count": count}
            )
        else:
            self.stdout.write(_("No sign-up holds contacts past the retention period."))
