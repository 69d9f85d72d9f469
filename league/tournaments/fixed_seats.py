"""Fixed seats (stałe miejsca) of a tournament: setting, removing and reading them, and what
the draw is told of them.

A fixed seat keeps a registered player at one table (and, when given, at one seat letter) in
every series or in the chosen ones: a wheelchair user at table 1, a referee who plays at the
table by the desk. The pure draw (``league.draw``) takes them as constraints and refuses,
with the reason, when they cannot all hold; so does :func:`fixed_seat_set` when they are set.
Every change is kept in ``FixedSeatChange`` (who, when, why).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from league import draw
from league.models import FixedSeat, FixedSeatChange, Registration, Series, Tournament
from league.tournaments.draw_messages import draw_error_to_validation_error
from league.tournaments.selectors import draw_names
from players.names import player_key

# The refusals whose ``series`` names one series of the draw (1 for its first); elsewhere it is a count.
SERIES_NAMED = frozenset(
    {
        "fixed_table_missing",
        "fixed_seat_twice",
        "fixed_seat_taken",
        "fixed_table_full",
        "fixed_teammates",
        "fixed_seats_block_byes",
        "fixed_seats_no_room",
    }
)


def _state(fixed: FixedSeat | None) -> dict[str, Any] | None:
    """A fixed seat as its history row keeps it: the player's name, table, seat and series."""
    if fixed is None:
        return None
    return {
        "player": fixed.registration.player.full_name,
        "table": fixed.table,
        "seat": fixed.seat,
        "series": list(fixed.series),
    }


def tournament_fixed_seats(*, tournament: Tournament) -> dict[int, FixedSeat]:
    """The tournament's fixed seats by registration id."""
    return {f.registration_id: f for f in FixedSeat.objects.filter(registration__tournament=tournament)}


def draw_fixed_seats(
    *,
    registrations: Sequence[Registration],
    fixed_seats: Mapping[int, FixedSeat],
    numbers: Sequence[int],
    seats: Sequence[str],
) -> list[draw.FixedSeat]:
    """The fixed seats (``fixed_seats``, by registration id) of ``registrations`` in the series
    ``numbers``, as the draw takes them: one per player and series, ``series`` counting from 1
    for ``numbers[0]``."""
    out = []
    for registration in registrations:
        fixed = fixed_seats.get(registration.pk)
        if fixed is None:
            continue
        seat = seats.index(fixed.seat) if fixed.seat else None
        out += [
            draw.FixedSeat(player=str(registration.player_id), table=fixed.table, seat=seat, series=k)
            for k, number in enumerate(numbers, start=1)
            if fixed.holds_in(number)
        ]
    return out


def draw_fixed_seat_error(error: draw.DrawError, *, tournament: Tournament, numbers: Sequence[int]) -> ValidationError:
    """The organiser's message for a refusal of the draw, the series counted as the tournament does."""
    if error.code in SERIES_NAMED:
        params = dict(error.params) | {"series": numbers[error.params["series"] - 1]}
        error = draw.DrawError(error.code, error.message, **params)
    player_names, team_names = draw_names(tournament=tournament)
    return draw_error_to_validation_error(error, player_names=player_names, team_names=team_names)


def fixed_seat_list(*, tournament: Tournament) -> list[FixedSeat]:
    """The tournament's fixed seats, by table then player name in Polish order."""
    fixed = FixedSeat.objects.filter(registration__tournament=tournament).select_related("registration__player")
    return sorted(fixed, key=lambda f: (f.table, player_key(f.registration.player), f.pk))


def _check(tournament: Tournament, wanted: Mapping[int, FixedSeat]) -> None:
    """Refuse ``wanted`` (registration id → fixed seat) when the fixed seats cannot all hold at the
    tables the players registered now fill."""
    registrations = [r for r in tournament.registrations.order_by("player_id") if r.withdrawn_after_series is None]
    numbers = list(range(1, tournament.series_count + 1))
    players = [draw.DrawPlayer(id=str(r.player_id), team=str(r.team_id) if r.team_id else None) for r in registrations]
    try:
        draw.check_fixed_seats(
            players,
            draw_fixed_seats(registrations=registrations, fixed_seats=wanted, numbers=numbers, seats=tournament.seats),
            series=len(numbers),
            table_size=tournament.table_size,
        )
    except draw.DrawError as error:
        raise draw_fixed_seat_error(error, tournament=tournament, numbers=numbers) from error


@transaction.atomic
def fixed_seat_set(
    *,
    registration: Registration,
    table: int,
    seat: str = "",
    series: Sequence[int] = (),
    user: AbstractBaseUser | None = None,
    reason: str = "",
) -> FixedSeat:
    """Keep the registered player at ``table`` (and ``seat``) in ``series`` (empty: every series).

    Refused, changing nothing, when it cannot hold together with the other fixed seats. Setting
    the same fixed seat again changes nothing and writes no history. The series drawn already
    keep their tables: the next draw or redraw of a series keeps the fixed seat.
    """
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    registration = Registration.objects.select_related("player").get(pk=registration.pk)
    numbers = sorted(set(series))
    if seat and seat not in tournament.seats:
        raise ValidationError(
            _("Choose one of the seats %(seats)s, or none."),
            code="invalid_seat",
            params={"seats": ", ".join(tournament.seats)},
        )
    current = FixedSeat.objects.filter(registration=registration).first()
    if current is not None and (current.table, current.seat, current.series) == (table, seat, numbers):
        return current
    old = _state(current)
    fixed = current or FixedSeat(registration=registration)
    fixed.table, fixed.seat, fixed.series = table, seat, numbers
    _check(tournament, tournament_fixed_seats(tournament=tournament) | {registration.pk: fixed})
    fixed.full_clean()
    fixed.save()
    FixedSeatChange.objects.create(
        tournament=tournament,
        action=FixedSeatChange.Action.SET,
        old=old,
        new=_state(fixed),
        user=user,
        reason=reason,
    )
    return fixed


@transaction.atomic
def fixed_seat_remove(*, fixed: FixedSeat, user: AbstractBaseUser | None = None, reason: str = "") -> None:
    """Let the draw seat the player anywhere again; removing a removed fixed seat does nothing."""
    tournament = Tournament.objects.select_for_update().get(pk=fixed.registration.tournament_id)
    current = FixedSeat.objects.filter(pk=fixed.pk).select_related("registration__player").first()
    if current is None:
        return
    FixedSeatChange.objects.create(
        tournament=tournament,
        action=FixedSeatChange.Action.REMOVE,
        old=_state(current),
        new=None,
        user=user,
        reason=reason,
    )
    current.delete()


def series_fixed_seat_breaks(*, series: Series, seating: draw.SeriesDraw) -> list[str]:
    """The players whose fixed seat ``seating`` (a draw of ``series``) does not keep, by name."""
    seats = series.tournament.seats
    fixed = FixedSeat.objects.filter(registration__tournament_id=series.tournament_id).select_related(
        "registration__player"
    )
    broken = []
    for f in fixed:
        if not f.holds_in(series.number):
            continue
        player = str(f.registration.player_id)
        table = next((t for t, members in enumerate(seating.tables, start=1) if player in members), None)
        if table is None:
            continue  # not playing in this series (or on a bye before the fixed seat was set)
        if table != f.table or (f.seat and seating.tables[table - 1].index(player) != seats.index(f.seat)):
            broken.append(f.registration.player)
    return [p.full_name for p in sorted(broken, key=player_key)]
