"""Seasons, tournaments and the table draw.

Domain words used across the app:

- **liga** (league): a club's or region's body of organisers with its calendar of
  tournaments and its seasons; tournaments and seasons outside any league stay as they are.
- **sezon** (season): several tournaments whose results add up.
- **turniej** (tournament): one day of play, made of series.
- **seria** (series, also "runda"): one sitting of the whole tournament; every
  player sits at a table or has a bye.
- **stolik** (table): four players at seats A–D for one series.
- **wolny los** (bye, also "pauza"): a player sits a series out and is
  compensated with points set by the ruleset (docs/rules.md §5).
- **zapis** (registration): a player taking part in one tournament, for a team
  or as an individual.
- **losowanie** (draw): the seating of players at tables, reproducible from its
  seed with ``python -m league.draw``.
- **szkic** (draft): a tournament not published yet; the public pages know
  nothing of it, its organisers and referees see it.
- **archiwum** (archive): a tournament past and done, left out of the lists of
  active tournaments; its public pages stay.
- **plik wymiany** (exchange file): a whole tournament as one JSON file
  (docs/interfaces.md §4), downloaded from the tournament's screen and uploaded on another
  installation; its ``tournament_id`` is the tournament's stable id (``exchange_id``).
- **gra** (game): what the tables play, a key of ``settings.BASKA_GAMES`` (each game's package
  in ``league/games/`` says what a protocol's rows are in it, docs/games.md);
  a game's own settings of a tournament are one value, ``game_settings`` (league.games.game_settings).
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import FileExtensionValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

import scoring
from league.history import ChangeRow, HistoryRow, LogRow
from players.models import refuse_control_characters
from scoring import SEATS
from scoring.ruleset import MAX_POINTS

LOGO_EXTENSIONS = ["png", "jpg", "jpeg", "gif", "webp"]

# The largest tournament, 128 tables: drawing all 12 series of 512 players takes
# about 7 s and grows steeply beyond (every pair's meetings are weighed), and
# every public page, printed sheet and export lists all of them.
MAX_PLAYERS = 512


def ruleset_preset_choices() -> list[tuple[str, str]]:
    """The scoring presets; the first migration's rules column names it (Baśka's settings offer
    them since, league.games.baska.settings)."""
    return scoring.preset_choices()


@deconstructible
class Between:
    """A whole number from ``low`` to ``high``: the one bound, and the one message,
    of every number an organiser sets for a tournament (forms, admin and import)."""

    message = _("Enter a whole number from %(low)s to %(high)s.")
    code = "out_of_bounds"

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high

    def __call__(self, value: int) -> None:
        if not self.low <= value <= self.high:
            raise ValidationError(self.message, code=self.code, params={"low": self.low, "high": self.high})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Between) and (self.low, self.high) == (other.low, other.high)


# A tournament is one day of play (puck 3 × 40 deals in 55 minutes, gorzow 4 × 20):
# the bounds leave room for any of it and keep every page that lists series and
# deals small. At least four deals, so each seat deals once.
SERIES_COUNT = Between(1, 12)
DEALS_PER_SERIES = Between(4, 96)
TIME_LIMIT_MINUTES = Between(10, 240)
# The draw seeds an organiser may give: far more than anybody reads out, and well within
# the BigIntegerField of Tournament.draw_seed and Series.seed.
SEED = Between(0, 999_999_999)


class League(models.Model):
    """A liga (league): its organisers manage every tournament and season it holds, and its
    public page (``/liga/<slug>/``) and calendar announce them. A tournament or a season
    belongs to at most one league, or to none."""

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name for addresses"), max_length=80, unique=True)
    # checked and re-encoded as Tournament.organiser_logo is (league.logo)
    logo = models.FileField(
        _("logo"), upload_to="logos/", blank=True, validators=[FileExtensionValidator(LOGO_EXTENSIONS)]
    )
    description = models.TextField(_("description"), blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("organisers"), related_name="organised_leagues", blank=True
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("leagues:page", args=[self.slug])


class LeagueVersion(ChangeRow):
    """One change of a league: its settings before and after, or an organiser added or taken
    off; who, when and why. ``old`` is empty for a new league."""

    class Action(models.TextChoices):
        CREATE = "create", _("created")
        CHANGE = "change", _("settings changed")
        ADD_ORGANISER = "add", _("organiser added")
        REMOVE_ORGANISER = "remove", _("organiser taken off")

    league = models.ForeignKey(League, verbose_name=_("league"), related_name="history", on_delete=models.CASCADE)
    action = models.CharField(_("action"), max_length=6, choices=Action.choices)

    class Meta:
        ordering = ["league", "-created", "-pk"]
        verbose_name = _("change of a league")
        verbose_name_plural = _("changes of leagues")

    def __str__(self) -> str:
        return f"{self.league} {self.action}"


class SeasonScheme(models.TextChoices):
    """How a season adds up its tournaments (docs/rules.md §6, psb examples I and II)."""

    SMALL = "small", _("small points summed")
    BIG = "big", _("big points summed, small points second")
    PLACES = "places", _("points for places in each tournament (PSB)")


def season_title(name: str, year: int) -> str:
    """A season's title: its name and year, the year once ("Sezon Łódzki 2027" with the year 2027
    stays as it is, it was "Sezon Łódzki 2027 2027")."""
    return name if str(year) in name.split() else f"{name} {year}"


def league_place(league: League | None) -> str:
    """Where a season or a tournament stands, for a sentence: "in the league X" or "outside any league"."""
    if league is None:
        return str(_("outside any league"))
    return str(_("in the league %(league)s") % {"league": league.name})


class Season(models.Model):
    """A league season; ``best_of`` counts only a player's best K tournaments.

    Under the ``places`` scheme each tournament first turns places into season
    points by ``place_points`` (1st, 2nd, 3rd …), only for players with a positive
    result, and teams by ``team_place_points``; the season adds those up, with the
    small points as the second figure.
    """

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name for addresses"), max_length=80, unique=True)
    year = models.PositiveSmallIntegerField(_("year"))
    best_of = models.PositiveSmallIntegerField(
        _("counted tournaments"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Count only each player's best results from this many tournaments; empty counts all."),
    )
    scheme = models.CharField(
        _("how tournaments add up"), max_length=6, choices=SeasonScheme.choices, default=SeasonScheme.BIG
    )
    place_points = models.JSONField(
        _("points for places (players)"),
        default=list,
        blank=True,
        help_text=_("Season points for 1st, 2nd, 3rd … place of a player with a positive result."),
    )
    team_place_points = models.JSONField(
        _("points for places (teams)"),
        default=list,
        blank=True,
        help_text=_("Season points for 1st, 2nd, 3rd … place of a team with a positive result."),
    )
    # SET_NULL: a league's seasons and tournaments outlive it, outside any league (their own
    # organisers keep them), rather than blocking the league's deletion or losing results.
    league = models.ForeignKey(
        League, verbose_name=_("league"), related_name="seasons", null=True, blank=True, on_delete=models.SET_NULL
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("organisers"), related_name="organised_seasons", blank=True
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-year", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return season_title(self.name, self.year)

    def clean(self) -> None:
        """Refuse points for places out of a ruleset's bounds (see
        :func:`scoring.parse_place_points`), whichever way they came."""
        errors = {}
        for name in ("place_points", "team_place_points"):
            try:
                scoring.parse_place_points(getattr(self, name), name)
            except scoring.ScoringError:
                errors[name] = ValidationError(
                    _("Points for a place are numbers from 0 to %(max)s."),
                    code="out_of_bounds",
                    params={"max": MAX_POINTS},
                )
        if errors:
            raise ValidationError(errors)

    def other_league_refusal(self, tournament: Tournament) -> ValidationError | None:
        """Why ``tournament`` cannot be in this season, if it cannot: a season and its tournaments
        belong to one league (or to none), so a league's season table never gains another league's
        tournament."""
        if tournament.league_id == self.league_id:
            return None
        return ValidationError(
            _(
                "The season %(season)s is %(season_place)s and the tournament %(name)s %(tournament_place)s: "
                "a season holds the tournaments of its own league only."
            ),
            code="other_league",
            params={
                "season": self,
                "season_place": league_place(self.league),
                "name": tournament.name,
                "tournament_place": league_place(tournament.league),
            },
        )

    def other_game_refusal(self, tournament: Tournament) -> ValidationError | None:
        """Why ``tournament`` cannot join this season, if it cannot: a season adds up one game
        (one game's small points and another's do not add), the game of the tournaments it holds."""
        others = self.tournaments.exclude(pk=tournament.pk).exclude(game=tournament.game)
        if not others.exists():
            return None
        return ValidationError(
            _("The season %(season)s counts tournaments of another game: this tournament cannot join it."),
            code="other_game",
            params={"season": self},
        )


class SeasonVersion(ChangeRow):
    """One change of a season: its settings before and after, or a tournament attached, detached
    or (not) counted; who, when and why. ``old`` is empty for a new season."""

    class Action(models.TextChoices):
        CREATE = "create", _("created")
        CHANGE = "change", _("settings changed")
        ATTACH = "attach", _("tournament added")
        DETACH = "detach", _("tournament taken out")
        COUNT = "count", _("tournament counted or not")

    season = models.ForeignKey(Season, verbose_name=_("season"), related_name="history", on_delete=models.CASCADE)
    action = models.CharField(_("action"), max_length=6, choices=Action.choices)

    class Meta:
        ordering = ["season", "-created", "-pk"]
        verbose_name = _("change of a season")
        verbose_name_plural = _("changes of seasons")

    def __str__(self) -> str:
        return f"{self.season} {self.action}"


class TeamRanking(models.TextChoices):
    SUM = "sum", _("sum of all members")
    BEST = "best", _("best members only")


class Tournament(models.Model):
    # printed, exported, sent as an e-mail's subject and a calendar's line: no control characters
    name = models.CharField(_("name"), max_length=160, validators=[refuse_control_characters])
    slug = models.SlugField(_("short name for addresses"), max_length=80, unique=True)
    date = models.DateField(_("date"))
    # the calendar's start of the event (Europe/Warsaw); without it the calendar lists the whole day
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=160, blank=True, validators=[refuse_control_characters])
    organiser_name = models.CharField(
        _("organiser"), max_length=160, blank=True, validators=[refuse_control_characters]
    )
    # A FileField rather than ImageField: the forms check an upload by its content and store
    # it re-encoded as a small PNG (league.logo.logo_normalise), which ImageField's
    # own check would only repeat.
    organiser_logo = models.FileField(
        _("organiser's logo"),
        upload_to="logos/",
        blank=True,
        validators=[FileExtensionValidator(LOGO_EXTENSIONS)],
    )
    season = models.ForeignKey(
        Season,
        verbose_name=_("season"),
        related_name="tournaments",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )
    counts_for_season = models.BooleanField(_("counts for the season"), default=True)
    league = models.ForeignKey(
        League, verbose_name=_("league"), related_name="tournaments", null=True, blank=True, on_delete=models.SET_NULL
    )

    # the key of a game of settings.BASKA_GAMES (league.games): the forms and the exchange file offer
    # and accept the games installed, so the models need not know them; every writer gives it
    # (the first game installed where none is chosen: league.games.default_game)
    game = models.CharField(_("game"), max_length=10)
    # the game's own settings (e.g. its rules and how long a series is), one value read
    # and checked only by the game's settings class (league.games.game_settings), so the models know none
    game_settings = models.JSONField(_("the game's settings"), default=dict, blank=True)
    # every game's: the draw seats this many at a table; which of them a game allows, the game checks
    table_size = models.PositiveSmallIntegerField(
        _("players at a table"),
        choices=[(4, "4"), (3, "3")],
        default=4,
        help_text=_("Preferans may be played by three; Baśka always by four."),
    )
    # rozstawienie: the first series' tables get one player of each strength band (league/draw/seeding.py)
    seeded_draw = models.BooleanField(
        _("Seed the first series by rating"),
        default=False,
        help_text=_(
            "The first series seats the strongest players by rating at different tables, the next "
            "strongest too, and so on; players without a rating count as the weakest. Later series "
            "are drawn as usual."
        ),
    )
    series_count = models.PositiveSmallIntegerField(_("number of series"), default=3, validators=[SERIES_COUNT])
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("time limit per series (minutes)"), null=True, blank=True, validators=[TIME_LIMIT_MINUTES]
    )
    uses_big_points = models.BooleanField(
        _("big points"),
        default=True,
        help_text=_("Rank by placement points at each table first, small points second."),
    )
    publish_individual = models.BooleanField(_("publish the individual ranking"), default=True)
    publish_women = models.BooleanField(_("publish the women's ranking"), default=False)
    publish_men = models.BooleanField(_("publish the men's ranking"), default=False)
    publish_teams = models.BooleanField(_("publish the team ranking"), default=True)
    team_ranking = models.CharField(
        _("team ranking"), max_length=4, choices=TeamRanking.choices, default=TeamRanking.SUM
    )
    team_best_of = models.PositiveSmallIntegerField(
        _("members counted"),
        default=3,
        validators=[MinValueValidator(1)],
        help_text=_("With “best members only”: how many of each team's results count."),
    )

    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organisers"),
        related_name="organised_tournaments",
        blank=True,
    )
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("referees"),
        related_name="refereed_tournaments",
        blank=True,
    )

    # A tournament made on the organiser's screens starts as a draft (services.tournament_create),
    # seen only by its organisers and referees; the default is for every other way a row comes.
    published = models.BooleanField(
        _("published"), default=True, help_text=_("Shown on the public pages; a draft is seen only by its staff.")
    )
    archived = models.BooleanField(
        _("archived"),
        default=False,
        help_text=_("Left out of the lists of active tournaments; its results stay readable."),
    )
    draw_seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    # The tournament's stable id, written into its exchange file as ``tournament_id``: the file of
    # a tournament played on a laptop in the hall, uploaded again, replaces what it brought before.
    exchange_id = models.UUIDField(_("exchange file id"), default=uuid.uuid4, unique=True, editable=False)
    registration_open = models.BooleanField(_("registration open"), default=True)
    draw_published = models.BooleanField(_("draw published"), default=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            # the draw's bounds; each game refuses the sizes it is not played at (GameRules.table_sizes)
            models.CheckConstraint(
                condition=Q(table_size__in=(3, 4)),
                name="league_tournament_tables_of_three_or_four",
                violation_error_message=_("A table seats three or four players."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.slug])

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats of a table, in seating order: A–D, or A–C at a Preferans table of three."""
        return SEATS[: self.table_size]

    def clean(self) -> None:
        if self.season_id:
            refusal = self.season.other_game_refusal(self) or self.season.other_league_refusal(self)
            if refusal is not None:
                raise ValidationError({"season": refusal})


