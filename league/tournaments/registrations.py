"""Registration (zapisy) and the tournament day: check-in, fees, withdrawals, late arrivals."""

from __future__ import annotations

from typing import Literal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.models import MAX_PLAYERS, Registration, Series, Tournament
from league.tournaments.selectors import player_current_team, series_next_undrawn
from players.models import Club, Player, Team

Flag = Literal["checked_in", "fee_paid"]


@transaction.atomic
def registration_create(
    *, tournament: Tournament, player: Player, team: Team | None = None, individual: bool = False
) -> Registration:
    """Register a player, for ``team`` or else their current team; ``individual`` plays for none.

    Once series 1 is drawn the player is a late arrival: present, and seated
    from the next series drawn. A tournament takes at most ``MAX_PLAYERS``.
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
    if tournament.series.exclude(status=Series.Status.PLANNED).exists():
        first = series_next_undrawn(tournament=tournament)
        if first is None:
            raise ValidationError(
                _("All series are already drawn, so a late player cannot join any more."),
                code="all_series_drawn",
            )
        registration.first_series = first
        registration.checked_in = True
    registration.save()
    return registration


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
    if number is None:
        return []
    player = registration.player_id
    return sorted(
        set(
            tournament.series.filter(number__gt=number)
            .filter(Q(assignments__player_id=player) | Q(byes__player_id=player))
            .values_list("number", flat=True)
        )
    )
