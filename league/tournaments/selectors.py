"""Reads of the organiser's tournament screens and of the draw service.

Every function here only reads, and takes a fixed number of queries however
many series, tables or registrations the tournament has: the draw page loads
all seats and byes of the tournament at once instead of asking per series.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

import scoring
from league.draw import SeriesDraw, count_repeats
from league.games import game_of, linked_related
from league.models import MAX_PLAYERS, Bye, DrawLog, Registration, Series, StaffInvitation, TableAssignment, Tournament
from league.results.models import DealRow
from league.tournaments.regulars import entries_signed, teams_fitted
from league.tournaments.roles import is_organiser
from players.models import Club, Player, Team, TeamMember
from players.names import name_key, player_key
from players.services import MAX_TEAM_SIZE

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

SEARCH_LIMIT = 20


def tournament_list(*, user: AbstractBaseUser) -> list[tuple[Tournament, bool]]:
    """The tournaments the user organises (themself or as an organiser of their league) or
    referees, newest first, each with whether the user organises it (a superuser organises every one)."""
    tournaments = (
        Tournament.objects.select_related("season", *linked_related())
        .prefetch_related("series")
        .order_by("-date", "name")
    )
    if user.is_superuser:
        return [(tournament, True) for tournament in tournaments]
    organises = Q(organisers=user) | Q(league__organisers=user)
    tournaments = tournaments.filter(organises | Q(referees=user)).distinct()
    organised = set(Tournament.objects.filter(organises).values_list("pk", flat=True))
    return [(tournament, tournament.pk in organised) for tournament in tournaments]


def staff_landing(*, tournament: Tournament, user: AbstractBaseUser) -> str:
    """Where a member of the tournament's staff works, for the page after accepting an invitation:
    an organiser the tournament's page; a referee the results of its latest drawn series (its
    protocols), or before any draw the list of their tournaments, where the series appear."""
    if is_organiser(user, tournament):
        return tournament.get_absolute_url()
    drawn = tournament.series.exclude(status=Series.Status.PLANNED).order_by("-number").first()
    if drawn is not None:
        return reverse("results:series", args=[tournament.slug, drawn.number])
    return reverse("tournaments:list")


def tournament_summary(*, tournament: Tournament) -> dict[str, int]:
    """Head counts of the registration: registered, present, paid, teams and individuals."""
    return tournament.registrations.aggregate(
        total=Count("pk"),
        present=Count("pk", filter=Q(checked_in=True)),
        paid=Count("pk", filter=Q(fee_paid=True)),
        teams=Count("team", distinct=True),
        individuals=Count("pk", filter=Q(team__isnull=True)),
    )


def tournament_played(*, tournament: Tournament) -> bool:
    """Whether any deal of the tournament has been entered in a protocol (or a series says it has results)."""
    rows = DealRow.objects.filter(protocol__series__tournament=OuterRef("pk"))
    return (
        Tournament.objects.filter(pk=tournament.pk).filter(Q(Exists(rows)) | Q(series__results_entered=True)).exists()
    )


def _first_number(series: QuerySet[Series], order: str) -> int | None:
    return series.order_by(order).values_list("number", flat=True).first()


def series_last_drawn(*, tournament: Tournament) -> int | None:
    """The number of the last series drawn so far; None while nothing is drawn."""
    return _first_number(tournament.series.exclude(status=Series.Status.PLANNED), "-number")


@dataclass
class Staff:
    """The people running a tournament: its organisers and its referees, by name."""

    organisers: list[AbstractBaseUser]
    referees: list[AbstractBaseUser]


def tournament_staff(*, tournament: Tournament) -> Staff:
    """The tournament's organisers and referees, each list by surname."""
    order = ("last_name", "first_name", "username")
    return Staff(
        organisers=list(tournament.organisers.order_by(*order)),
        referees=list(tournament.referees.order_by(*order)),
    )


def tournament_invitations(*, tournament: Tournament) -> QuerySet[StaffInvitation]:
    """The accounts invited to the tournament's staff that have not answered yet, oldest first."""
    return tournament.staff_invitations.select_related("user")