class StaffRole(models.TextChoices):
    """A role in a tournament's staff, named as the tournament's list of people in it."""

    ORGANISERS = "organisers", _("organiser")
    REFEREES = "referees", _("referee")


class StaffInvitation(models.Model):
    """An account invited to a tournament's staff (zaproszenie): it becomes an organiser or a
    referee (it joins the ``role`` list of the tournament) only once its owner accepts, and
    sees nothing of the tournament before; the organiser's screen says "invited" meanwhile."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff_invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE, related_name="staff_invitations"
    )
    role = models.CharField(_("role"), max_length=10, choices=StaffRole.choices)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["created"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user", "role"], name="league_staff_invitation_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.tournament} ({self.get_role_display()})"


class Series(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        DRAWN = "drawn", _("drawn")
        IN_PLAY = "in_play", _("in play")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), related_name="series", on_delete=models.CASCADE
    )
    number = models.PositiveSmallIntegerField(_("number"), validators=[MinValueValidator(1)])
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLANNED)
    drawn_at = models.DateTimeField(_("drawn at"), null=True, blank=True)
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    algorithm = models.CharField(_("draw algorithm"), max_length=100, blank=True)
    # Set by result entry; until protocols exist it is the only record that play has begun.
    results_entered = models.BooleanField(_("results entered"), default=False)
    results_published = models.BooleanField(
        _("results published"),
        default=True,
        help_text=_("Once the series is closed its results and protocols appear on the public pages."),
    )
    # The series clock ("zegar serii", league.hall.clock): when it was started, the limit copied
    # from the tournament then (a later change of the tournament does not move a running clock),
    # the pause in progress and the pauses already over.
    clock_started_at = models.DateTimeField(_("clock started at"), null=True, blank=True)
    clock_limit_minutes = models.PositiveSmallIntegerField(_("clock limit (minutes)"), null=True, blank=True)
    clock_paused_at = models.DateTimeField(_("clock paused at"), null=True, blank=True)
    clock_paused_total = models.DurationField(_("clock paused for"), default=timedelta(0), db_default=timedelta(0))

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="league_series_unique_number"),
        ]

    def __str__(self) -> str:
        return _("%(tournament)s, series %(number)s") % {"tournament": self.tournament, "number": self.number}

    @property
    def is_drawn(self) -> bool:
        return self.status != self.Status.PLANNED

    def has_results(self) -> bool:
        """True once any result of this series is recorded: its draw is then final."""
        return self.results_entered


class Registration(models.Model):
    """A player's entry to one tournament, for a team or (team empty) as an individual.

    A late arrival is registered after series 1 was drawn: ``first_series`` is
    the first series still to be drawn. ``withdrawn_after_series`` n means the
    player played series 1..n and takes no seat from series n + 1 on.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), related_name="registrations", on_delete=models.CASCADE
    )
    player = models.ForeignKey(
        "players.Player", verbose_name=_("player"), related_name="registrations", on_delete=models.PROTECT
    )
    team = models.ForeignKey(
        "players.Team",
        verbose_name=_("team"),
        related_name="registrations",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        help_text=_("Empty: the player plays as an individual."),
    )
    checked_in = models.BooleanField(_("present"), default=False)
    fee_paid = models.BooleanField(_("fee paid"), default=False)
    first_series = models.PositiveSmallIntegerField(
        _("plays from series"), default=1, validators=[MinValueValidator(1)]
    )
    withdrawn_after_series = models.PositiveSmallIntegerField(_("withdrew after series"), null=True, blank=True)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # The ids an imported exchange file gave the player and the team (docs/interfaces.md §4):
    # export and standings print them back, so other software can match its rows.
    external_id = models.CharField(_("id in the imported file"), max_length=60, blank=True)
    team_external_id = models.CharField(_("team id in the imported file"), max_length=60, blank=True)

    class Meta:
        ordering = ["player__last_name", "player__first_name"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="league_registration_unique_player",
                violation_error_message=_("This player is already registered for the tournament."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.tournament})"

    def plays_in(self, number: int) -> bool:
        """Whether the player takes part in series ``number`` (present, arrived, not withdrawn)."""
        return (
            self.checked_in
            and self.first_series <= number
            and (self.withdrawn_after_series is None or number <= self.withdrawn_after_series)
        )


