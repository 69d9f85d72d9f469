"""Registration (zapisy) and the tournament day: check-in, fees, withdrawals, late arrivals."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.models import MAX_PLAYERS, Registration, TableAssignment, Tournament
from league.standings.refresh import standings_touch
from league.tournaments.regulars import Entry, teams_fitted
from league.tournaments.selectors import late_arrivals_first_series, player_current_team, team_counts
from players.models import Club, Player, Team
from players.services import MAX_TEAM_SIZE, team_create

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

Flag = Literal["checked_in", "fee_paid"]


@transaction.atomic
def registration_create(
    *, tournament: Tournament, player: Player, team: Team | None = None, individual: bool = False
) -> Registration:
    """Register a player, for ``team`` or else their current team; ``individual`` plays for none.

    Once series 1 is drawn the player is a late arrival (*spóźniony*): present, and
    playing from the first series with no results yet, drawn or not. A tournament
    takes at most ``MAX_PLAYERS``.
    """
    # The lock makes two organisers registering at once count each other.
    Tournament.objects.select_for_update().only("pk").get(pk=tournament.pk)
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ValidationError(
            _("%(player)s is already registered."), code="already_registered", params={"player": player}
        )
    if tournament.registrations.count() >= MAX_PLAYERS:
        raise ValidationError(
            _("A tournament takes at most %(limit)s players."), code="tournament_full", params={"limit": MAX_PLAYERS}
        )
    if individual:
        team = None
    elif team is None:
        team = player_current_team(player=player)
    registration = Registration(tournament=tournament, player=player, team=team)
    first = late_arrivals_first_series(tournament=tournament)
    if first is not None:
        registration.first_series = first
        registration.checked_in = True
    registration.save()
    standings_touch(tournament_id=tournament.pk)
    return registration


@transaction.atomic
def registration_group_create(*, tournament: Tournament, entries: Iterable[Entry]) -> list[Registration]:
    """Register many players at once (*dodaj wielu*, ``league.tournaments.regulars``), each for the team
    of its entry or (None) as an individual, all or none.

    Whoever is registered already, inactive, or gone from the register is skipped, so the same entries
    confirmed twice register nobody twice; a team's players beyond ``MAX_TEAM_SIZE`` in this tournament
    play as individuals, and an inactive team's as well. Once the draw has begun they are late arrivals,
    present, as ``registration_create`` makes one.
    """
    # The lock makes a second confirmation (or an organiser registering meanwhile) wait and then see these.
    Tournament.objects.select_for_update().only("pk").get(pk=tournament.pk)
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    wanted = {player: team for player, team in entries if player not in registered}
    players = Player.objects.filter(active=True).in_bulk(list(wanted))
    teams = Team.objects.filter(active=True).in_bulk([team for team in wanted.values() if team is not None])
    chosen = [(player, team if team in teams else None) for player, team in wanted.items() if player in players]
    fitted = teams_fitted(chosen, registered=team_counts(tournament=tournament), limit=MAX_TEAM_SIZE).entries
    if len(registered) + len(fitted) > MAX_PLAYERS:
        raise ValidationError(
            _("A tournament takes at most %(limit)s players."), code="tournament_full", params={"limit": MAX_PLAYERS}
        )
    first = late_arrivals_first_series(tournament=tournament)
    standings_touch(tournament_id=tournament.pk)
    return Registration.objects.bulk_create(
        Registration(
            tournament=tournament,
            player=players[player],
            team=teams.get(team),
            first_series=first or 1,
            checked_in=first is not None,
        )
        for player, team in fitted
    )


@transaction.atomic
def registration_quick_add(
    *,
    tournament: Tournament,
    first_name: str,
    last_name: str,
    gender: str,
    club: Club | None = None,
    team: Team | None = None,
) -> Registration:
    """Create a player nobody knew yet and register them in one step."""
    player = Player.objects.create(first_name=first_name, last_name=last_name, gender=gender, club=club)
    return registration_create(tournament=tournament, player=player, team=team, individual=team is None)


def registration_flag_toggle(*, registration: Registration, flag: Flag) -> bool:
    """Flip the check-in or fee tick and return its new value."""
    value = not getattr(registration, flag)
    setattr(registration, flag, value)
    registration.save(update_fields=[flag])
    return value


@transaction.atomic
def registration_withdraw(*, registration: Registration, number: int | None) -> list[int]:
    """Record that the player leaves after series ``number`` (None takes the withdrawal back).

    Returns the later series that are already drawn with the player at a table
    or on a bye: they must be drawn again (the organiser decides when).
    """
    tournament = registration.tournament
    if number is not None and not 1 <= number < tournament.series_count:
        raise ValidationError(
            _("A player can withdraw after series 1 to %(last)s."),
            code="invalid_withdrawal",
            params={"last": tournament.series_count - 1},
        )
    registration.withdrawn_after_series = number
    registration.save(update_fields=["withdrawn_after_series"])
    standings_touch(tournament_id=tournament.pk)
    if number is None:
        return []
    return [drawn for drawn in _series_drawn_with(registration=registration) if drawn > number]


@transaction.atomic
def registration_flags_set(
    *, tournament: Tournament, registrations: Iterable[Registration], flag: Flag, value: bool = True
) -> int:
    """Tick (or, ``value`` False, untick) presence or the fee for all ``registrations`` of ``tournament``
    at once (the door's bulk buttons); the others stay. Returns how many changed."""
    chosen = tournament.registrations.filter(pk__in=[registration.pk for registration in registrations])
    return chosen.exclude(**{flag: value}).update(**{flag: value})


def _series_drawn_with(*, registration: Registration) -> list[int]:
    """The series of the tournament in which the player holds a seat or a bye."""
    return sorted(
        set(
            registration.tournament.series.filter(
                Q(assignments__player_id=registration.player_id) | Q(byes__player_id=registration.player_id)
            ).values_list("number", flat=True)
        )
    )


@transaction.atomic
def registration_delete(*, registration: Registration) -> None:
    """Take back a mistaken registration; the player stays in the register.

    Only a player drawn in no series yet: once seated (or on a bye) the player is part of
    the draw and of the results, and leaves by a withdrawal instead.
    """
    # The lock keeps a draw of the same tournament from seating the player meanwhile.
    Tournament.objects.select_for_update().only("pk").get(pk=registration.tournament_id)
    drawn = _series_drawn_with(registration=registration)
    if drawn:
        raise ValidationError(
            _(
                "%(player)s is already drawn in series %(numbers)s, so the registration stays; "
                "record when they left under “withdrew after series” instead."
            ),
            code="already_drawn",
            params={"player": registration.player, "numbers": ", ".join(map(str, drawn))},
        )
    registration.delete()
    standings_touch(tournament_id=registration.tournament_id)


@transaction.atomic
def registration_team_change(*, registration: Registration, team: Team | None) -> list[int]:
    """Let the player play for ``team`` in this tournament, or (None) as an individual.

    Only the registration changes: who plays for whom in a tournament is its organiser's
    call, and the team ranking counts the players registered for the team. The register's
    team (its name and members) stays as it is. A team takes at most ``MAX_TEAM_SIZE``
    players in one tournament, of whom the ranking counts all or the best (the tournament's
    setting). Returns the series already drawn in which the player sat at a table with a
    player of the new team: the draw kept them apart as it knew them then.
    """
    Tournament.objects.select_for_update().only("pk").get(pk=registration.tournament_id)
    if team is not None and team.pk != registration.team_id:
        teammates = registration.tournament.registrations.filter(team=team)
        if teammates.count() >= MAX_TEAM_SIZE:
            raise ValidationError(
                _("%(team)s already has %(count)s players in this tournament."),
                code="team_full",
                params={"team": team, "count": MAX_TEAM_SIZE},
            )
    registration.team = team
    registration.save(update_fields=["team"])
    standings_touch(tournament_id=registration.tournament_id)  # the team ranking counts who plays for whom
    if team is None:
        return []
    seats = TableAssignment.objects.filter(series__tournament_id=registration.tournament_id)
    tables = set(seats.filter(player_id=registration.player_id).values_list("series__number", "table"))
    teammates = registration.tournament.registrations.filter(team=team).exclude(pk=registration.pk)
    theirs = seats.filter(player__in=teammates.values("player_id")).values_list("series__number", "table")
    return sorted({number for number, table in theirs if (number, table) in tables})


@transaction.atomic
def registration_team_build(
    *,
    tournament: Tournament,
    registrations: Iterable[Registration],
    name: str,
    club: Club | None,
    user: AbstractBaseUser,
) -> Team:
    """A new team of the register made of individuals registered for ``tournament``, who then play for it here.

    The team follows the register's rules (``players.services.team_create``: four or five
    players, none of them in another active team) and is recorded as added by ``user``: as
    long as it plays only in tournaments ``user`` organises, ``user`` may go on changing it.
    """
    Tournament.objects.select_for_update().only("pk").get(pk=tournament.pk)
    chosen = list(
        tournament.registrations.filter(pk__in=[registration.pk for registration in registrations]).select_related(
            "player", "team"
        )
    )
    in_teams = [registration for registration in chosen if registration.team is not None]
    if in_teams:
        raise ValidationError(
            [
                ValidationError(
                    _("%(player)s already plays for %(team)s in this tournament."),
                    code="in_a_team",
                    params={"player": registration.player, "team": registration.team},
                )
                for registration in in_teams
            ]
        )
    team = team_create(name=name, members=[r.player for r in chosen], club=club, created_by=user)
    tournament.registrations.filter(pk__in=[r.pk for r in chosen]).update(team=team)
    standings_touch(tournament_id=tournament.pk)
    return team
