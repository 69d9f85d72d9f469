"""Table protocols ("protokół stołu") and their deals, with every change kept.

A protocol is one table in one series: the four seats A–D as drawn and one row
per deal ("rozdanie"); what a row is in each game, and how its values are reckoned, the
game's package says (docs/games.md); a table of three leaves D at 0. A row stores
the deal as entered (a description or the four numbers from paper,
docs/interfaces.md §1) and the four values that ``scoring/`` computed from it;
the database refuses a row that does not sum to zero. A row is never changed
without a :class:`DealRowVersion` recording the old and new row, who, when and why.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from league.history import ChangeRow, HistoryRow, LogRow
from scoring import SEATS


def new_pin() -> str:
    """A short numeric PIN for the table scorer's link."""
    return f"{secrets.randbelow(10_000):04d}"


def new_table_token() -> str:
    """An unguessable token for the table's link (the printed QR code and the referee's link)."""
    return secrets.token_urlsafe(16)


class Protocol(models.Model):
    """One table's protocol of one series; its PIN opens it on the table's phones (``league.results.table.pin``).

    **Grant** (dostęp): what a phone gets in its session for entering the PIN, with the seat
    the player said they sit at; each session has one grant id, stored here as who marked
    the protocol complete and who confirmed it.

    **Table token**: a random word in the table's link as the QR code on its sheet and the referee
    give it; the table's short address (typed by hand from the sheet) has none. The PIN is typed
    at one of two **doors**: the token door (the link with the right token) or the short address.
    **Wrong PINs** are counted here for the table, for each door apart: ``wrong_pins`` at the token
    door (after ``PIN_LOCK_TRIES`` that door refuses every PIN), ``hand_wrong_pins`` at the short
    address (after ``HAND_LOCK_TRIES`` the short address refuses every PIN and sends the player to
    the QR code). Tries without the token never close the token door, so knowing a table's
    (sequential) address is not enough to lock its phones out. Both doors stay closed until the
    referee unlocks the table or gives it a new PIN, which also gives it a new token.
    """

    PIN_LOCK_TRIES = 20
    HAND_LOCK_TRIES = 20

    class Status(models.TextChoices):
        OPEN = "open", _("being entered")
        COMPLETE = "complete", _("complete, awaiting confirmation")
        CONFIRMED = "confirmed", _("confirmed")

    series = models.ForeignKey(
        "league.Series", verbose_name=_("series"), related_name="protocols", on_delete=models.CASCADE
    )
    table = models.PositiveSmallIntegerField(_("table"), validators=[MinValueValidator(1)])
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    pin = models.CharField(_("PIN"), max_length=8, default=new_pin)
    # Kept in the database, not the cache: the cap must hold when the cache is flushed or down.
    # The new columns have database defaults, so rows written by older code and migrations get them.
    wrong_pins = models.PositiveSmallIntegerField(_("wrong PINs since the last unlock"), default=0, db_default=0)
    # Goes up with every unlock and new PIN; the cache's counts of wrong PINs per phone and address are
    # kept under it, so the referee's act releases every phone and address at once.
    pin_generation = models.PositiveIntegerField(_("PIN generation"), default=0, db_default=0)
    # Blank only in a row written by older code (such as an earlier migration), which has the short address alone
    # until the referee's new PIN draws it a token.
    table_token = models.CharField(_("table token"), max_length=32, default=new_table_token, db_default="")
    hand_wrong_pins = models.PositiveSmallIntegerField(
        _("wrong PINs at the short address since the last unlock"), default=0, db_default=0
    )
    # The four totals typed from the paper's last line; compared with the rows before closing.
    declared_totals = models.JSONField(_("totals written on paper"), null=True, blank=True)
    ended_early = models.BooleanField(
        _("stopped by the time limit"),
        default=False,
        help_text=_("The table did not finish all deals of the series; the score at that moment counts."),
    )
    # a game whose table may end by the players' agreement (no more deals; the settlement is final)
    closed_by_agreement = models.BooleanField(_("closed by agreement"), default=False, db_default=False)
    # The table scorer's seat when they marked it complete (blank when a referee did): that seat may not confirm.
    completed_by_seat = models.CharField(_("marked complete by seat"), max_length=1, blank=True)
    # The grant that marked it complete: the confirmation must come from another grant, or from a referee.
    completed_by_grant = models.CharField(_("marked complete by grant"), max_length=32, blank=True, db_default="")
    confirmed_by_seat = models.CharField(_("confirmed by seat"), max_length=1, blank=True)
    confirmed_by_grant = models.CharField(_("confirmed by grant"), max_length=32, blank=True, db_default="")
    confirmed_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("confirmed by referee"),
        null=True,
        blank=True,
        related_name="+",
        on_delete=models.SET_NULL,
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    # Optimistic lock: every write bumps it, a writer holding an older number is refused.
    version = models.PositiveIntegerField(_("version"), default=0)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["series", "table"]
        verbose_name = _("table protocol")
        verbose_name_plural = _("table protocols")
        constraints = [
            models.UniqueConstraint(fields=["series", "table"], name="results_protocol_unique_table"),
        ]

    def __str__(self) -> str:
        return _("%(series)s, table %(table)s") % {"series": self.series, "table": self.table}

    @property
    def pin_locked(self) -> bool:
        """Too many wrong PINs with the token: the PIN page refuses every PIN until the referee acts."""
        return self.wrong_pins >= self.PIN_LOCK_TRIES

    @property
    def hand_door_closed(self) -> bool:
        """Too many wrong PINs at the short address: only the link with the token takes PINs until the referee acts."""
        return self.hand_wrong_pins >= self.HAND_LOCK_TRIES


