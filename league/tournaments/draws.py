"""The table draw (losowanie) stored in the database: drawing, redrawing and swapping.

The seating itself comes from the pure ``league.draw`` package; this module
chooses who is drawn, feeds in what earlier series already did, writes seats
(A–D, or A–C at the Preferans tables of three of ``Tournament.table_size``),
byes and one protocol (protokół stołu, the table's score sheet) with its PIN
per table, and logs every change. Series drawn earlier are passed as meeting
counts rather than fixed series, because players may have withdrawn or
arrived since then.

An **outdated** series is drawn but unplayed (no result entered in any of its
protocols) and seats other players than those who play in it now: somebody
arrived late (``Registration.first_series``), withdrew
(``withdrawn_after_series``) or was unticked at check-in after the draw.
A **repeat** (repeated meeting) is every meeting of a pair after its first.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, groupby
from typing import Any, Literal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import scoring
from league.draw import DrawError, DrawPlayer, DrawResult, SeriesDraw, check_swap, count_repeats, draw_tournament, swap
from league.games import game_of
from league.models import SEED, Bye, DrawLog, Registration, Series, TableAssignment, Tournament
from league.printing.models import PrintJob
from league.rating.selectors import current_ratings
from league.results.models import Protocol
from league.standings.refresh import standings_touch
from league.tournaments.draw_messages import draw_error_to_validation_error
from league.tournaments.fixed_seats import (
    draw_fixed_seat_error,
    draw_fixed_seats,
    series_fixed_seat_breaks,
    tournament_fixed_seats,
)
from league.tournaments.selectors import (
    SeriesSeats,
    draw_names,
    series_seating,
    tournament_repeats,
    tournament_seatings,
    tournament_series_seats,
)
from league.tournaments.services import series_ensure
from players.models import Player
from scoring.preferans import TournamentRules

SEED_DIGITS = 6


def new_seed() -> int:
    """A random 6-digit seed: short enough to read out, so anybody can repeat the draw."""
    return secrets.randbelow(9 * 10 ** (SEED_DIGITS - 1)) + 10 ** (SEED_DIGITS - 1)


def individuals_sit_out_first(ruleset: scoring.Ruleset | TournamentRules) -> bool:
    """The ruleset's bye order: players without a team sit out before team players (puck)."""
    return ruleset.byes.individuals_first


def refuse_if_final(series: Series) -> None:
    if series.has_results():
        raise ValidationError(
            _("Series %(number)s already has results, so its draw can no longer be changed."),
            code="series_has_results",
            params={"number": series.number},
        )


def _target_series(tournament: Tournament, numbers: Sequence[int] | Literal["all", "next"]) -> list[Series]:
    """The series to draw: the given numbers, with "all" every series not drawn yet, with "next" the first."""
    series = {s.number: s for s in series_ensure(tournament=tournament)}
    if numbers in ("all", "next"):
        targets = [series[n] for n in sorted(series) if not series[n].is_drawn]
        if not targets:
            raise ValidationError(_("All series are already drawn."), code="nothing_to_draw")
        return targets if numbers == "all" else targets[:1]
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


def series_player_count(*, tournament: Tournament, number: int) -> int:
    """The players a draw of series ``number`` would seat or give a bye now (present, arrived, not withdrawn)."""
    return sum(r.plays_in(number) for r in tournament.registrations.all())


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


def _draw(
    *,
    tournament: Tournament,
    registrations: list[Registration],
    targets: list[Series],
    seed: int,
    history: Sequence[SeriesDraw],
) -> DrawResult:
    """The series ``targets`` drawn anew for ``registrations``, keeping their fixed seats and
    avoiding the meetings and byes of ``history``; series 1 seeded by the current ratings of the
    tournament's game where the tournament asks for it (``seeded_draw``)."""
    present_ids = [r.player_id for r in registrations]
    present = {str(pk) for pk in present_ids}
    meetings, had_bye = _history(history)
    players = [
        DrawPlayer(
            id=str(r.player_id),
            team=str(r.team_id) if r.team_id else None,
            club=str(r.player.club_id) if r.player.club_id else None,
        )
        for r in registrations
    ]
    numbers = [s.number for s in targets]
    # Rozstawienie seeds the tournament's first series only; later ones are drawn as always.
    strengths = (
        {str(pk): float(value) for pk, value in current_ratings(game=tournament.game, player_ids=present_ids).items()}
        if tournament.seeded_draw and numbers[0] == 1
        else None
    )
    try:
        return draw_tournament(
            players,
            len(targets),
            seed,
            meetings=meetings,
            # Byes of players who have since left cannot matter, and the draw refuses unknown ids.
            had_bye=[p for p in had_bye if p in present],
            individuals_sit_out_first=individuals_sit_out_first(game_of(tournament).standing_rules(tournament)),
            table_size=tournament.table_size,
            strengths=strengths,
            fixed_seats=draw_fixed_seats(
                registrations=registrations,
                fixed_seats=tournament_fixed_seats(tournament=tournament),
                numbers=numbers,
                seats=tournament.seats,
            ),
        )
    except DrawError as error:
        raise draw_fixed_seat_error(error, tournament=tournament, numbers=numbers) from error


