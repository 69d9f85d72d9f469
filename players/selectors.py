"""Read operations on the player register: which players and teams a user may change.

The rule itself is told in ``players.services``; here it becomes a query, so a
view or the importer can ask it for one entry or for many at once.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import reduce
from typing import TYPE_CHECKING, NamedTuple

from django.db.models import SET_NULL, Count, Exists, ForeignObjectRel, Max, Min, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from league.models import Registration, Season, Tournament

from .models import Club, Player, Team, TeamMember, search_key
from .names import player_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


class Person(NamedTuple):
    """A name about to enter the register (typed in quick add or the player form, or a row of an
    imported list), with the club it was given, if any."""

    first_name: str
    last_name: str
    club: Club | None = None


CHANGE_PERMISSION = "players.change_player"
# Results a search shows: enough for any name typed to its third letter.
SEARCH_LIMIT = 20
# Case-insensitive lookups ORed into one query when many names are looked up at once.
LOOKUPS_PER_QUERY = 200


def _editable(queryset: QuerySet, *, user: AbstractBaseUser, registered_as: str) -> QuerySet:
    """``queryset`` narrowed to the entries ``user`` may change (the rule of ``players.services``);
    ``registered_as`` is the registration's field naming the entry ("player" or "team")."""
    if not user.is_active:
        return queryset.none()
    if user.is_superuser:
        return queryset
    if not user.has_perm(CHANGE_PERMISSION):
        return queryset.none()
    registrations = Registration.objects.filter(**{registered_as: OuterRef("pk")})
    held = registrations.filter(Q(tournament__organisers=user) | Q(tournament__league__organisers=user))
    unheld = Q(created_by__isnull=True) & ~Exists(registrations)
    return queryset.filter(Exists(held) | Q(created_by=user) | unheld)


def players_editable_by(*, user: AbstractBaseUser, players: QuerySet[Player] | None = None) -> QuerySet[Player]:
    """The players (of ``players``, else of the register) that ``user`` may change."""
    return _editable(Player.objects.all() if players is None else players, user=user, registered_as="player")


def teams_editable_by(*, user: AbstractBaseUser, teams: QuerySet[Team] | None = None) -> QuerySet[Team]:
    """The teams (of ``teams``, else of the register) that ``user`` may change."""
    return _editable(Team.objects.all() if teams is None else teams, user=user, registered_as="team")


def players_found(*, text: str, marked_in: Tournament | None = None, inactive_too: bool = False) -> QuerySet[Player]:
    """Active players matching every word of ``text``, with or without Polish letters, in their name
    or licence (``PlayerQuerySet.search``), their club's name or their current team's: "kaszebe" finds
    the players of Kaszëbë Puck. At most ``SEARCH_LIMIT``, each with the club and the current team
    (``team_name``) to tell namesakes apart; with ``marked_in``, each says whether it is registered for
    that tournament (``registered``: the registration search names them instead of saying "nobody");
    ``inactive_too`` finds inactive players as well (a second entry to merge may have been retired)."""
    players = Player.objects.all() if inactive_too else Player.objects.filter(active=True)
    if marked_in is not None:
        registered = Registration.objects.filter(tournament=marked_in, player=OuterRef("pk"))
        players = players.annotate(registered=Exists(registered))
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


def players_with_appearances(players: QuerySet[Player]) -> QuerySet[Player]:
    """``players`` with their club, ``tournament_count`` (tournaments registered for),
    ``last_appearance`` (the date of the latest of them played by today, None before the first)
    and ``next_appearance`` (the nearest still to come): what tells a namesake from the same person."""
    today = timezone.localdate()
    dates = "registrations__tournament__date"
    return players.select_related("club").annotate(
        tournament_count=Count("registrations"),
        last_appearance=Max(dates, filter=Q(**{f"{dates}__lte": today})),
        next_appearance=Min(dates, filter=Q(**{f"{dates}__gt": today})),
    )


def _same_person(person: Person, player: Player) -> bool:
    """Whether ``player`` is probably ``person``: the same name once case and diacritics are folded
    (Żółć = zolc), or, in the same club, the same last name and a first name with the same first
    letter (Józef and Józek Recław of one club are one man more often than two)."""
    if player.search_name == search_key(f"{person.first_name} {person.last_name}"):
        return True
    return (
        person.club is not None
        and player.club_id == person.club.pk
        and search_key(player.last_name) == search_key(person.last_name)
        and search_key(player.first_name)[:1] == search_key(person.first_name)[:1]
    )


