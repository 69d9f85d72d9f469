"""Referee penalties: the services that write them and the selectors that read them for pages.

A **kara sędziowska** (referee's penalty, docs/rules.md §4.6, psb §16) adjusts one
player's small points, and big points where the ruleset says so
(``Ruleset.penalty_big_points``), in one series, with a reason. It is not a deal
row, so every protocol row still sums to zero; every ranking counts it
(``league.standings.compute`` reads the :class:`~league.results.models.Penalty` rows,
and the standings stamp moves with them).

The services :func:`penalty_add`, :func:`penalty_change` and :func:`penalty_remove`
are the referee's tool: the caller has checked the role (``referee_required``); they
work on a closed series too, where the public standings change at once. Each writes a
:class:`~league.results.models.PenaltyVersion` with who, the old and new values and why,
and takes the series with ``select_for_update``, so two referees' changes follow one
another. A penalty sent twice (a network retry, a double click) is stored once: an add
identical to one the same user made in the last minute returns that penalty instead
of a second one (the models keep no request token, and a real second penalty of the
same size for the same reason within a minute is not a referee's practice; its reason
can say "second").

The selectors read what the pages show: the penalties of a series or of one table
(:func:`series_penalties`), who may be penalised (:func:`penalty_players`), the
changes of the players of one table (:func:`table_penalty_history`), and the
penalties of the series the public may see (:func:`published_penalties`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from league.games import game_of
from league.models import Bye, Series, TableAssignment, Tournament
from league.ranking_lists import points
from league.results.history import person_name
from league.results.models import Penalty, PenaltyVersion
from league.results.services import atomic_write
from league.standings.refresh import standings_touch
from players.models import Gender, Player

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

# How long an identical add by the same user counts as the same request sent again.
REPEAT_WINDOW = timedelta(minutes=1)
# What the model's big points column holds (6 digits, 2 after the point).
BIG_POINTS_LIMIT = Decimal("9999.99")
SMALL_POINTS_LIMIT = 2**31 - 1


def snapshot(penalty: Penalty) -> dict[str, Any]:
    """A penalty's values as its versions keep them (JSON: big points as a number)."""
    return {
        "small_points": penalty.small_points,
        "big_points": points(float(penalty.big_points)),
        "reason": penalty.reason,
    }


def penalty_version_record(
    *,
    penalty: Penalty,
    action: str,
    old: dict[str, Any] | None,
    user: AbstractBaseUser | None,
    reason: str,
) -> PenaltyVersion:
    """Keep one change of ``penalty`` (saved, or just deleted with its pk still set); the import uses it too."""
    return PenaltyVersion.objects.create(
        series_id=penalty.series_id,
        player_id=penalty.player_id,
        penalty_key=penalty.pk,
        action=action,
        old=old,
        new=None if action == PenaltyVersion.Action.DELETE else snapshot(penalty),
        user=user,
        reason=reason,
    )


def _locked_series(series: Series) -> Series:
    """The series taken for writing (its tournament kept: the rules do not change mid-request)."""
    locked = Series.objects.select_for_update().get(pk=series.pk)
    locked.tournament = series.tournament
    return locked


def _checked_values(series: Series, *, small_points: int, big_points: Decimal | int | float, reason: str) -> Decimal:
    """Refuse what no penalty may be; the big points as the database keeps them."""
    errors: dict[str, list[ValidationError]] = {}
    big = Decimal(str(big_points))
    if not reason.strip():
        errors["reason"] = [ValidationError(_("Give the reason for the penalty."), code="reason")]
    if abs(small_points) > SMALL_POINTS_LIMIT:
        errors["small_points"] = [ValidationError(_("This number is too large."), code="too_large")]
    if big and not game_of(series.tournament).standing_rules(series.tournament).penalty_big_points:
        message = _("The rules of this tournament allow penalties in small points only.")
        errors["big_points"] = [ValidationError(message, code="big_points_not_allowed")]
    elif abs(big) > BIG_POINTS_LIMIT or big != round(big, 2):
        message = _("Give big points of at most %(limit)s, with at most two decimal places.")
        errors["big_points"] = [ValidationError(message, code="big_points", params={"limit": BIG_POINTS_LIMIT})]
    elif not small_points and not big:
        errors["small_points"] = [
            ValidationError(_("A penalty changes the small or the big points: give a number other than 0."), "zero")
        ]
    if errors:
        raise ValidationError(errors)
    return big