class TableAssignment(models.Model):
    """One seat at one table (stolik) in one series."""

    series = models.ForeignKey(Series, verbose_name=_("series"), related_name="assignments", on_delete=models.CASCADE)
    table = models.PositiveSmallIntegerField(_("table"), validators=[MinValueValidator(1)])
    seat = models.CharField(_("seat"), max_length=1, choices=[(s, s) for s in SEATS])
    player = models.ForeignKey(
        "players.Player", verbose_name=_("player"), related_name="table_assignments", on_delete=models.PROTECT
    )

    class Meta:
        ordering = ["series", "table", "seat"]
        verbose_name = _("seat at a table")
        verbose_name_plural = _("seats at tables")
        constraints = [
            models.UniqueConstraint(fields=["series", "player"], name="league_seat_one_per_player"),
            models.UniqueConstraint(fields=["series", "table", "seat"], name="league_seat_unique"),
            models.CheckConstraint(condition=Q(seat__in=SEATS), name="league_seat_letter"),
        ]

    def __str__(self) -> str:
        return f"{self.series}: {self.table}{self.seat} {self.player}"


class Bye(models.Model):
    """A wolny los (bye); ``tournament`` repeats ``series.tournament`` so the
    database itself allows one bye per player per tournament.

    The points a bye gives are not stored: they follow from the ruleset and the
    number of byes in the series (``scoring.bye_compensation``), wherever shown.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), related_name="byes", on_delete=models.CASCADE, editable=False
    )
    series = models.ForeignKey(Series, verbose_name=_("series"), related_name="byes", on_delete=models.CASCADE)
    player = models.ForeignKey(
        "players.Player", verbose_name=_("player"), related_name="byes", on_delete=models.PROTECT
    )

    class Meta:
        ordering = ["series", "player__last_name"]
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [
            models.UniqueConstraint(fields=["series", "player"], name="league_bye_one_per_series"),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="league_bye_one_per_tournament",
                violation_error_message=_("A player may have only one bye per tournament."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series}: {self.player}"

    def save(self, *args, **kwargs) -> None:
        self.tournament_id = self.series.tournament_id
        super().save(*args, **kwargs)


class DrawLog(LogRow):
    """Every draw, redraw and manual swap, so a seating can always be explained."""

    class Action(models.TextChoices):
        DRAW = "draw", _("draw")
        REDRAW = "redraw", _("redraw")
        SWAP = "swap", _("swap")
        UNDO = "undo", _("earlier draw restored")

    series = models.ForeignKey(Series, verbose_name=_("series"), related_name="draw_logs", on_delete=models.CASCADE)
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    algorithm = models.CharField(_("draw algorithm"), max_length=100, blank=True)
    repeats = models.PositiveIntegerField(_("repeated meetings"), null=True, blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("draw log entry")
        verbose_name_plural = _("draw log")

    def __str__(self) -> str:
        return f"{self.series}: {self.get_action_display()}"


class TournamentFileVersion(HistoryRow):
    """An earlier version of a tournament (wcześniejsza wersja), kept when an uploaded exchange
    file replaced it: ``file`` is its whole exchange file as it was, so uploading that file again
    brings the version back. ``reason`` says which file replaced it."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), related_name="file_versions", on_delete=models.CASCADE
    )
    file = models.JSONField(_("exchange file"))

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("earlier version of a tournament")
        verbose_name_plural = _("earlier versions of tournaments")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.created:%Y-%m-%d %H:%M}"