def _save_draw(
    *,
    tournament: Tournament,
    targets: list[Series],
    result: DrawResult,
    players: int,
    user: AbstractBaseUser | None,
    details: dict[str, Any] | None = None,
) -> None:
    """Write the seats, byes and new protocols of ``targets`` and log each of them."""
    now = timezone.now()
    for k, (series, drawn) in enumerate(zip(targets, result.series, strict=True)):
        action = DrawLog.Action.REDRAW if series.is_drawn else DrawLog.Action.DRAW
        # the ratings a seeded series was drawn by: with the seed they explain and reproduce it
        seeded = {"seeded_by": result.seeded_by} if k == 0 and result.seeded_by is not None else {}
        # what the redraw replaces, so that it can be undone while nothing is played
        previous = {"previous": kept_draw(series)} if series.is_drawn else {}
        _write_seats(series, drawn, seats=tournament.seats)
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
                "players": players,
                "max_meetings": result.max_meetings,
                **(details or {}),
                **seeded,
                **previous,
                "draw": kept_draw(series),
            },
        )
    tournament.draw_seed = result.seed
    tournament.save(update_fields=["draw_seed", "updated"])


def kept_draw(series: Series) -> dict[str, Any]:
    """The series' draw as it stands, in the form the draw log keeps it (the draw history,
    historia losowań): its seed, tables, byes, and each table's PIN and token (printed on the
    protocols and the QR codes), so that restoring it makes the sheets printed for it right again."""
    seating = series_seating(series=series)
    return {
        "seed": series.seed,
        "algorithm": series.algorithm,
        "tables": [list(table) for table in seating.tables],
        "byes": list(seating.byes),
        "protocols": list(series.protocols.order_by("table").values_list("table", "pin", "table_token")),
    }


def _write_seats(series: Series, draw: SeriesDraw, *, seats: Sequence[str]) -> None:
    """Replace the seats and byes of a series with ``draw``, its tables taking the letters ``seats``."""
    series.assignments.all().delete()
    series.byes.all().delete()
    TableAssignment.objects.bulk_create(
        TableAssignment(series=series, table=t, seat=seat, player_id=int(player))
        for t, table in enumerate(draw.tables, start=1)
        for seat, player in zip(seats, table, strict=True)
    )
    Bye.objects.bulk_create(
        Bye(tournament_id=series.tournament_id, series=series, player_id=int(player)) for player in draw.byes
    )
    standings_touch(tournament_id=series.tournament_id)  # a bye counts in the standings


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
    numbers: Sequence[int] | Literal["all", "next"],
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
        refuse_if_final(series)
    registrations = _players_for(tournament, targets)
    result = _draw(
        tournament=tournament,
        registrations=registrations,
        targets=targets,
        seed=new_seed() if seed is None else seed,
        history=tournament_seatings(tournament=tournament, exclude=[s.pk for s in targets]),
    )
    _save_draw(tournament=tournament, targets=targets, result=result, players=len(registrations), user=user)
    return targets


# --- outdated series: a late arrival or a withdrawal after the draw ------------------


@dataclass(frozen=True)
class OutdatedDraw:
    """The unplayed series to draw again, from the first outdated one on, and who changed."""

    series: list[Series]
    arrived: list[Player]
    left: list[Player]

    @property
    def numbers(self) -> list[int]:
        return [s.number for s in self.series]


