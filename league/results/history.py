"""A protocol's history ("historia zmian", the history of changes): every change of its rows, its
events (totals, completion, confirmation, being sent back, PINs) and its series' closing and
reopening, in words; and what the referee does next after a correction.

Nothing here writes. A changed row is put in words by the tournament's game
(``game_of(tournament).describe``), with the players' names.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from league.games import game_of
from league.models import Series
from league.results.models import DealRowVersion, Protocol, ProtocolEvent, SeriesEvent
from league.results.selectors import table_players

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from league.games.base import GameWords


def person_name(user: AbstractBaseUser) -> str:
    """A person as the history names them: the full name, or the username when the account has none."""
    return user.get_full_name() or user.get_username()


def _values_text(values: dict[str, int]) -> str:
    return " · ".join(f"{seat} {value}".replace("-", "−") for seat, value in values.items())


@dataclass(frozen=True)
class HistoryEntry:
    """One line of a protocol's history: a change of a row (``version``), a protocol's event, or its
    series closed or reopened. ``who`` is a person's full name, or the phone's seat and its player."""

    created: datetime
    action: str
    who: str
    detail: str = ""
    why: str = ""
    version: DealRowVersion | None = None
    grant: str = ""
    # a changed row before and after, in the game's words with the players' names
    old_entry: Any = None
    new_entry: Any = None


AGREEMENT = (ProtocolEvent.Action.CLOSED_BY_AGREEMENT, ProtocolEvent.Action.OPENED_AGAIN)
"""The events of a table closed by the players' agreement or opened again: their details hold the
reason, if any, and the game names them (``GameWords.closed``, ``GameWords.reopened``)."""


def _event_action(event: ProtocolEvent, words: GameWords) -> str:
    said = dict(zip(AGREEMENT, (words.closed, words.reopened), strict=True)).get(event.action)
    return str(said) if said else event.get_action_display()


def _event_detail(event: ProtocolEvent, seat_name: Any) -> str:
    details = event.details or {}
    if event.action == ProtocolEvent.Action.TOTALS and details:
        return _values_text(details)
    if event.action == ProtocolEvent.Action.CONFIRMED and event.user is not None:
        return _("signed on paper by %(seat)s") % {"seat": seat_name(event.seat)}
    if event.action == ProtocolEvent.Action.REOPENED:
        if "deal" in details:
            return _("after the correction of deal %(number)s") % {"number": details["deal"]}
        if "totals" in details:
            return _("after new totals from the paper")
        return _("undone by the referee")
    return ""


def protocol_history(*, protocol: Protocol) -> list[HistoryEntry]:
    """Everything that happened to the protocol, oldest first: its rows, totals, completion,
    confirmation, being sent back, PIN changes, and the closing and reopening of its series."""
    players = table_players(series=protocol.series, table=protocol.table)
    names = {seat: player.full_name for seat, player in players.items()}
    game = game_of(protocol.series.tournament)

    def seat_name(seat: str) -> str:
        player = players.get(seat)
        return f"{seat}: {player.full_name}" if player else seat

    def who(user: AbstractBaseUser | None, seat: str, fallback: str = "—") -> str:
        if user is not None:
            return person_name(user)
        if seat:
            return _("phone at seat %(seat)s") % {"seat": seat_name(seat)}
        return fallback

    entries = [
        HistoryEntry(
            created=version.created,
            action=version.get_action_display(),
            who=who(version.user, version.seat, version.author or "—"),
            why=version.reason,
            version=version,
            old_entry=game.describe(version.old_deal, names),
            new_entry=game.describe(version.new_deal, names),
        )
        for version in protocol.history.select_related("user")
    ]
    entries += [
        HistoryEntry(
            created=event.created,
            action=_event_action(event, game.words),
            who=who(event.user, event.seat),
            detail=_event_detail(event, seat_name),
            why=(event.details or {}).get("reason", "") if event.action in AGREEMENT else "",
            grant="" if event.user else event.grant,
        )
        for event in protocol.events.select_related("user")
    ]
    entries += [
        HistoryEntry(
            created=event.created,
            action=event.get_action_display(),
            who=who(event.user, ""),
            why=event.reason,
        )
        for event in SeriesEvent.objects.filter(series=protocol.series).select_related("user")
    ]
    return sorted(entries, key=lambda entry: entry.created)


@dataclass(frozen=True)
class NextSteps:
    """What the referee does after a correction of an accepted protocol.

    ``closed``: the series is closed, the correction already counts; ``sent_back``: the event that
    sent the protocol back to being entered (whose ``who`` and deal the page names); ``difference``:
    paper minus screen when the paper's totals no longer agree, so new totals are needed.
    """

    closed: bool
    difference: dict[str, int] | None
    sent_back: HistoryEntry | None = None


def protocol_next_steps(*, protocol: Protocol, difference: dict[str, int] | None) -> NextSteps | None:
    """The steps after a correction, or None when nothing was corrected since the protocol was accepted.

    A closed series needs only the paper's corrected totals (its protocols stay confirmed);
    a protocol sent back to being entered needs totals that agree, "complete" and a confirmation
    again. Before the paper's totals are first entered nothing was accepted, so nothing is read.
    """
    if protocol.declared_totals is None:
        return None
    if protocol.series.status == Series.Status.CLOSED:
        return NextSteps(closed=True, difference=difference) if difference else None
    if protocol.status != Protocol.Status.OPEN:
        return None
    # the protocol's last step of acceptance or its undoing (new totals alone do not accept it)
    accepting = [ProtocolEvent.Action.REOPENED, ProtocolEvent.Action.COMPLETED, ProtocolEvent.Action.CONFIRMED]
    last = protocol.events.filter(action__in=accepting).select_related("user").order_by("-created", "-pk").first()
    if last is None or last.action != ProtocolEvent.Action.REOPENED:
        return None
    sent_back = HistoryEntry(
        created=last.created,
        action=last.get_action_display(),
        who=person_name(last.user) if last.user else "—",
        detail=_event_detail(last, str),
    )
    return NextSteps(closed=False, difference=difference, sent_back=sent_back)
