"""Reads of online sign-ups: the window's state, the public register search, the organiser's list."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime, time

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from league.models import Tournament
from league.signups.models import SignUp, SignUpChange, SignUpWindow
from players.models import Player, search_key
from players.names import player_key

# Register entries the public search shows: enough for a surname typed to its third letter.
PUBLIC_SEARCH_LIMIT = 15
# What the public may read of a player of the register: a name to recognise oneself by, and where from.
PUBLIC_PLAYER_FIELDS = ("pk", "first_name", "last_name", "club__name", "club__city")


def tournament_start(*, tournament: Tournament) -> datetime:
    """When the tournament starts (its date and start time in the league's time zone; midnight of
    its day when it has no start time): sign-ups close by then and the players' private links
    expire then, the tournament belongs to the organiser's list."""
    return timezone.make_aware(datetime.combine(tournament.date, tournament.start_time or time.min))


def signup_window(*, tournament: Tournament) -> SignUpWindow | None:
    window = SignUpWindow.objects.filter(tournament=tournament).first()
    if window is not None:
        window.tournament = tournament  # read already: signups_open asks for its date
    return window


def open_signup_window(*, tournament: Tournament) -> SignUpWindow | None:
    """The tournament's window if it takes sign-ups now (the public page links to the form then)."""
    window = signup_window(tournament=tournament)
    return window if signups_open(window=window, now=timezone.now()) else None


def signups_open(*, window: SignUpWindow | None, now: datetime) -> bool:
    """Whether the window takes sign-ups at ``now``: opened, before its closing time, before the day."""
    return (
        window is not None
        and window.is_open
        and now < window.closes_at
        and now < tournament_start(tournament=window.tournament)
    )


@dataclass(frozen=True)
class PublicPlayer:
    """A player of the register as the public sign-up page shows them: name, club and city only."""

    pk: int
    first_name: str
    last_name: str
    club: str
    city: str

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


def _public(players: QuerySet[Player]) -> list[PublicPlayer]:
    """``players`` with only what the public may read of them, in Polish name order."""
    found = [
        PublicPlayer(row["pk"], row["first_name"], row["last_name"], row["club__name"] or "", row["club__city"] or "")
        for row in players.values(*PUBLIC_PLAYER_FIELDS)
    ]
    return sorted(found, key=player_key)


def register_search(*, text: str) -> list[PublicPlayer]:
    """Active players whose name holds every word of ``text``, diacritics and case aside ("kakol"
    finds Kąkol), at most ``PUBLIC_SEARCH_LIMIT``. Only the name, club and city are read: nothing
    else of the register reaches a page everyone can open, and the licence number is not searched."""
    words = search_key(text).split()
    if not words:
        return []
    condition = Q(active=True)
    for word in words:
        condition &= Q(search_name__contains=word)
    # a player who appears by initials only is found by their full name typed in full, never by a part
    condition &= Q(public_initials=False) | Q(search_name=" ".join(words))
    return _public(Player.objects.filter(condition).order_by("last_name", "first_name")[:PUBLIC_SEARCH_LIMIT])


def public_player(*, pk: int) -> PublicPlayer | None:
    """One active player of the register as :func:`register_search` shows them, or None."""
    return next(iter(_public(Player.objects.filter(pk=pk, active=True))), None)


def namesakes(*, first_name: str, last_name: str) -> list[PublicPlayer]:
    """Players of the register with this very name, diacritics and case aside: the person signing
    up is probably one of them, and is asked before a sign-up of a new person is sent."""
    return _public(Player.objects.filter(active=True, search_name=search_key(f"{first_name} {last_name}")))


@dataclass
class SignUpRow:
    """A sign-up on the organiser's list, with the register's players it may be (``candidates``)
    when it names none yet."""

    signup: SignUp
    candidates: list[Player]


def signup_list(*, tournament: Tournament) -> tuple[list[SignUpRow], Counter]:
    """The tournament's sign-ups in the order they came, each with its history, and the count of each
    status: three queries however many sign-ups (the sign-ups, their histories, and the namesakes of
    all unmatched ones at once)."""
    history = Prefetch("changes", queryset=SignUpChange.objects.select_related("user"))
    signups = list(
        tournament.signups.select_related("player", "player__club", "club", "team", "registration", "privacy_notice")
        .prefetch_related(history)
        .order_by("created", "pk")
    )
    unmatched = {signup.search_name for signup in signups if signup.player_id is None}
    by_name: dict[str, list[Player]] = defaultdict(list)
    if unmatched:
        for player in Player.objects.filter(active=True, search_name__in=unmatched).select_related("club"):
            by_name[player.search_name].append(player)
    rows = [
        SignUpRow(signup, sorted(by_name[signup.search_name], key=player_key) if signup.player_id is None else [])
        for signup in signups
    ]
    return rows, Counter(signup.status for signup in signups)


def waiting_place(*, signup: SignUp) -> int:
    """A waiting sign-up's place in the queue (1: the next to move up)."""
    return (
        signup.tournament.signups.filter(status=SignUp.Status.WAITING)
        .filter(Q(created__lt=signup.created) | Q(created=signup.created, pk__lt=signup.pk))
        .count()
        + 1
    )
