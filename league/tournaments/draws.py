"""The table draw (losowanie) stored in the database: drawing, redrawing and swapping.

The seating itself comes from the pure ``league.draw`` package; this module
chooses who is drawn, feeds in what earlier series already did, writes seats,
byes and one protocol (protokół stołu, the table's score sheet) with its PIN
per table, and logs every change. Series drawn earlier are passed as meeting
counts rather than fixed series, because players may have withdrawn or
arrived since then.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Literal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import scoring
from league.draw import DrawError, DrawPlayer, SeriesDraw, check_swap, draw_tournament, swap
from league.models import Between, Bye, DrawLog, Registration, Series, TableAssignment, Tournament
from league.results.models import Protocol
from league.tournaments.draw_messages import draw_error_to_validation_error
from league.tournaments.selectors import draw_names, series_seating, tournament_repeats, tournament_seatings
from league.tournaments.services import series_ensure
from players.models import Player
from scoring import SEATS

SEED_DIGITS = 6
# The seeds an organiser may give: far more than anybody reads out, and well within
# the BigIntegerField of Tournament.draw_seed and Series.seed.
SEED = Between(0, 999_999_999)


def new_seed() -> int:
    """A random 6-digit seed: short enough to read out, so anybody can repeat the draw."""
    return secrets.randbelow(9 * 10 ** (SEED_DIGITS - 1)) + 10 ** (SEED_DIGITS - 1)


def individuals_sit_out_first(ruleset: scoring.Ruleset) -> bool:
    """The ruleset's bye order: players without a team sit out before team players (puck)."""
    return ruleset.byes.individuals_first


def _refuse_if_final(series: Series) -> None:
    if series.has_results():
        raise ValidationError(
            _("Series %(number)s already has results, so its draw can no longer be changed."),
            code="series_has_results",
            params={"number": series.number},
        )


def _target_series(tournament: Tournament, numbers: Sequence[int] | Literal["all"]) -> list[Series]:
    """The series to draw: the given numbers, or with "all" every series not drawn yet."""
    series = {s.number: s for s in series_ensure(tournament=tournament)}
    if numbers == "all":
        targets = [s for s in series.values() if not s.is_drawn]
        if not targets:
            raise ValidationError(_("All series are already drawn."), code="nothing_to_draw")
        return targets
    unknown = sorted(set(numbers) - set(series))
    if unknown or not numbers:
        raise ValidationError(
            _("The tournament has series 1 to %(count)s."),
            code="unknown_series",
            params={"count": tournament.series_count},
        )
    return [series[n] for n in sorted(set(numbers))]


def _players_for(tournament: Tournament, targets: list[Series]) -> list[Registration]:
    """Registrations seated in every target series; the set must not change within a batch."""
    registrations = list(tournament.registrations.select_related("player").order_by("player_id"))
    first, *rest = targets
    playing = [r for r in registrations if r.plays_in(first.number)]
    for series in rest:
        if [r for r in registrations if r.plays_in(series.number)] != playing:
            raise ValidationError(
                _(
                    "The players of series %(first)s and %(other)s differ (a withdrawal or a late "
                    "arrival), so draw these series one at a time."
                ),
                code="players_differ",
                params={"first": first.number, "other": series.number},
            )
    return playing


def _history(draws: Sequence[SeriesDraw]) -> tuple[dict[tuple[str, str], int], list[str]]:
    """Meetings per pair and bye players from the series that stay as they are."""
    meetings: dict[tuple[str, str], int] = {}
    for draw in draws:
        for table in draw.tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    key = (a, b) if a <= b else (b, a)
                    meetings[key] = meetings.get(key, 0) + 1
    return meetings, sorted({p for draw in draws for p in draw.byes})


def _write_seats(series: Series, draw: SeriesDraw) -> None:
    """Replace the seats and byes of a series with ``draw``."""
    series.assignments.all().delete()
    series.byes.all().delete()
    TableAssignment.objects.bulk_create(
        TableAssignment(series=series, table=t, seat=seat, player_id=int(player))
        for t, table in enumerate(draw.tables, start=1)
        for seat, player in zip(SEATS, table, strict=True)
    )
    Bye.objects.bulk_create(
        Bye(tournament_id=series.tournament_id, series=series, player_id=int(player)) for player in draw.byes
    )


def _write_protocols(series: Series, draw: SeriesDraw) -> None:
    """One empty protocol, with a new PIN, per table of the new draw.

    The protocols of an earlier draw go: the series has no results (a redraw
    is refused then), so they hold no rows, and their PINs, perhaps already
    handed out, must not open the new tables.
    """
    series.protocols.all().delete()
    Protocol.objects.bulk_create(Protocol(series=series, table=t) for t in range(1, len(draw.tables) + 1))


