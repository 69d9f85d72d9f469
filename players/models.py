"""Clubs, players and teams: who takes part in a league.

Domain words used across the app:

- **klub** (club): the association a player is registered with; optional,
  guests play without one.
- **zawodnik / zawodniczka** (player): one person at the card table.
- **licencja** (licence): the federation's player number, when the player has one.
- **drużyna** (team): four or five players of whom the best results make the
  team ranking (docs/rules.md §6); one member is the **kapitan** (captain).

Clubs, players and teams are one register shared by every organiser; who may
change which entry is told in ``players.services``.
"""

from __future__ import annotations

import re
import unicodedata

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import OuterRef, Q, Subquery
from django.utils.translation import gettext_lazy as _

from league.history import ChangeRow

# Unicode's control characters (category Cc), lone surrogates (Cs) and the marks that reorder the
# text around them (bidirectional embeddings, overrides and isolates): a name with U+202E would
# print the rest of its line backwards on every list, sheet and projector.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")


def refuse_control_characters(value: str) -> None:
    """A name is printed, exported and searched: a NUL (which PostgreSQL cannot even store),
    a line break or another invisible control character has no place in it."""
    if CONTROL_CHARACTERS.search(value):
        raise ValidationError(
            _("Control characters (such as NUL, tab or a line break) are not allowed."), code="control_character"
        )


