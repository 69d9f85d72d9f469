"""Zapisy online (online sign-ups): players ask to play in a tournament before its day.

Domain words:

- **okno zgłoszeń** (sign-up window): a tournament's settings for sign-ups: open or not, the
  closing time, an optional capacity (places), a waiting list, and a note for the players (fee,
  what to bring). One per tournament, made when the organiser first opens sign-ups.
- **zgłoszenie** (sign-up): one person's request to play. It names a player of the register
  (``player``), picked by the person themself or matched by the organiser on confirmation, and
  always keeps the name and contact as typed. Only the organiser's confirmation turns it into a
  registration (``league.models.Registration``), and only then is a new player created: a
  sign-up never adds anybody to the register by itself.
- **lista rezerwowa** (waiting list): sign-ups over the capacity wait in the order they came; a
  place freed by a cancellation goes to the first of them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from league.history import ChangeRow
from players.models import Gender, refuse_control_characters

NOTE_MAX_LENGTH = 1000
# The page a change came from, as its path: enough to tell the public form from the organiser's list.
PAGE_MAX_LENGTH = 200


class SignUpWindow(models.Model):
    """A tournament's sign-up window (okno zgłoszeń)."""

    tournament = models.OneToOneField(
        "league.Tournament", verbose_name=_("tournament"), related_name="signup_window", on_delete=models.CASCADE
    )
    is_open = models.BooleanField(_("sign-ups open"), default=False)
    closes_at = models.DateTimeField(_("sign-ups close at"))
    capacity = models.PositiveSmallIntegerField(
        _("places"), null=True, blank=True, help_text=_("Empty: as many as sign up.")
    )
    waiting_list = models.BooleanField(
        _("waiting list"), default=True, help_text=_("When the places are taken, further sign-ups wait for one.")
    )
    note = models.TextField(
        _("note for the players"),
        max_length=NOTE_MAX_LENGTH,
        blank=True,
        help_text=_("The fee, what to bring, whom to call."),
    )
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("sign-up window")
        verbose_name_plural = _("sign-up windows")
        constraints = [
            models.CheckConstraint(
                condition=Q(capacity__isnull=True) | Q(capacity__gt=0),
                name="signups_capacity_set",
                violation_error_message=_("The number of places must be at least 1, or empty for no limit."),
            )
        ]

    def __str__(self) -> str:
        return str(self.tournament)


class SignUpWindowChange(ChangeRow):
    """A change of a sign-up window: who opened, closed or edited it, when, from which page."""

    window = models.ForeignKey(SignUpWindow, related_name="changes", on_delete=models.CASCADE)
    page = models.CharField(_("page"), max_length=PAGE_MAX_LENGTH, blank=True)

    class Meta:
        ordering = ["created", "pk"]


class SignUp(models.Model):
    """A sign-up (zgłoszenie) for a tournament."""

    class Status(models.TextChoices):
        NEW = "new", pgettext_lazy("sign-up status", "new")
        CONFIRMED = "confirmed", pgettext_lazy("sign-up status", "confirmed")
        WAITING = "waiting", pgettext_lazy("sign-up status", "waiting")
        CANCELLED = "cancelled", pgettext_lazy("sign-up status", "cancelled")

    # A sign-up takes a place while new or confirmed; a waiting one is in the queue for a place.
    TAKING_A_PLACE = (Status.NEW, Status.CONFIRMED)
    ACTIVE = (Status.NEW, Status.CONFIRMED, Status.WAITING)

    tournament = models.ForeignKey(
        "league.Tournament", verbose_name=_("tournament"), related_name="signups", on_delete=models.CASCADE
    )
    # Empty until the organiser matches a typed name. A merge moves it to the player kept; a player
    # with a sign-up is not deleted (a sign-up picked from the register has no contact of its own).
    player = models.ForeignKey(
        "players.Player",
        verbose_name=_("player"),
        related_name="signups",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
    )
    first_name = models.CharField(_("first name"), max_length=80, validators=[refuse_control_characters])
    last_name = models.CharField(_("last name"), max_length=80, validators=[refuse_control_characters])
    # players.models.search_key of the full name: how a second sign-up of the same person is recognised
    search_name = models.TextField(editable=False)
    gender = models.CharField(_("gender"), max_length=1, choices=Gender.choices)
    club = models.ForeignKey(
        "players.Club", verbose_name=_("club"), related_name="+", null=True, blank=True, on_delete=models.SET_NULL
    )
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=30, blank=True, validators=[refuse_control_characters])
    team = models.ForeignKey(
        "players.Team", verbose_name=_("team"), related_name="+", null=True, blank=True, on_delete=models.SET_NULL
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.NEW)
    registration = models.ForeignKey(
        "league.Registration", related_name="+", null=True, blank=True, editable=False, on_delete=models.SET_NULL
    )
    # The one-time token of the form that sent it: a double click or a resent request finds this row.
    # one sign-up per form as it was shown: unique within the tournament, where a retry looks for it
    form_token = models.CharField(max_length=64, editable=False)
    source_page = models.CharField(_("sent from"), max_length=PAGE_MAX_LENGTH, blank=True)
    # the language of the form the person signed up in: every e-mail to them is written in it
    language = models.CharField(_("language"), max_length=8, default="pl", choices=settings.LANGUAGES)
    # RODO: the version of the privacy notice the person read on the form, their explicit consent
    # to be contacted (unticked unless they tick it), and when the retention period (or an
    # anonymisation) erased the e-mail address and phone number.
    privacy_notice = models.ForeignKey(
        "privacy.PrivacyNotice",
        verbose_name=_("privacy notice seen"),
        related_name="signups",
        null=True,
        blank=True,
        editable=False,
        on_delete=models.PROTECT,
    )
    contact_consent = models.BooleanField(_("consents to be contacted"), default=False)
    contact_erased = models.DateTimeField(_("contact erased"), null=True, blank=True, editable=False)
    created = models.DateTimeField(_("signed up"), auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "form_token"], name="signups_one_per_form"),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status__in=["new", "confirmed", "waiting"]),
                name="signups_one_active_per_player",
                violation_error_message=_("This player has already signed up."),
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=False) | ~Q(email="") | ~Q(phone="") | Q(contact_erased__isnull=False),
                name="signups_contact_or_player",
                violation_error_message=_("Give an e-mail address or a phone number."),
            ),
        ]

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    def snapshot(self) -> dict:
        """What the history keeps of the sign-up before and after a change."""
        return {"status": self.status, "player": self.player_id, "team": self.team_id}


class SignUpChange(ChangeRow):
    """A change of a sign-up: made, confirmed, moved up or cancelled; by whom (empty: the person
    themself, through the public form or their private link), when and from which page."""

    signup = models.ForeignKey(SignUp, related_name="changes", on_delete=models.CASCADE)
    page = models.CharField(_("page"), max_length=PAGE_MAX_LENGTH, blank=True)

    class Meta:
        ordering = ["created", "pk"]

    @property
    def status_before(self) -> str:
        """The sign-up's status before the change, as the pages name it; empty for a new sign-up."""
        return SignUp.Status(self.old["status"]).label if self.old else ""

    @property
    def status_after(self) -> str:
        return SignUp.Status(self.new["status"]).label