@dataclass(frozen=True)
class Redraw:
    """The outdated series drawn again (in a dry run or for real) and what it does to the repeats."""

    outdated: OutdatedDraw
    seed: int
    repeats_before: int
    repeats_after: int
    groups: list[tuple[list[Series], list[Registration], DrawResult]]


def series_outdated(*, tournament: Tournament, seats: Sequence[SeriesSeats] | None = None) -> OutdatedDraw | None:
    """The drawn, unplayed series whose seats no longer match who plays; None when all match.

    Unplayed series before the first outdated one stay (their players are
    right and their tables may already be announced); played ones always stay.
    ``seats`` are the tournament's series as the draw page already loaded them.
    """
    if seats is None:
        seats = tournament_series_seats(tournament=tournament)
    unplayed = [item for item in seats if item.series.is_drawn and not item.series.has_results()]
    if not unplayed:
        return None
    registrations = list(tournament.registrations.select_related("player"))
    people = {r.player_id: r.player for r in registrations}
    arrived: set[int] = set()
    left: set[int] = set()
    first = None
    for item in unplayed:
        playing = {r.player_id for r in registrations if r.plays_in(item.series.number)}
        drawn = {player.pk for player in item.players}
        people |= {player.pk: player for player in item.players if player.pk not in people}
        if playing != drawn:
            first = item.series.number if first is None else first
            arrived |= playing - drawn
            left |= drawn - playing
    if first is None:
        return None

    def by_name(ids: set[int]) -> list[Player]:
        return sorted((people[pk] for pk in ids), key=lambda p: (p.last_name, p.first_name, p.pk))

    return OutdatedDraw(
        series=[item.series for item in unplayed if item.series.number >= first],
        arrived=by_name(arrived),
        left=by_name(left),
    )


def _redraw(*, tournament: Tournament, outdated: OutdatedDraw, seed: int) -> Redraw:
    """Draw the outdated series again without writing; consecutive series with the same
    players are drawn together, each run avoiding the meetings of the runs before it."""
    registrations = list(tournament.registrations.select_related("player").order_by("player_id"))
    history = tournament_seatings(tournament=tournament, exclude=[s.pk for s in outdated.series])
    groups = []
    runs = groupby(outdated.series, key=lambda s: [r.pk for r in registrations if r.plays_in(s.number)])
    for _same_players, run in runs:
        targets = list(run)
        playing = [r for r in registrations if r.plays_in(targets[0].number)]
        result = _draw(tournament=tournament, registrations=playing, targets=targets, seed=seed, history=history)
        history += result.series
        groups.append((targets, playing, result))
    return Redraw(
        outdated=outdated,
        seed=seed,
        repeats_before=tournament_repeats(tournament=tournament),
        repeats_after=count_repeats(history),
        groups=groups,
    )


def series_redraw_preview(*, tournament: Tournament, outdated: OutdatedDraw, seed: int) -> Redraw:
    """What drawing the outdated series again with ``seed`` gives, written nowhere.

    The draw is reproducible, so the redraw with the same seed and players
    seats exactly what this preview counted.
    """
    return _redraw(tournament=tournament, outdated=outdated, seed=seed)


@transaction.atomic
def series_redraw_outdated(
    *,
    tournament: Tournament,
    seed: int | None = None,
    numbers: Sequence[int] | None = None,
    user: AbstractBaseUser | None = None,
) -> Redraw:
    """Draw every outdated series again in one go, keeping the played ones, and log it.

    ``seed`` and ``numbers`` are those the preview showed, so the tables are the
    ones it counted; when play or the players changed the series meanwhile, the
    redraw is refused and the organiser looks at the new preview.
    """
    seed = new_seed() if seed is None else seed
    SEED(seed)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    outdated = series_outdated(tournament=tournament)
    if outdated is None:
        raise ValidationError(_("Every drawn series already seats the players who play in it."), code="up_to_date")
    if numbers is not None and list(numbers) != outdated.numbers:
        raise ValidationError(
            _("Meanwhile the series to draw again became %(numbers)s; check the offer again."),
            code="offer_changed",
            params={"numbers": ", ".join(str(n) for n in outdated.numbers)},
        )
    redraw = _redraw(tournament=tournament, outdated=outdated, seed=seed)
    details = {
        "cause": "players_changed",
        "arrived": [p.full_name for p in outdated.arrived],
        "left": [p.full_name for p in outdated.left],
        "repeats_before": redraw.repeats_before,
        "repeats_after": redraw.repeats_after,
    }
    for targets, playing, result in redraw.groups:
        _save_draw(
            tournament=tournament, targets=targets, result=result, players=len(playing), user=user, details=details
        )
    return redraw