def added_by_field() -> models.ForeignKey:
    """Who added a player or team to the register: until a tournament registers them, the one
    user besides a superuser who may change them (players.services)."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("added by"),
        related_name="+",
        null=True,
        blank=True,
        editable=False,
        on_delete=models.SET_NULL,
    )


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True, validators=[refuse_control_characters])
    city = models.CharField(_("city"), max_length=80, blank=True, validators=[refuse_control_characters])

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Gender(models.TextChoices):
    # Stored codes are English; the Polish "K" (kobieta) is accepted on import.
    WOMAN = "F", _("woman")
    MAN = "M", _("man")


# Letters that Unicode's decomposition (NFKD) leaves whole, read as the plain letter they look like.
PLAIN_LETTERS = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss"})


def search_key(text: str) -> str:
    """``text`` as a search compares it: lower case, without diacritics, single-spaced, so that
    "kakol" typed on a phone without Polish letters finds Kąkol and "poblocki" finds Pobłocki."""
    decomposed = unicodedata.normalize("NFKD", text.translate(PLAIN_LETTERS))
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(plain.casefold().split())


def initials_of(first_name: str, last_name: str) -> str:
    return " ".join(f"{part[0]}." for part in (first_name, last_name) if part)


def public_name_of(first_name: str, last_name: str, *, initials: bool, club: str | None) -> str:
    """A player's name as public pages give it: "J. K., Gryf Wejherowo" (initials and club) for a
    player who asked to appear so (RODO, ``Player.public_initials``), else the full name."""
    if not initials:
        return f"{first_name} {last_name}"
    short = initials_of(first_name, last_name)
    return f"{short}, {club}" if club else short


class PlayerQuerySet(models.QuerySet):
    def search(self, text: str) -> PlayerQuerySet:
        """Players matching every word of ``text`` in a name (``search_name``) or the licence,
        so "anna kow" finds Anna Kowalska and "kakol" Kąkol."""
        for word in text.split():
            self = self.filter(Q(search_name__contains=search_key(word)) | Q(licence__iexact=word))
        return self

    def with_current_team(self) -> PlayerQuerySet:
        """Each player with ``team_name``: the active team they play in, or None; shown beside a
        search result so nobody registers a namesake or adds the same player twice."""
        current = TeamMember.objects.filter(player=OuterRef("pk"), team_active=True).values("team__name")
        return self.annotate(team_name=Subquery(current[:1]))


class Player(models.Model):
    first_name = models.CharField(_("first name"), max_length=80, validators=[refuse_control_characters])
    last_name = models.CharField(_("last name"), max_length=80, validators=[refuse_control_characters])
    # Needed for the separate women's and men's rankings (docs/rules.md §6).
    gender = models.CharField(_("gender"), max_length=1, choices=Gender.choices)
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        related_name="players",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
    )
    licence = models.CharField(_("licence number"), max_length=40, blank=True, validators=[refuse_control_characters])
    # "first last" as search_key() gives it, kept by save() and by players.services' bulk writes:
    # every search compares with it, the same way on SQLite and PostgreSQL.
    search_name = models.TextField(editable=False, db_index=True)
    active = models.BooleanField(_("active"), default=True)
    # The player's choice (RODO): public pages name them by initials and club ("J. K."), find-my-table
    # only by the full name typed in full, and search engines are asked not to index their page.
    public_initials = models.BooleanField(
        _("appears publicly by initials only"),
        default=False,
        help_text=_("Public pages show the initials and the club; organisers still see the full name."),
    )
    # Who added the player: until a tournament registers them, only this user may change them.
    created_by = added_by_field()
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            # Most club players have no licence, so only filled-in numbers must differ.
            models.UniqueConstraint(
                fields=["licence"],
                condition=~Q(licence=""),
                name="players_player_unique_licence",
                violation_error_message=_("A player with this licence number already exists."),
            ),
        ]
        indexes = [models.Index(fields=["last_name", "first_name"], name="players_player_name_idx")]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args, **kwargs) -> None:
        self.search_name = search_key(self.full_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"first_name", "last_name"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "search_name"}
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def initials(self) -> str:
        """How public pages name a player who asked to appear by initials only: "J. K."."""
        return initials_of(self.first_name, self.last_name)

    @property
    def public_name(self) -> str:
        """The name public pages, their exports and the API give (``public_name_of``); read the
        player with their club."""
        club = self.club.name if self.public_initials and self.club_id else None
        return public_name_of(self.first_name, self.last_name, initials=self.public_initials, club=club)

    @property
    def public_first_name(self) -> str:
        """How a public page calls the player in short: the first name, or the initials."""
        return self.initials if self.public_initials else self.first_name


class Team(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True, validators=[refuse_control_characters])
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        related_name="teams",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
    )
    captain = models.ForeignKey(
        Player,
        verbose_name=_("captain"),
        related_name="captained_teams",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )
    members = models.ManyToManyField(Player, verbose_name=_("members"), related_name="teams", through="TeamMember")
    active = models.BooleanField(_("active"), default=True)
    # As Player.created_by: the only user who may change the team before a tournament registers it.
    created_by = added_by_field()
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        adding = self._state.adding
        super().save(*args, **kwargs)
        if not adding:  # a new team has no memberships to keep in step yet
            self.memberships.exclude(team_active=self.active).update(team_active=self.active)


class TeamMember(models.Model):
    team = models.ForeignKey(Team, verbose_name=_("team"), related_name="memberships", on_delete=models.CASCADE)
    player = models.ForeignKey(Player, verbose_name=_("player"), related_name="memberships", on_delete=models.CASCADE)
    # A copy of team.active, kept in step by Team.save() and save() below, so the
    # database itself can refuse a second active team for one player.
    team_active = models.BooleanField(default=True, editable=False)

    class Meta:
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="players_teammember_unique"),
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(team_active=True),
                name="players_teammember_one_active_team",
                violation_error_message=_("This player already plays in another active team."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.team})"

    def save(self, *args, **kwargs) -> None:
        self.team_active = self.team.active
        super().save(*args, **kwargs)


class PendingImport(models.Model):
    """A player list read and previewed, waiting for its organiser to confirm it (the
    import's second step). It waits here rather than in the session, which every page
    reads: a session keeps only this row's id."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.CASCADE)
    filename = models.CharField(max_length=255)
    rows = models.JSONField()  # players.importing.SheetRow.as_list() of each row
    update_existing = models.BooleanField()
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.filename


class PlayerRemoval(ChangeRow):
    """A player taken out of the register: deleted (usunięty), having never played, or merged
    (scalony, merged) into ``merged_into``, the same person entered twice. ``old`` keeps the
    removed entry as it was and ``moved`` how many rows of each kind passed to ``merged_into``
    (registrations, seats, byes …), so a season table that changed can be explained."""

    player_pk = models.PositiveIntegerField(_("removed player's number"))
    merged_into = models.ForeignKey(
        Player,
        verbose_name=_("merged into"),
        related_name="merged_away",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )
    moved = models.JSONField(_("moved"), default=dict, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("removed player")
        verbose_name_plural = _("removed players")

    def __str__(self) -> str:
        return f"{(self.old or {}).get('name', self.player_pk)}"