@transaction.atomic
def series_draw(
    *,
    tournament: Tournament,
    numbers: Sequence[int] | Literal["all"],
    seed: int | None = None,
    user: AbstractBaseUser | None = None,
) -> list[Series]:
    """Draw (or redraw) the given series of the tournament together.

    Present players who have arrived and not withdrawn are seated; teammates
    never share a table; meetings and byes of the other drawn series are
    avoided. Nothing is written when the draw is refused.
    """
    if seed is not None:
        SEED(seed)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    targets = _target_series(tournament, numbers)
    for series in targets:
        _refuse_if_final(series)
    registrations = _players_for(tournament, targets)
    present = {str(r.player_id) for r in registrations}
    meetings, had_bye = _history(tournament_seatings(tournament=tournament, exclude=[s.pk for s in targets]))
    seed = new_seed() if seed is None else seed
    ruleset = tournament.ruleset()
    players = [
        DrawPlayer(
            id=str(r.player_id),
            team=str(r.team_id) if r.team_id else None,
            club=str(r.player.club_id) if r.player.club_id else None,
        )
        for r in registrations
    ]
    try:
        result = draw_tournament(
            players,
            len(targets),
            seed,
            meetings=meetings,
            # Byes of players who have since left cannot matter, and the draw refuses unknown ids.
            had_bye=[p for p in had_bye if p in present],
            individuals_sit_out_first=individuals_sit_out_first(ruleset),
        )
    except DrawError as error:
        player_names, team_names = draw_names(tournament=tournament)
        raise draw_error_to_validation_error(error, player_names=player_names, team_names=team_names) from error

    now = timezone.now()
    for series, drawn in zip(targets, result.series, strict=True):
        action = DrawLog.Action.REDRAW if series.is_drawn else DrawLog.Action.DRAW
        _write_seats(series, drawn)
        _write_protocols(series, drawn)
        series.status = Series.Status.DRAWN
        series.seed = result.seed
        series.algorithm = result.algorithm
        series.drawn_at = now
        series.save(update_fields=["status", "seed", "algorithm", "drawn_at"])
        DrawLog.objects.create(
            series=series,
            action=action,
            seed=result.seed,
            algorithm=result.algorithm,
            repeats=result.repeats,
            user=user,
            details={
                "series": [s.number for s in targets],
                "players": len(players),
                "max_meetings": result.max_meetings,
            },
        )
    tournament.draw_seed = result.seed
    tournament.save(update_fields=["draw_seed", "updated"])
    return targets


@transaction.atomic
def series_swap(
    *,
    series: Series,
    player_a: Player,
    player_b: Player,
    user: AbstractBaseUser | None = None,
    reason: str = "",
) -> None:
    """Exchange the places of two players in one series; a bye moves with its place.

    Refused when it would seat teammates together, when the series has results,
    or when the bye would go to a player who already had one.
    """
    tournament = Tournament.objects.select_for_update().get(pk=series.tournament_id)
    series = Series.objects.get(pk=series.pk)
    _refuse_if_final(series)
    if player_a == player_b:
        raise ValidationError(_("Choose two different players."), code="same_player")
    a, b = str(player_a.pk), str(player_b.pk)
    current = series_seating(series=series)
    teams = {
        str(player): str(team) if team else None
        for player, team in tournament.registrations.values_list("player_id", "team_id")
    }
    try:
        check_swap(current, a, b, teams)
        swapped = swap(current, a, b)
    except DrawError as error:
        player_names, team_names = draw_names(tournament=tournament)
        raise draw_error_to_validation_error(error, player_names=player_names, team_names=team_names) from error

    for player in (player_a, player_b):
        gets_bye = str(player.pk) in swapped.byes and str(player.pk) not in current.byes
        if gets_bye and Bye.objects.filter(tournament=tournament, player=player).exclude(series=series).exists():
            raise ValidationError(
                _("%(player)s already had a bye in this tournament and cannot get another."),
                code="second_bye",
                params={"player": player.full_name},
            )
    # The tables stay, so do their protocols and PINs.
    _write_seats(series, swapped)
    DrawLog.objects.create(
        series=series,
        action=DrawLog.Action.SWAP,
        seed=series.seed,
        algorithm=series.algorithm,
        repeats=tournament_repeats(tournament=tournament),
        user=user,
        details={
            "players": [player_a.pk, player_b.pk],
            "names": [player_a.full_name, player_b.full_name],
            "reason": reason,
        },
    )