class ProtocolEvent(LogRow):
    """A change of a protocol other than its rows: the paper's totals entered, who marked it complete
    or confirmed it (a phone's seat and grant, or a referee), the protocol sent back to being entered
    (by a referee's correction, or the referee undoing "complete"), and the referee's new PIN or unlocking.

    ``details`` holds what the action needs besides who: the totals entered, or the deal whose
    correction sent the protocol back.
    """

    class Action(models.TextChoices):
        TOTALS = "totals", _("totals on paper entered")
        COMPLETED = "completed", _("marked complete")
        CONFIRMED = "confirmed", _("confirmed")
        REOPENED = "reopened", _("back to being entered")
        PIN_RENEWED = "pin_renewed", _("new PIN")
        UNLOCKED = "unlocked", _("PIN page unlocked")
        TIME_LIMIT = "time_limit", _("stopped by the time limit")
        # a table closed by the players' agreement, or opened again (where its game allows it; the
        # history says them in the game's words: GameWords.closed, GameWords.reopened)
        CLOSED_BY_AGREEMENT = "agreed_close", _("closed by agreement")
        OPENED_AGAIN = "agreed_open", _("opened again")

    protocol = models.ForeignKey(Protocol, verbose_name=_("protocol"), related_name="events", on_delete=models.CASCADE)
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    seat = models.CharField(_("seat"), max_length=1, blank=True)
    grant = models.CharField(_("grant"), max_length=32, blank=True)
    details = models.JSONField(_("details"), null=True, blank=True)

    class Meta:
        ordering = ["protocol", "created", "pk"]
        verbose_name = _("change of a protocol")
        verbose_name_plural = _("changes of protocols")

    def __str__(self) -> str:
        return f"{self.protocol} {self.action}"