# --- swaps ---------------------------------------------------------------------------


class RepeatedMeetings(ValidationError):
    """A legal swap that seats together players who share a table in another series too.

    It is saved only when the organiser confirms it; the messages name the pairs.
    """


def _swap_repeats(series: Series, current: SeriesDraw, swapped: SeriesDraw) -> list[ValidationError]:
    """A warning for every pair the swap newly seats together who also sit together in another series."""
    before = {frozenset(p) for table in current.tables for p in combinations(table, 2)}
    new_pairs = {frozenset(p) for table in swapped.tables for p in combinations(table, 2)} - before
    if not new_pairs:
        return []
    others = (
        TableAssignment.objects.filter(series__tournament_id=series.tournament_id)
        .exclude(series=series)
        .order_by("series__number", "table")
        .values_list("series__number", "table", "player_id")
    )
    found: list[tuple[str, str, int]] = []
    for (number, _table), seats in groupby(others, key=lambda row: row[:2]):
        players = sorted(str(row[2]) for row in seats)
        found += [(a, b, number) for a, b in combinations(players, 2) if frozenset((a, b)) in new_pairs]
    if not found:
        return []
    people = Player.objects.filter(pk__in={int(p) for a, b, _number in found for p in (a, b)})
    full = {str(p.pk): p.full_name for p in people}
    warnings = []
    for a, b, number in sorted(found, key=lambda f: (f[2], full[f[0]], full[f[1]])):
        message = (
            _("%(player)s and %(other)s have already played together in series %(number)s.")
            if number < series.number
            else _("%(player)s and %(other)s also sit together in series %(number)s.")
        )
        warnings.append(
            ValidationError(
                message, code="repeated_meeting", params={"player": full[a], "other": full[b], "number": number}
            )
        )
    return warnings


def _refuse_moving_fixed_seats(series: Series, current: SeriesDraw, swapped: SeriesDraw) -> None:
    """A swap may not take a player off the fixed seat (stałe miejsce) he has in this series."""
    already = set(series_fixed_seat_breaks(series=series, seating=current))
    moved = [name for name in series_fixed_seat_breaks(series=series, seating=swapped) if name not in already]
    if moved:
        raise ValidationError(
            _("%(players)s: the fixed seat in this series does not let this swap move them; remove it first."),
            code="fixed_seat_moved",
            params={"players": ", ".join(moved)},
        )


@transaction.atomic
def series_swap(
    *,
    series: Series,
    player_a: Player,
    player_b: Player,
    user: AbstractBaseUser | None = None,
    reason: str = "",
    allow_repeats: bool = False,
) -> None:
    """Exchange the places of two players in one series; a bye moves with its place.

    Refused when it would seat teammates together, when the series has results,
    when it moves a player off his fixed seat (stałe miejsce) of this series,
    or when the bye would go to a player who already had one. A swap that seats
    together players who also sit together in another series raises
    ``RepeatedMeetings`` unless ``allow_repeats`` (the organiser confirmed it).
    """
    tournament = Tournament.objects.select_for_update().get(pk=series.tournament_id)
    series = Series.objects.get(pk=series.pk)
    refuse_if_final(series)
    if player_a == player_b:
        raise ValidationError(_("Choose two different players."), code="same_player")
    a, b = str(player_a.pk), str(player_b.pk)
    current = series_seating(series=series)
    teams = {
        str(player): str(team) if team else None
        for player, team in tournament.registrations.values_list("player_id", "team_id")
    }
    try:
        swapped = swap(current, a, b)
        _refuse_moving_fixed_seats(series, current, swapped)
        check_swap(current, a, b, teams)
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
    if not allow_repeats and (warnings := _swap_repeats(series, current, swapped)):
        raise RepeatedMeetings(warnings)
    # The tables stay, so do their protocols and PINs.
    _write_seats(series, swapped, seats=tournament.seats)
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
            "draw": kept_draw(series),
        },
    )


# --- undoing a redraw ----------------------------------------------------------------