class PendingExchangeImport(models.Model):
    """An uploaded exchange file, read and previewed, waiting for its organiser to confirm it.
    The parsed file waits here, not in the client's hands: the session keeps only this row's id,
    and confirming reads the file from here again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.CASCADE)
    filename = models.CharField(max_length=255)
    data = models.JSONField()  # the file's JSON values as parse_exchange_file read them
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.filename


class TryCount(models.Model):
    """A count of tries (a limit's window: wrong PINs from one address, sign-up forms sent from
    one) kept in the database while the cache, where such counts live, is unavailable
    (``league.net.count_try``): a limit must still count when Redis is down."""

    key = models.CharField(max_length=200, unique=True)
    count = models.IntegerField(default=0)
    window_ends = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"


class FixedSeat(models.Model):
    """A *stałe miejsce* (fixed seat): a registered player the draw keeps at one table, and at
    one seat letter when ``seat`` is given (a wheelchair user at table 1, a referee who plays at
    the table by the desk). ``series`` lists the series numbers it holds in; empty means all.
    Its changes are kept in :class:`FixedSeatChange`."""

    registration = models.OneToOneField(
        Registration, verbose_name=_("registration"), related_name="fixed_seat", on_delete=models.CASCADE
    )
    table = models.PositiveSmallIntegerField(_("table"), validators=[MinValueValidator(1)])
    seat = models.CharField(_("seat"), max_length=1, blank=True, choices=[(s, s) for s in SEATS])
    series = models.JSONField(_("series"), default=list, blank=True)

    class Meta:
        verbose_name = _("fixed seat")
        verbose_name_plural = _("fixed seats")
        constraints = [
            models.CheckConstraint(condition=Q(table__gte=1), name="league_fixedseat_table_from_one"),
            models.CheckConstraint(condition=Q(seat="") | Q(seat__in=list(SEATS)), name="league_fixedseat_seat_letter"),
        ]

    def __str__(self) -> str:
        return f"{self.registration}: {self.table}{self.seat}"

    def holds_in(self, number: int) -> bool:
        """Whether the player is kept at his table in series ``number``."""
        return not self.series or number in self.series


class FixedSeatChange(ChangeRow):
    """One change of a tournament's fixed seats: a player's fixed seat before and after (who,
    when, why); ``old`` is empty for a new fixed seat and ``new`` for a removed one."""

    class Action(models.TextChoices):
        SET = "set", _("fixed seat set")
        REMOVE = "remove", _("fixed seat removed")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), related_name="fixed_seat_history", on_delete=models.CASCADE
    )
    action = models.CharField(_("action"), max_length=6, choices=Action.choices)

    class Meta:
        ordering = ["tournament", "-created", "-pk"]
        verbose_name = _("change of a fixed seat")
        verbose_name_plural = _("changes of fixed seats")

    def __str__(self) -> str:
        return f"{self.tournament} {self.action}"