def staff_invitations(*, user: AbstractBaseUser) -> QuerySet[StaffInvitation]:
    """The invitations to tournaments' staff waiting for ``user``'s answer, oldest first."""
    return StaffInvitation.objects.filter(user=user.pk).select_related("tournament")


def user_search(*, query: str) -> QuerySet[AbstractBaseUser]:
    """The active accounts whose username or e-mail address is exactly ``query`` (in any case),
    never a superuser's, at most ``SEARCH_LIMIT`` (several may share an address).

    An organiser adds a person who told them their username or address: a search by part of
    a name would list strangers' accounts to anyone who organises a tournament."""
    query = query.strip()
    if not query:
        return get_user_model().objects.none()
    return (
        get_user_model()
        .objects.filter(is_active=True, is_superuser=False)
        .filter(Q(username__iexact=query) | Q(email__iexact=query))
        .order_by("last_name", "first_name", "username")[:SEARCH_LIMIT]
    )


def registration_rows(*, tournament: Tournament) -> QuerySet[Registration]:
    """The tournament's registrations with the player, their club and the team, for a filter to narrow."""
    return tournament.registrations.select_related("player__club", "team")


def registration_list(*, tournament: Tournament, rows: QuerySet[Registration] | None = None) -> list[Registration]:
    """The tournament's registrations (or ``rows`` of them, e.g. a filter's) by name in Polish order
    (``players.names``: the database would put Łęcka after Zieliński)."""
    registrations = registration_rows(tournament=tournament) if rows is None else rows
    return sorted(registrations, key=lambda registration: (player_key(registration.player), registration.player_id))


def tournament_teams(*, tournament: Tournament) -> list[Team]:
    """The teams players play for in the tournament, by name in Polish order."""
    teams = Team.objects.filter(registrations__tournament=tournament).distinct()
    return sorted(teams, key=lambda team: name_key(team.name))


def player_current_team(*, player: Player) -> Team | None:
    """The player's active team, which is the default team for a new registration."""
    membership = TeamMember.objects.filter(player=player, team_active=True).select_related("team").first()
    return membership.team if membership else None


def players_current_teams(*, players: Iterable[int]) -> dict[int, Team]:
    """The active team of each of ``players`` (primary keys) that has one, in one query."""
    memberships = TeamMember.objects.filter(player__in=list(players), team_active=True).select_related("team")
    return {membership.player_id: membership.team for membership in memberships}


def team_counts(*, tournament: Tournament) -> dict[int, int]:
    """How many players play for each team in ``tournament``, by the team's primary key."""
    counted = tournament.registrations.exclude(team=None).values("team").annotate(count=Count("pk"))
    return {row["team"]: row["count"] for row in counted}


def late_arrivals_first_series(*, tournament: Tournament) -> int | None:
    """The series a player registered now plays from once the draw has begun (a late arrival,
    *spóźniony*); None before the draw. Refused when every series already has results.

    A late arrival plays from the first series after every one with results: a series drawn
    but not begun is drawn again for them (the draw page offers it, draws.series_outdated).
    """
    if not tournament.series.exclude(status=Series.Status.PLANNED).exists():
        return None
    played = tournament.series.filter(results_entered=True).aggregate(last=Max("number"))["last"] or 0
    first = tournament.series.filter(number__gt=played).order_by("number").values_list("number", flat=True).first()
    if first is None:
        raise ValidationError(
            _("Every series already has results, so a late player cannot join any more."),
            code="all_series_played",
        )
    return first


# --- adding many (league.tournaments.regulars) ----------------------------------------------------


def tournament_earlier_choices(*, tournament: Tournament, user: AbstractBaseUser) -> QuerySet[Tournament]:
    """The earlier tournaments whose players "add many" offers to register again, newest first,
    held before ``tournament`` or on its day: in a league (liga), the league's tournaments (its
    drafts only for their organisers); outside one, those ``user`` organises, also through their
    leagues (a superuser: every one).

    The one place that decides which tournaments count as earlier ones of the same circle."""
    earlier = Tournament.objects.filter(date__lte=tournament.date).exclude(pk=tournament.pk).order_by("-date", "-pk")
    organised = Q(organisers=user) | Q(league__organisers=user)
    if tournament.league_id is not None:
        earlier = earlier.filter(league=tournament.league_id)
        return earlier if user.is_superuser else earlier.filter(Q(published=True) | organised).distinct()
    return earlier if user.is_superuser else earlier.filter(organised).distinct()


