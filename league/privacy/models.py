"""Dane osobowe (players' personal data) as the GDPR (RODO) asks of the club that runs the league.

Domain words:

- **administrator danych** (controller): the club or body that decides why and how players' data
  is kept; a league's organisers name it in the league's notice.
- **klauzula informacyjna** (privacy notice): what the controller tells a person about their
  data: who keeps it, why, how long and which rights they have. One per installation and one per
  league; every save is a new version (``PrivacyNotice``), and each sign-up keeps the version the
  person saw.
- **okres przechowywania** (retention period): how long sign-ups keep their e-mail address and
  phone number after the tournament (``BASKA_SIGNUP_CONTACT_DAYS``); then ``ContactErasure``
  records each run that erased them.
- **anonimizacja** (anonymisation): a player's name, club, licence and the contacts of their
  sign-ups replaced by a pseudonym ("Zawodnik #1234") while their results stay and every other
  player's standings add up as before; ``Anonymisation`` records who did it, when and why, and
  nothing of the erased data.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.history import HistoryRow, LogRow

NOTICE_MAX_LENGTH = 20_000


class PrivacyNotice(HistoryRow):
    """One version of a privacy notice (klauzula informacyjna): the installation's when ``league``
    is empty, else the league's. Never changed after it is saved: an edit adds the next version, so
    a sign-up's ``privacy_notice`` always shows the very text its person read."""

    league = models.ForeignKey(
        "league.League",
        verbose_name=_("league"),
        related_name="privacy_notices",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
    )
    version = models.PositiveSmallIntegerField(_("version"))
    controller = models.CharField(_("controller"), max_length=300)
    contact = models.CharField(_("contact for data requests"), max_length=200)
    text_pl = models.TextField(_("text in Polish"), max_length=NOTICE_MAX_LENGTH)
    text_en = models.TextField(_("text in English"), max_length=NOTICE_MAX_LENGTH)

    class Meta:
        ordering = ["league", "-version"]
        verbose_name = _("privacy notice")
        verbose_name_plural = _("privacy notices")
        constraints = [
            models.UniqueConstraint(fields=["league", "version"], name="privacy_notice_one_per_version"),
            # the installation's versions (no league): NULLs never collide in the constraint above
            models.UniqueConstraint(
                fields=["version"], condition=Q(league__isnull=True), name="privacy_installation_notice_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league or '—'} v{self.version}"


class ContactErasure(LogRow):
    """One run of the retention task: how many sign-ups lost their e-mail address and phone
    number, and of which tournaments (never the erased contacts themselves)."""

    days = models.PositiveSmallIntegerField(_("days after the tournament"))
    signups = models.PositiveIntegerField(_("sign-ups erased"))
    tournaments = models.JSONField(_("tournaments"), default=list)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("erasure of sign-up contacts")
        verbose_name_plural = _("erasures of sign-up contacts")

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d} {self.signups}"


class Anonymisation(HistoryRow):
    """A player anonymised on request: who did it, when and why (the reason must not repeat the
    erased data). ``player`` now carries the pseudonym; the row keeps no name, club or contact."""

    player = models.OneToOneField(
        "players.Player", verbose_name=_("player"), related_name="anonymisation", on_delete=models.PROTECT
    )
    signups = models.PositiveIntegerField(_("sign-ups erased"), default=0)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("anonymisation")
        verbose_name_plural = _("anonymisations")

    def __str__(self) -> str:
        return str(self.player_id)
