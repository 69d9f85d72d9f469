"""Read operations on the player register: which players and teams a user may change.

The rule itself is told in ``players.services``; here it becomes a query, so a
view or the importer can ask it for one entry or for many at once.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from functools import reduce
from typing import TYPE_CHECKING

from django.db.models import Exists, OuterRef, Q, QuerySet

from league.models import Registration

from .models import Club, Player, Team, TeamMember, search_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from league.models import Tournament

CHANGE_PERMISSION = "players.change_player"
# Results a search shows: enough for any name typed to its third letter.
SEARCH_LIMIT = 20
# Case-insensitive lookups ORed into one query when many names are looked up at once.
LOOKUPS_PER_QUERY = 200


def _editable(queryset: QuerySet, *, user: AbstractBaseUser, registered_as: str) -> QuerySet:
    """``queryset`` narrowed to the entries ``user`` may change; ``registered_as`` is the
    registration's field naming the entry ("player" or "team")."""
    if not user.is_active:
        return queryset.none()
    if user.is_superuser:
        return queryset
    if not user.has_perm(CHANGE_PERMISSION):
        return queryset.none()
    registrations = Registration.objects.filter(**{registered_as: OuterRef("pk")})
    foreign = registrations.exclude(tournament__organisers=user)
    return queryset.filter(~Exists(foreign)).filter(
        Exists(registrations) | Q(created_by=user) | Q(created_by__isnull=True)
    )


def players_editable_by(*, user: AbstractBaseUser, players: QuerySet[Player] | None = None) -> QuerySet[Player]:
    """The players (of ``players``, else of the register) that ``user`` may change."""
    return _editable(Player.objects.all() if players is None else players, user=user, registered_as="player")


def teams_editable_by(*, user: AbstractBaseUser, teams: QuerySet[Team] | None = None) -> QuerySet[Team]:
    """The teams (of ``teams``, else of the register) that ``user`` may change."""
    return _editable(Team.objects.all() if teams is None else teams, user=user, registered_as="team")


def players_found(*, text: str, unregistered_in: Tournament | None = None) -> QuerySet[Player]:
    """Active players matching every word of ``text``, with or without Polish letters, in their name
    or licence (``PlayerQuerySet.search``), their club's name or their current team's: "kaszebe" finds
    the players of Kaszëbë Puck. At most ``SEARCH_LIMIT``, each with the club and the current team
    (``team_name``) to tell namesakes apart; with ``unregistered_in``, only those not registered for
    that tournament yet."""
    players = Player.objects.filter(active=True)
    if unregistered_in is not None:
        players = players.exclude(registrations__tournament=unregistered_in)
    # Club and team names are folded in Python (SQLite's LOWER() misses Ż, Ś, Ł): two short reads.
    clubs = [(pk, search_key(name)) for pk, name in Club.objects.values_list("pk", "name")]
    teams = [(pk, search_key(name)) for pk, name in Team.objects.filter(active=True).values_list("pk", "name")]
    for word in text.split():
        key = search_key(word)
        members = TeamMember.objects.filter(team_active=True, team__in=[pk for pk, name in teams if key in name])
        players = players.filter(
            Q(pk__in=Player.objects.search(word))
            | Q(club__in=[pk for pk, name in clubs if key in name])
            | Q(pk__in=members.values("player"))
        )
    return players.with_current_team().select_related("club")[:SEARCH_LIMIT]


def matching(*, queryset: QuerySet, lookups: list[Q]) -> Iterator:
    """The rows of ``queryset`` matching any of ``lookups``, ``LOOKUPS_PER_QUERY`` of them a query:
    the importer's way to find hundreds of names with the database's own comparison (``iexact``)."""
    for start in range(0, len(lookups), LOOKUPS_PER_QUERY):
        yield from queryset.filter(reduce(operator.or_, lookups[start : start + LOOKUPS_PER_QUERY]))


def clubs_named(*, names: Iterable[str]) -> Iterator[Club]:
    """The clubs called any of ``names``, ignoring case."""
    return matching(queryset=Club.objects.all(), lookups=[Q(name__iexact=name) for name in names])