def registration_group_candidates(
    *, team: Team | None = None, club: Club | None = None, earlier: Tournament | None = None
) -> list[tuple[Player, Team | None]]:
    """The players of a whole ``team``, a whole ``club`` or ``earlier`` tournament, each with the team
    they would play for: the chosen team; in a club, their current team; from an earlier tournament,
    the team they played for then while it is active, else their current one. Inactive players too,
    for the preview to name them."""
    if earlier is not None:
        rows = [(r.player, r.team) for r in earlier.registrations.select_related("player", "team")]
    elif team is not None:
        rows = [(player, team) for player in Player.objects.filter(memberships__team=team)]
    elif club is not None:
        rows = [(player, None) for player in Player.objects.filter(club=club)]
    else:
        return []
    current = players_current_teams(players=[player.pk for player, _team in rows])
    return [
        (player, chosen if chosen is not None and chosen.active else current.get(player.pk)) for player, chosen in rows
    ]


@dataclass
class GroupPreview:
    """What "add many" would do, before anything is saved: who is registered and for which team
    (``rows``, None an individual), who is skipped as registered already or inactive, the teams that
    would exceed their size with the players who then play as individuals, from which series they
    play once the draw has begun, and the signed ``token`` of ``rows`` the confirmation sends back.
    ``error`` says why nothing can be registered (too many players, every series played)."""

    rows: list[tuple[Player, Team | None]]
    registered: list[Player]
    inactive: list[Player]
    overflow: list[tuple[Team, list[Player]]]
    first_series: int | None
    token: str
    error: str = ""


def registration_group_preview(*, tournament: Tournament, candidates: list[tuple[Player, Team | None]]) -> GroupPreview:
    """The preview of registering ``candidates`` (``registration_group_candidates``), each list in Polish order."""
    candidates = sorted(candidates, key=lambda row: player_key(row[0]))
    registered_pks = set(tournament.registrations.values_list("player_id", flat=True))
    registered = [player for player, _team in candidates if player.pk in registered_pks]
    inactive = [player for player, _team in candidates if not player.active and player.pk not in registered_pks]
    wanted = [(player, team) for player, team in candidates if player.active and player.pk not in registered_pks]
    fitted = teams_fitted(
        [(player.pk, team.pk if team else None) for player, team in wanted],
        registered=team_counts(tournament=tournament),
        limit=MAX_TEAM_SIZE,
    )
    players = {player.pk: player for player, _team in wanted}
    teams = {team.pk: team for _player, team in wanted if team is not None}
    rows = [(players[player], teams.get(team)) for player, team in fitted.entries]
    overflow = [(teams[team], [players[pk] for pk in pks]) for team, pks in fitted.overflow.items()]
    error = ""
    first_series = None
    if len(registered_pks) + len(rows) > MAX_PLAYERS:
        error = _("A tournament takes at most %(limit)s players.") % {"limit": MAX_PLAYERS}
    try:
        first_series = late_arrivals_first_series(tournament=tournament)
    except ValidationError as refused:
        error = " ".join(refused.messages)
    return GroupPreview(
        rows=rows,
        registered=registered,
        inactive=inactive,
        overflow=sorted(overflow, key=lambda item: name_key(item[0].name)),
        first_series=first_series,
        token=entries_signed(tournament_pk=tournament.pk, entries=fitted.entries),
        error=error,
    )


def series_next_undrawn(*, tournament: Tournament) -> int | None:
    """The number of the first series not drawn yet; None when all are drawn."""
    return _first_number(tournament.series.filter(status=Series.Status.PLANNED), "number")


# --- the draw -----------------------------------------------------------------


@dataclass
class Seat:
    """One seat of the draw page: the letter, the player and the team they play for."""

    seat: str
    player: Player
    team_name: str | None


