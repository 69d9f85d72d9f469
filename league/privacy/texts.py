"""The default privacy notice (klauzula informacyjna), in Polish and English: what an organiser
starts from and what a league shows until its organisers save their own. It names the
controller, the purposes (running tournaments, publishing results, contacting those who signed
up), the retention periods and the person's rights; the controller and the contact are shown
above it from their own fields, so the text itself needs no editing when they change. The texts
are ``templates/privacy/default_pl.txt`` and ``default_en.txt``."""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import override

from league.models import League


@dataclass(frozen=True)
class NoticeText:
    """A notice as it is shown and as a new version starts: the controller, the contact for
    data requests and the text in each language."""

    controller: str
    contact: str
    text_pl: str
    text_en: str


def default_notice(*, league: League | None, days: int, contact: str) -> NoticeText:
    """The default notice of ``league`` (or of the installation), with the retention of ``days``."""
    with override("pl"):
        controller = (
            _("The organisers of %(league)s") % {"league": league.name} if league else _("The club that runs this site")
        )
    return NoticeText(
        controller=controller,
        contact=contact,
        text_pl=render_to_string("privacy/default_pl.txt", {"days": days}).strip(),
        text_en=render_to_string("privacy/default_en.txt", {"days": days}).strip(),
    )