def undoable_redraws(*, series: QuerySet[Series]) -> dict[int, DrawLog]:
    """Per series number of ``series``, the redraw that can still be undone, in one query: the
    series' last draw log entry, if that is a redraw which kept the draw before it, while no deal
    of the series is played."""
    last = DrawLog.objects.filter(series=OuterRef("pk")).order_by("-created", "-pk").values("pk")[:1]
    latest = series.filter(results_entered=False).annotate(last=Subquery(last)).values("last")
    redraws = DrawLog.objects.filter(pk__in=latest, action=DrawLog.Action.REDRAW).select_related("series")
    return {log.series.number: log for log in redraws if "previous" in log.details}


@transaction.atomic
def series_redraw_undo(*, series: Series, user: AbstractBaseUser | None = None) -> Series:
    """Put back the draw that the series' last redraw replaced: the same tables, byes, seed,
    and the same PINs and table links, so the sheets printed before the redraw are right again.

    Refused once a deal is played, or when the series' last change is not a redraw (a swap
    after it, or the redraw already undone).
    """
    tournament = Tournament.objects.select_for_update().get(pk=series.tournament_id)
    series = Series.objects.get(pk=series.pk)
    refuse_if_final(series)
    redraw = undoable_redraws(series=Series.objects.filter(pk=series.pk)).get(series.number)
    if redraw is None:
        raise ValidationError(
            _("Series %(number)s has no redraw to undo: its draw has changed since, or it was never drawn again."),
            code="nothing_to_undo",
            params={"number": series.number},
        )
    return series_put_back(
        tournament=tournament,
        series=series,
        kept=redraw.details["previous"],
        user=user,
        details={"undone_seed": redraw.seed},
    )


def series_put_back(
    *,
    tournament: Tournament,
    series: Series,
    kept: dict[str, Any],
    user: AbstractBaseUser | None,
    details: dict[str, Any],
) -> Series:
    """Write back a draw the log kept (``kept_draw``): its tables, byes, seed, and its protocols
    with their PINs and table links; log it as restored, with ``details`` saying which.
    The caller holds the tournament's lock and has refused a series with results."""
    _write_seats(
        series,
        SeriesDraw(tables=[tuple(table) for table in kept["tables"]], byes=kept["byes"]),
        seats=tournament.seats,
    )
    series.protocols.all().delete()
    Protocol.objects.bulk_create(
        Protocol(series=series, table=table, pin=pin, table_token=token) for table, pin, token in kept["protocols"]
    )
    series.seed = kept["seed"]
    series.algorithm = kept["algorithm"]
    series.save(update_fields=["seed", "algorithm"])
    DrawLog.objects.create(
        series=series,
        action=DrawLog.Action.UNDO,
        seed=series.seed,
        algorithm=series.algorithm,
        repeats=tournament_repeats(tournament=tournament),
        user=user,
        details={**details, "draw": kept_draw(series)},
    )
    return series


# --- what a redraw makes wrong -------------------------------------------------------


@dataclass(frozen=True)
class RedrawRisk:
    """What drawing a series again makes wrong, for the organiser to read before confirming."""

    published: bool  # the players may have seen their tables on the public pages
    printed: list[str]  # the print jobs of the series' sheets (their names), now wrong
    phones: int  # tables opened on a phone with the PIN that goes
    swaps: list[DrawLog]  # the swaps since the series was drawn, undone by a new draw

    @property
    def any(self) -> bool:
        return self.published or bool(self.printed) or bool(self.phones) or bool(self.swaps)


def series_redraw_risk(*, series: Series) -> RedrawRisk:
    """What a redraw of ``series`` would make wrong: the published draw, the printed sheets,
    the phones holding the old PINs and the swaps made by hand since the series was drawn."""
    drawn = series.draw_logs.exclude(action=DrawLog.Action.SWAP).order_by("-created", "-pk").first()
    swaps = series.draw_logs.filter(action=DrawLog.Action.SWAP)
    if drawn is not None:
        swaps = swaps.filter(pk__gt=drawn.pk)
    printed = PrintJob.objects.filter(series=series, created__gte=series.drawn_at) if series.drawn_at else []
    return RedrawRisk(
        published=series.tournament.draw_published,
        printed=sorted({job.get_kind_display() for job in printed}),
        phones=series.protocols.filter(contacts__isnull=False).distinct().count(),
        swaps=list(swaps.order_by("created", "pk")),
    )