@dataclass
class SeriesSeats:
    """One series as the draw page shows it: seats by table, bye players and
    what each bye player gets (None without byes)."""

    series: Series
    tables: dict[int, list[Seat]] = field(default_factory=dict)
    byes: list[Player] = field(default_factory=list)
    compensation: scoring.ByeCompensation | None = None

    @property
    def players(self) -> list[Player]:
        """Everybody of the series, seated or on a bye, by name: who can be swapped."""
        everybody = [seat.player for seats in self.tables.values() for seat in seats] + self.byes
        return sorted(everybody, key=lambda player: (player_key(player), player.pk))


def tournament_series_seats(*, tournament: Tournament, series: Series | None = None) -> list[SeriesSeats]:
    """Every series of the tournament (or only ``series``) with its seats and byes, in four queries."""
    if series is None:
        series_list = list(tournament.series.order_by("number"))
    else:
        series_list = [series]
    by_pk = {s.pk: SeriesSeats(s) for s in series_list}
    teams = dict(tournament.registrations.values_list("player_id", "team__name"))
    assignments = (
        TableAssignment.objects.filter(series__in=list(by_pk))
        .select_related("player")
        .order_by("series_id", "table", "seat")
    )
    for assignment in assignments:
        seats = by_pk[assignment.series_id].tables.setdefault(assignment.table, [])
        seats.append(Seat(assignment.seat, assignment.player, teams.get(assignment.player_id)))
    byes = Bye.objects.filter(series__in=list(by_pk)).select_related("player")
    for bye in sorted(byes, key=lambda bye: (player_key(bye.player), bye.player_id)):
        by_pk[bye.series_id].byes.append(bye.player)
    ruleset = game_of(tournament).standing_rules(tournament)
    for item in by_pk.values():
        if item.byes:
            item.compensation = scoring.bye_compensation(ruleset, len(item.byes))
    return list(by_pk.values())


def _seatings(series: QuerySet[Series]) -> dict[int, SeriesDraw]:
    """The given series in the draw package's form (player ids as strings), by primary key
    in series order, in three queries."""
    numbers = dict(series.values_list("pk", "number"))
    tables: dict[int, dict[int, list[str]]] = {pk: {} for pk in numbers}
    byes: dict[int, list[str]] = {pk: [] for pk in numbers}
    seats = TableAssignment.objects.filter(series__in=series).order_by("series_id", "table", "seat")
    for pk, table, player in seats.values_list("series_id", "table", "player_id"):
        tables[pk].setdefault(table, []).append(str(player))
    on_bye = Bye.objects.filter(series__in=series).order_by("player_id")
    for pk, player in on_bye.values_list("series_id", "player_id"):
        byes[pk].append(str(player))
    return {
        pk: SeriesDraw(tables=[tuple(tables[pk][t]) for t in sorted(tables[pk])], byes=byes[pk])  # type: ignore[misc]
        for pk in sorted(numbers, key=numbers.__getitem__)
    }


def series_seating(*, series: Series) -> SeriesDraw:
    """One stored series in the draw package's form."""
    return _seatings(Series.objects.filter(pk=series.pk))[series.pk]


def tournament_seatings(*, tournament: Tournament, exclude: list[int] | None = None) -> list[SeriesDraw]:
    """Every drawn series of the tournament in the draw package's form, in order.

    ``exclude`` leaves out the series with these primary keys (those being drawn again).
    """
    drawn = tournament.series.exclude(status=Series.Status.PLANNED).exclude(pk__in=exclude or [])
    return list(_seatings(drawn).values())


def tournament_repeats(*, tournament: Tournament) -> int:
    """Repeated meetings over every drawn series, as the organiser sees them now."""
    return count_repeats(tournament_seatings(tournament=tournament))


def draw_names(*, tournament: Tournament) -> tuple[dict[str, str], dict[str, str]]:
    """Player and team names by draw id, to turn a DrawError into a readable message."""
    players: dict[str, str] = {}
    teams: dict[str, str] = {}
    for registration in tournament.registrations.select_related("player", "team"):
        players[str(registration.player_id)] = registration.player.full_name
        if registration.team:
            teams[str(registration.team_id)] = registration.team.name
    return players, teams


def draw_log(*, tournament: Tournament) -> QuerySet[DrawLog]:
    """Every draw, redraw and swap of the tournament, newest first, with its series and user."""
    return DrawLog.objects.filter(series__tournament=tournament).select_related("series", "user")