def _check_player(series: Series, player: Player) -> None:
    """The player played at a table of the series or had its bye."""
    played = TableAssignment.objects.filter(series=series, player=player).exists()
    if not played and not Bye.objects.filter(series=series, player=player).exists():
        if player.gender == Gender.WOMAN:
            message = pgettext("woman", "%(player)s neither played nor had a bye in series %(series)s.")
        else:
            message = pgettext("man", "%(player)s neither played nor had a bye in series %(series)s.")
        params = {"player": player.full_name, "series": series.number}
        raise ValidationError({"player": [ValidationError(message, code="not_in_series", params=params)]})


def _after_change(series: Series) -> None:
    # the public standings count closed series only: a penalty in an open one changes them later
    if series.status == Series.Status.CLOSED:
        standings_touch(tournament_id=series.tournament_id)


@atomic_write
def penalty_add(
    *,
    series: Series,
    player: Player,
    small_points: int,
    big_points: Decimal | int | float = 0,
    reason: str,
    user: AbstractBaseUser | None,
) -> Penalty:
    """A new penalty of ``player`` in ``series``; the same add repeated within a minute returns the first."""
    series = _locked_series(series)
    big = _checked_values(series, small_points=small_points, big_points=big_points, reason=reason)
    _check_player(series, player)
    reason = reason.strip()
    recent = PenaltyVersion.objects.filter(
        series=series,
        player=player,
        action=PenaltyVersion.Action.ADD,
        user=user,
        created__gte=timezone.now() - REPEAT_WINDOW,
    ).values_list("penalty_key", flat=True)
    same = Penalty.objects.filter(
        pk__in=recent, series=series, player=player, small_points=small_points, big_points=big, reason=reason
    ).first()
    if same is not None:
        return same
    penalty = Penalty.objects.create(
        series=series, player=player, small_points=small_points, big_points=big, reason=reason
    )
    penalty_version_record(penalty=penalty, action=PenaltyVersion.Action.ADD, old=None, user=user, reason=reason)
    _after_change(series)
    return penalty


def _reason_of_change(reason: str) -> str:
    if not reason.strip():
        raise ValidationError(
            {"change_reason": [ValidationError(_("Give the reason for this change."), code="change_reason")]}
        )
    return reason.strip()


@atomic_write
def penalty_change(
    *,
    penalty: Penalty,
    small_points: int,
    big_points: Decimal | int | float = 0,
    reason: str,
    change_reason: str,
    user: AbstractBaseUser | None,
) -> Penalty:
    """New points or a new reason for ``penalty``; ``change_reason`` says why (kept in its version).

    Changing nothing is no change: no version is written.
    """
    series = _locked_series(penalty.series)
    big = _checked_values(series, small_points=small_points, big_points=big_points, reason=reason)
    why = _reason_of_change(change_reason)
    penalty = Penalty.objects.get(pk=penalty.pk)
    old = snapshot(penalty)
    penalty.small_points, penalty.big_points, penalty.reason = small_points, big, reason.strip()
    if snapshot(penalty) == old:
        return penalty
    penalty.save(update_fields=["small_points", "big_points", "reason", "updated"])
    penalty_version_record(penalty=penalty, action=PenaltyVersion.Action.CHANGE, old=old, user=user, reason=why)
    _after_change(series)
    return penalty


@atomic_write
def penalty_remove(*, penalty: Penalty, change_reason: str, user: AbstractBaseUser | None) -> None:
    """Take ``penalty`` back; its versions keep what it was and why it went.

    Removing a penalty already gone (the same POST sent again) does nothing.
    """
    series = _locked_series(penalty.series)
    why = _reason_of_change(change_reason)
    current = Penalty.objects.filter(pk=penalty.pk).first()
    if current is None:
        return
    old, key = snapshot(current), current.pk
    current.delete()
    current.pk = key
    penalty_version_record(penalty=current, action=PenaltyVersion.Action.DELETE, old=old, user=user, reason=why)
    _after_change(series)


# --- reads ------------------------------------------------------------------------


@dataclass(frozen=True)
class PenaltyLine:
    """A penalty as the pages list it: who was penalised, by how much and why, and its last change."""

    penalty: Penalty
    player: Player
    small_points: int
    big_points: float | int
    reason: str
    who: str = ""
    when: datetime | None = None
    table: int | None = None  # the player's table in the series; None for a bye