class SeriesEvent(HistoryRow):
    """A series closed or reopened: who, when and (for reopening) why.

    **Zamknięcie** (closing) accepts every protocol of the series, which the public standings
    then count; **ponowne otwarcie** (reopening) takes the series out of them again until it is
    closed anew, so that its protocols can be corrected, completed and confirmed as while it was played.
    """

    class Action(models.TextChoices):
        CLOSED = "closed", _("series closed")
        REOPENED = "reopened", _("series reopened")
        # the series clock (league.hall): started, paused with a reason, resumed, time up
        STARTED = "started", _("series clock started")
        PAUSED = "paused", _("series clock paused")
        RESUMED = "resumed", _("series clock resumed")
        TIME_UP = "time_up", _("tables stopped by the time limit")

    series = models.ForeignKey(
        "league.Series", verbose_name=_("series"), related_name="closing_events", on_delete=models.CASCADE
    )
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)

    class Meta:
        ordering = ["series", "created", "pk"]
        verbose_name = _("closing or reopening of a series")
        verbose_name_plural = _("closings and reopenings of series")

    def __str__(self) -> str:
        return f"{self.series} {self.action}"


class RowChange(models.TextChoices):
    """What one version of a kept record did to it: a deal row or a referee's penalty."""

    ADD = "add", _("added")
    CHANGE = "change", _("changed")
    DELETE = "delete", _("deleted")