def players_probable_duplicates(*, people: list[Person], exclude: Iterable[int] = ()) -> list[list[Player]]:
    """For each of ``people``, the players of the register who are probably that person
    (``_same_person``), with their appearances (``players_with_appearances``), in Polish order;
    ``exclude`` leaves out players by primary key. A few queries for any number of people: the
    folded names are compared with the stored ``search_name``, never with the database's own
    ``LOWER()``, which leaves Ż, Ś and Ł as they are on SQLite."""
    lookups = [Q(search_name=key) for key in {search_key(f"{p.first_name} {p.last_name}") for p in people}]
    clubs = {person.club.pk for person in people if person.club is not None}
    if clubs:  # a club's players are few: its namesakes are told apart in Python
        lookups.append(Q(club__in=clubs))
    found = {
        player.pk: player for player in matching(queryset=players_with_appearances(Player.objects), lookups=lookups)
    }
    excluded = set(exclude)
    candidates = sorted(
        (player for pk, player in found.items() if pk not in excluded), key=lambda p: (player_key(p), p.pk)
    )
    return [[player for player in candidates if _same_person(person, player)] for person in people]


def player_probable_duplicates(*, first_name: str, last_name: str, club: Club | None = None) -> list[Player]:
    """The players of the register who are probably the person named so (see
    ``players_probable_duplicates``): quick add and the player form show them before adding."""
    return players_probable_duplicates(people=[Person(first_name, last_name, club)])[0]


def player_references() -> list[ForeignObjectRel]:
    """Every kind of row that names a player (registrations, seats, byes, penalties, team
    memberships, captaincies …), read from the models themselves, so that a relation added
    later (by another app) is moved by a merge and stops a deletion without being listed here."""
    return [relation for relation in Player._meta.related_objects if not relation.many_to_many]


class ReferenceCount(NamedTuple):
    """How many rows of one kind name a player; ``keeps_player``: they stop a deletion (a result or
    a team needs the player; a row that only remembers one, as a captaincy, lets go)."""

    label: str
    count: int
    keeps_player: bool


def player_reference_counts(*, player: Player) -> list[ReferenceCount]:
    """How many rows of each kind (by its plural name) name ``player``: the kinds with any."""
    counts = []
    for relation in player_references():
        count = relation.related_model._base_manager.filter(**{relation.field.name: player}).count()
        if count:
            label = str(relation.related_model._meta.verbose_name_plural)
            counts.append(ReferenceCount(label, count, relation.on_delete is not SET_NULL))
    return counts


@dataclass
class MergePreview:
    """What merging (scalanie) ``merged`` into ``kept`` would do: the rows that pass to ``kept``
    (``moves``: a kind's plural name and how many), the tournaments and seasons whose results
    ``kept`` takes over, and the ``conflicts`` that stop it, each a sentence to read."""

    kept: Player
    merged: Player
    moves: list[ReferenceCount]
    tournaments: list[Tournament]
    seasons: list[Season]
    conflicts: list[str]


def player_merge_preview(*, kept: Player, merged: Player) -> MergePreview:
    """What merging ``merged`` into ``kept`` would move, and what stops it: the same player twice,
    a tournament both are registered for (one person plays a tournament once, so one of the two
    results is somebody else's), or two different active teams (a player plays in one)."""
    conflicts = []
    if kept.pk == merged.pk:
        conflicts.append(_("A player cannot be merged with themself; choose the other entry."))
    shared = Tournament.objects.filter(registrations__player=kept).filter(registrations__player=merged)
    names = ", ".join(str(tournament) for tournament in shared.distinct())
    if names and kept.pk != merged.pk:
        conflicts.append(
            _(
                "Both are registered for %(tournaments)s. One person plays a tournament once, so these are two "
                "people, or one registration is a mistake: remove it from the registration list first."
            )
            % {"tournaments": names}
        )
    teams = {
        membership.player_id: membership.team
        for membership in TeamMember.objects.filter(player__in=[kept, merged], team_active=True).select_related("team")
    }
    if kept.pk in teams and merged.pk in teams and teams[kept.pk] != teams[merged.pk]:
        conflicts.append(
            _(
                "%(kept)s plays in the active team %(kept_team)s and %(merged)s in %(merged_team)s; a player plays "
                "in one active team. Take one of them out of their team first."
            )
            % {"kept": kept, "kept_team": teams[kept.pk], "merged": merged, "merged_team": teams[merged.pk]}
        )
    tournaments = list(
        Tournament.objects.filter(registrations__player=merged).select_related("season").order_by("date", "pk")
    )
    return MergePreview(
        kept=kept,
        merged=merged,
        moves=player_reference_counts(player=merged),
        tournaments=tournaments,
        seasons=sorted({t.season for t in tournaments if t.season is not None}, key=lambda season: season.pk),
        conflicts=conflicts,
    )