def _lines(penalties: QuerySet[Penalty], *, with_changes: bool) -> list[PenaltyLine]:
    """The penalties as lines in their order, each with its table (and its last change: who, when)."""
    penalties = list(penalties.select_related("player", "series").order_by("series__number", "created", "pk"))
    if not penalties:
        return []
    series_ids = {p.series_id for p in penalties}
    seated = TableAssignment.objects.filter(series__in=series_ids).values_list("series_id", "player_id", "table")
    tables = {(series, player): table for series, player, table in seated}
    last: dict[int, PenaltyVersion] = {}
    if with_changes:
        versions = PenaltyVersion.objects.filter(
            series__in=series_ids, penalty_key__in=[p.pk for p in penalties]
        ).select_related("user")
        for version in versions.order_by("created", "pk"):
            last[version.penalty_key] = version
    return [
        PenaltyLine(
            penalty=p,
            player=p.player,
            small_points=p.small_points,
            big_points=points(float(p.big_points)),
            reason=p.reason,
            who=_who(last[p.pk].user) if p.pk in last else "",
            when=last[p.pk].created if p.pk in last else None,
            table=tables.get((p.series_id, p.player_id)),
        )
        for p in penalties
    ]


def _who(user: AbstractBaseUser | None) -> str:
    """Who made a change: a person, or a dash for an import without a user (or an account since deleted)."""
    return person_name(user) if user is not None else "—"


def _table_players(series: Series, table: int) -> QuerySet:
    return TableAssignment.objects.filter(series=series, table=table).values("player_id")


def series_penalties(*, series: Series, table: int | None = None) -> list[PenaltyLine]:
    """The series' penalties (of the players at ``table`` only, when given), oldest first, with their last change."""
    penalties = Penalty.objects.filter(series=series)
    if table is not None:
        penalties = penalties.filter(player__in=_table_players(series, table))
    return _lines(penalties, with_changes=True)


def published_penalties(*, tournament: Tournament, series: Series | None = None) -> list[PenaltyLine]:
    """The penalties the public may see: in closed series with their results published
    (of ``series`` alone, if given)."""
    visible = Penalty.objects.filter(
        series__tournament=tournament, series__status=Series.Status.CLOSED, series__results_published=True
    )
    if series is not None:
        visible = visible.filter(series=series)
    return _lines(visible, with_changes=False)


def penalty_players(
    *, series: Series, table: int | None = None, seated: Mapping[str, Player] | None = None
) -> list[tuple[Player, str]]:
    """Who may be penalised in the series, with how a list names them: the players at its tables
    in table and seat order, then its byes (one query); at ``table`` only its four players,
    taken from ``seated`` (seat → player) when the page has read them already."""

    def label(player: Player, table: int | None, seat: str) -> str:
        if table is None:
            return _("bye: %(name)s") % {"name": player}
        return _("table %(table)s, %(seat)s: %(name)s") % {"table": table, "seat": seat, "name": player}

    if seated is not None:
        return [(player, label(player, table, seat)) for seat, player in seated.items()]
    place = TableAssignment.objects.filter(series=series, player=OuterRef("pk"))
    players = Player.objects.annotate(table=Subquery(place.values("table")), seat=Subquery(place.values("seat")))
    if table is None:
        bye = Bye.objects.filter(series=series, player=OuterRef("pk"))
        players = players.filter(Q(table__isnull=False) | Exists(bye))
    else:
        players = players.filter(table=table)
    players = players.order_by(F("table").asc(nulls_last=True), "seat", "last_name", "first_name", "pk")
    return [(player, label(player, player.table, player.seat)) for player in players]


@dataclass(frozen=True)
class PenaltyChange:
    """One line of a table's history of penalties: a version with its player's name."""

    version: PenaltyVersion
    player: Player
    who: str


def table_penalty_history(*, series: Series, table: int) -> list[PenaltyChange]:
    """Every change of a penalty of the players at ``table`` in ``series``, oldest first."""
    versions = (
        PenaltyVersion.objects.filter(series=series, player__in=_table_players(series, table))
        .select_related("player", "user")
        .order_by("created", "pk")
    )
    return [PenaltyChange(v, v.player, _who(v.user)) for v in versions]