class DealRow(models.Model):
    """The current state of one deal of a protocol."""

    protocol = models.ForeignKey(Protocol, verbose_name=_("protocol"), related_name="rows", on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField(_("deal number"), validators=[MinValueValidator(1)])
    deal = models.JSONField(_("deal as entered"))
    value_a = models.IntegerField("A")
    value_b = models.IntegerField("B")
    value_c = models.IntegerField("C")
    value_d = models.IntegerField("D")
    # the game counts the row's values multiplied (its rules say when and by how much)
    doubled = models.BooleanField(_("counted with a multiplier"), default=False)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["protocol", "number"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["protocol", "number"], name="results_row_unique_number"),
            models.CheckConstraint(
                condition=Q(value_a=-(F("value_b") + F("value_c") + F("value_d"))),
                name="results_row_zero_sum",
                violation_error_message=_("A deal row must sum to zero."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.protocol} #{self.number}"

    @property
    def values(self) -> dict[str, int]:
        return dict(zip(SEATS, (self.value_a, self.value_b, self.value_c, self.value_d), strict=True))


class DealRowVersion(HistoryRow):
    """One change of one row: what it was, what it became, who, when and why.

    ``old_*`` is empty for a new row and ``new_*`` for a deleted one.
    """

    Action = RowChange

    protocol = models.ForeignKey(Protocol, verbose_name=_("protocol"), related_name="history", on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField(_("deal number"))
    action = models.CharField(_("action"), max_length=8, choices=Action.choices)
    old_deal = models.JSONField(_("old deal"), null=True, blank=True)
    old_values = models.JSONField(_("old values"), null=True, blank=True)
    new_deal = models.JSONField(_("new deal"), null=True, blank=True)
    new_values = models.JSONField(_("new values"), null=True, blank=True)
    # Who typed it when no account was used: the table scorer ("stolik 3, miejsce B"), and their seat.
    author = models.CharField(_("entered by"), max_length=120, blank=True)
    seat = models.CharField(_("seat"), max_length=1, blank=True, db_default="")

    class Meta:
        ordering = ["protocol", "created", "pk"]
        verbose_name = _("change of a deal")
        verbose_name_plural = _("changes of deals")

    def __str__(self) -> str:
        return f"{self.protocol} #{self.number} {self.action}"


class Penalty(models.Model):
    """A referee's penalty ("kara sędziowska", docs/rules.md §4.6): small points, and big
    points where the ruleset allows, added to one player's result in one series, with a
    reason. It is not a deal row, so every row of the protocol still sums to zero; every
    ranking counts it. Never changed or removed without a :class:`PenaltyVersion`."""

    series = models.ForeignKey(
        "league.Series", verbose_name=_("series"), related_name="penalties", on_delete=models.CASCADE
    )
    player = models.ForeignKey(
        "players.Player", verbose_name=_("player"), related_name="penalties", on_delete=models.PROTECT
    )
    small_points = models.IntegerField(_("small points"), default=0)
    big_points = models.DecimalField(_("big points"), max_digits=6, decimal_places=2, default=0)
    reason = models.TextField(_("reason"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["series", "created", "pk"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(
                condition=~Q(reason=""),
                name="results_penalty_has_reason",
                violation_error_message=_("A penalty needs a reason."),
            ),
            models.CheckConstraint(
                condition=~Q(small_points=0, big_points=0),
                name="results_penalty_not_zero",
                violation_error_message=_("A penalty changes small or big points."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series} {self.player_id} {self.small_points:+d}"


class PenaltyVersion(ChangeRow):
    """One change of one penalty: what it was, what it became, who, when and why.

    ``old`` is empty for a new penalty and ``new`` for a removed one; both are
    ``{"small_points": …, "big_points": …, "reason": …}``. The penalty is named by
    its series, player and the ``penalty_key`` it had, since a removed one is gone.
    """

    Action = RowChange

    series = models.ForeignKey(
        "league.Series", verbose_name=_("series"), related_name="penalty_history", on_delete=models.CASCADE
    )
    player = models.ForeignKey(
        "players.Player", verbose_name=_("player"), related_name="penalty_history", on_delete=models.PROTECT
    )
    penalty_key = models.PositiveIntegerField(_("penalty number"))
    action = models.CharField(_("action"), max_length=8, choices=Action.choices)

    class Meta:
        ordering = ["series", "created", "pk"]
        verbose_name = _("change of a penalty")
        verbose_name_plural = _("changes of penalties")

    def __str__(self) -> str:
        return f"{self.series} {self.player_id} {self.action}"


class DealSubmission(models.Model):
    """A deal sent with an idempotency key ("klucz"): what was stored under it and the answer given.

    The phone (or the referee's form, when it is rendered) makes the key; a repeat of the
    same key with the same content (``digest`` of the number and the deal) is answered with
    ``answer`` and stores nothing, a repeat with other content is refused. Only stored deals
    are kept here: a refused one may be sent again under its key.
    """

    protocol = models.ForeignKey(
        Protocol, verbose_name=_("protocol"), related_name="submissions", on_delete=models.CASCADE
    )
    key = models.CharField(_("key"), max_length=64)
    number = models.PositiveSmallIntegerField(_("deal number"))
    digest = models.CharField(_("digest of the content"), max_length=64)
    answer = models.JSONField(_("answer given"))
    created = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["protocol", "created", "pk"]
        verbose_name = _("deal sent with a key")
        verbose_name_plural = _("deals sent with a key")
        constraints = [
            models.UniqueConstraint(fields=["protocol", "key"], name="results_submission_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.protocol} #{self.number} {self.key}"


class PhoneContact(models.Model):
    """A table phone's last report ("kontakt"): how many deals wait on it to be sent, and when.

    One row per protocol and grant (each phone of the table reports its own queue); the
    control room reads them through ``league.results.table.queue.protocol_contacts``.
    """

    protocol = models.ForeignKey(
        Protocol, verbose_name=_("protocol"), related_name="contacts", on_delete=models.CASCADE
    )
    grant = models.CharField(_("grant"), max_length=32)
    seat = models.CharField(_("seat"), max_length=1, blank=True)
    waiting = models.PositiveSmallIntegerField(_("deals waiting on the phone"), default=0)
    online = models.BooleanField(_("online"), default=True)
    seen_at = models.DateTimeField(_("last report"))

    class Meta:
        ordering = ["protocol", "grant"]
        verbose_name = _("report of a table phone")
        verbose_name_plural = _("reports of table phones")
        constraints = [
            models.UniqueConstraint(fields=["protocol", "grant"], name="results_contact_unique_grant"),
        ]

    def __str__(self) -> str:
        return f"{self.protocol} {self.grant}: {self.waiting}"
