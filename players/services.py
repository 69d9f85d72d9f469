"""Write operations on clubs, players and teams.

Views, the admin and the importer all go through these functions, so the team
rules live in one place. Rule violations raise ``ValidationError`` with
translated messages keyed by form field name.

Who may change a player or a team (edit, merge, delete; the register is shared by every
organiser, while a name and a gender are printed on the pages of each tournament the player
plays in) — docs/register.md tells it to organisers:

- a superuser may change anyone;
- otherwise the user needs the ``players.change_player`` permission (the
  Organisers group has it) and one of:

  - the user added the player (team) (``created_by``);
  - the player (team) is registered in a tournament the user organises, or in a
    tournament of a league the user organises: the organisers of a league hold the
    register of its players, and a player who plays in several leagues is held by each;
  - nobody is recorded as having added them (entries older than the record, or the
    demo's) and they are in no tournament yet.

Each ground is the user's own: what another organiser does (registering the player in a
tournament of theirs, uploading an exchange file) can give that organiser a right too, but
never takes one away from anybody else.

Anyone else is refused with ``PermissionDenied`` carrying a translated reason;
the views answer it with 403. Adding players, teams and clubs stays open to
every holder of ``players.add_player``. The rule as a query is in
``players.selectors``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.models import Tournament
from league.standings.refresh import standings_touch_many

from . import selectors
from .models import Club, Player, PlayerRemoval, Team, TeamMember, search_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

MIN_TEAM_SIZE = 4
MAX_TEAM_SIZE = 5
# Rows a bulk insert or update sends in one statement (SQLite's and PostgreSQL's limits on parameters allow far more).
BULK_BATCH = 500


def club_create(*, name: str, city: str = "") -> Club:
    club = Club(name=name.strip(), city=city.strip())
    club.full_clean()
    club.save()
    return club


@transaction.atomic
def club_update(*, club: Club, name: str, city: str = "") -> Club:
    """Rename ``club`` (or change its city). Public pages name a club beside a player who appears
    by initials ("J. K., Gryf Wejherowo"), and on a team's page: its players' and its teams'
    tournaments get new stamps, so every page of them shows the new name at once."""
    club.name, club.city = name.strip(), city.strip()
    club.full_clean()
    club.save()
    shown = Q(registrations__player__club=club) | Q(registrations__team__club=club)
    standings_touch_many(tournaments=Tournament.objects.filter(shown))
    return club


def club_bulk_get_or_create(*, names: Iterable[str]) -> tuple[dict[str, Club], int]:
    """The clubs called ``names`` (case-insensitively), the missing ones created, keyed by
    lower-cased name, and how many were created; a few queries for any number of names (the
    importer's)."""
    wanted = {name.strip().lower(): name.strip() for name in names}
    clubs = {club.name.lower(): club for club in selectors.clubs_named(names=wanted.values())}
    missing = [Club(name=name) for key, name in wanted.items() if key not in clubs]
    for club in missing:
        club.clean_fields()
    with _refused_when_taken(_("A club with this name already exists.")):
        Club.objects.bulk_create(missing, batch_size=BULK_BATCH)
    return clubs | {club.name.lower(): club for club in missing}, len(missing)


def player_refusal(*, player: Player) -> str:
    """Why a user who may not change ``player`` is refused, for them to read."""
    return _(
        "You may change only players you added yourself or who play in a tournament or league you organise; "
        "%(player)s is not one of them. Ask the organiser of their league."
    ) % {"player": player}


def team_refusal(*, team: Team) -> str:
    """Why a user who may not change ``team`` is refused, for them to read."""
    return _(
        "You may change only teams you added yourself or that play in a tournament or league you organise; "
        "%(team)s is not one of them. Ask the organiser of their league."
    ) % {"team": team}


def player_check_editable(*, player: Player, user: AbstractBaseUser) -> None:
    """Raise ``PermissionDenied`` unless ``user`` may change ``player`` (see the module's rule)."""
    if not selectors.players_editable_by(user=user, players=Player.objects.filter(pk=player.pk)).exists():
        raise PermissionDenied(player_refusal(player=player))


def team_check_editable(*, team: Team, user: AbstractBaseUser) -> None:
    """Raise ``PermissionDenied`` unless ``user`` may change ``team`` (see the module's rule)."""
    if not selectors.teams_editable_by(user=user, teams=Team.objects.filter(pk=team.pk)).exists():
        raise PermissionDenied(team_refusal(team=team))


def player_create(
    *,
    first_name: str,
    last_name: str,
    gender: str,
    club: Club | None = None,
    licence: str = "",
    active: bool = True,
    public_initials: bool = False,
    created_by: AbstractBaseUser | None = None,
) -> Player:
    return _player_save(
        Player(created_by=created_by),
        first_name=first_name,
        last_name=last_name,
        gender=gender,
        club=club,
        licence=licence,
        active=active,
        public_initials=public_initials,
    )


@transaction.atomic
def player_update(
    *,
    player: Player,
    user: AbstractBaseUser,
    first_name: str,
    last_name: str,
    gender: str,
    club: Club | None,
    licence: str,
    active: bool,
    public_initials: bool | None = None,
) -> Player:
    """Change ``player`` on behalf of ``user``, if the rule above lets them (``public_initials``
    None: the player's choice of how public pages name them stays as it was)."""
    player_check_editable(player=player, user=user)
    standings_touch_many(tournaments=Tournament.objects.filter(registrations__player=player))  # its name is shown
    return _player_save(
        player,
        first_name=first_name,
        last_name=last_name,
        gender=gender,
        club=club,
        licence=licence,
        active=active,
        public_initials=player.public_initials if public_initials is None else public_initials,
    )


def _player_save(player: Player, **fields) -> Player:
    for name, value in fields.items():
        setattr(player, name, value.strip() if isinstance(value, str) else value)
    player.full_clean(exclude=["created_by"])  # set by this module, not typed in
    player.save()
    return player


def player_bulk_create(*, players: list[Player], created_by: AbstractBaseUser | None) -> list[Player]:
    """Add many new players at once (the importer's rows, already matched against the
    register): each one's field rules, then an insert per ``BULK_BATCH``. A licence taken
    in the meantime refuses them all."""
    for player in players:
        player.created_by = created_by
        player.search_name = search_key(player.full_name)  # bulk_create skips Player.save()
        # the club is an instance the caller holds: no query to check it exists
        player.clean_fields(exclude=["club", "created_by"])
    with _refused_when_taken(_("A player with this licence number already exists.")):
        return Player.objects.bulk_create(players, batch_size=BULK_BATCH)


@transaction.atomic
def player_bulk_update(*, players: list[Player], user: AbstractBaseUser, fields: list[str]) -> None:
    """Save ``fields`` of many players at once on behalf of ``user``: all of them must be
    players the user may change (the module's rule, asked in one query), or none is saved."""
    allowed = set(
        selectors.players_editable_by(
            user=user, players=Player.objects.filter(pk__in=[p.pk for p in players])
        ).values_list("pk", flat=True)
    )
    refused = next((player for player in players if player.pk not in allowed), None)
    if refused is not None:
        raise PermissionDenied(player_refusal(player=refused))
    now = timezone.now()
    for player in players:
        player.clean_fields(exclude=["club", "created_by"])
        player.updated = now  # bulk_update leaves auto_now alone, and Player.save()'s search name
        player.search_name = search_key(player.full_name)
    standings_touch_many(tournaments=Tournament.objects.filter(registrations__player__in=players))
    with _refused_when_taken(_("A player with this licence number already exists.")):
        Player.objects.bulk_update(players, [*fields, "updated", "search_name"], batch_size=BULK_BATCH)


@contextmanager
def _refused_when_taken(message: str) -> Iterator[None]:
    """A unique name or licence taken by somebody else between the check and the insert:
    the database's constraint refuses it, and the user reads ``message`` instead of a 500."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as error:
        raise ValidationError(message) from error


def team_validate(*, team: Team | None, members: Iterable[Player], captain: Player | None, active: bool) -> None:
    """Check the team rules: 4–5 members, the captain is one of them, and no
    member already plays in another active team (a player may keep old,
    inactive teams in the history)."""
    members = list({player.pk: player for player in members}.values())
    errors: dict[str, list[str]] = {}
    if not MIN_TEAM_SIZE <= len(members) <= MAX_TEAM_SIZE:
        errors.setdefault("members", []).append(
            ngettext(
                "A team has %(min)d or %(max)d players; %(count)d was chosen.",
                "A team has %(min)d or %(max)d players; %(count)d were chosen.",
                len(members),
            )
            % {"min": MIN_TEAM_SIZE, "max": MAX_TEAM_SIZE, "count": len(members)}
        )
    if captain is not None and captain.pk not in {player.pk for player in members}:
        errors.setdefault("captain", []).append(_("The captain must be a member of the team."))
    if active:
        taken = (
            TeamMember.objects.filter(player__in=members, team_active=True)
            .exclude(team=team.pk if team else None)
            .select_related("player", "team")
        )
        for membership in taken:
            errors.setdefault("members", []).append(
                _("%(player)s already plays in the active team %(team)s.")
                % {"player": membership.player, "team": membership.team}
            )
    if errors:
        raise ValidationError(errors)


def team_create(
    *,
    name: str,
    members: Iterable[Player],
    captain: Player | None = None,
    club: Club | None = None,
    active: bool = True,
    created_by: AbstractBaseUser | None = None,
) -> Team:
    return _team_save(
        Team(created_by=created_by), name=name, members=members, captain=captain, club=club, active=active
    )


@transaction.atomic
def team_update(
    *,
    team: Team,
    user: AbstractBaseUser,
    name: str,
    members: Iterable[Player],
    captain: Player | None,
    club: Club | None,
    active: bool,
) -> Team:
    """Change ``team`` on behalf of ``user``, if the rule above lets them."""
    team_check_editable(team=team, user=user)
    standings_touch_many(tournaments=Tournament.objects.filter(registrations__team=team))  # its name is shown
    return _team_save(team, name=name, members=members, captain=captain, club=club, active=active)


@transaction.atomic
def _team_save(
    team: Team,
    *,
    name: str,
    members: Iterable[Player],
    captain: Player | None,
    club: Club | None,
    active: bool,
) -> Team:
    members = list(members)
    adding = team.pk is None
    team_validate(team=None if adding else team, members=members, captain=captain, active=active)
    team.name, team.captain, team.club, team.active = name.strip(), captain, club, active
    team.full_clean(exclude=["created_by"])  # set by this module, not typed in
    team.save()
    wanted = {player.pk for player in members}
    if not adding:
        team.memberships.exclude(player__in=wanted).delete()
    present = set() if adding else set(team.memberships.values_list("player_id", flat=True))
    # bulk_create skips TeamMember.save(), so the copy of team.active is set here
    TeamMember.objects.bulk_create(
        TeamMember(team=team, player_id=player_id, team_active=team.active) for player_id in wanted - present
    )
    return team


def _snapshot(player: Player) -> dict[str, object]:
    """The register's entry of ``player`` as a removal keeps it."""
    return {
        "name": player.full_name,
        "first_name": player.first_name,
        "last_name": player.last_name,
        "gender": player.gender,
        "club": player.club.name if player.club else "",
        "licence": player.licence,
        "active": player.active,
        "created": player.created.isoformat() if player.created else None,
    }


def _locked(*players: Player) -> list[Player]:
    """``players`` read again under a row lock, in primary-key order (two merges of the same pair
    from two screens wait for each other instead of deadlocking)."""
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[p.pk for p in players]).order_by("pk")}
    if len(locked) != len({p.pk for p in players}):
        raise ValidationError(_("The player has been removed from the register in the meantime."))
    return [locked[p.pk] for p in players]


@transaction.atomic
def player_merge(*, kept: Player, merged: Player, user: AbstractBaseUser, reason: str) -> PlayerRemoval:
    """Merge (scalić) ``merged`` into ``kept``, one person entered twice, on behalf of ``user``, who
    must be allowed to change both: every row naming ``merged`` (registrations, seats and thereby
    the deals played in them, byes, penalties, team memberships and captaincies, and any kind of
    row added later, ``selectors.player_references``) passes to ``kept``, which takes the licence
    and club ``merged`` had if it has none; then ``merged`` is deleted and a ``PlayerRemoval`` says
    who, when, why and what moved.

    ``merged`` is deleted rather than marked: nothing names it any more, and a second entry kept
    would still be found by every search and hold its licence. Standings and seasons are computed
    from the rows, so they come out as if the person had always been one player (and, the
    registrations and ``kept`` having changed, the cached ones are not served any more).
    Refused with the reason when ``selectors.player_merge_preview`` finds a conflict."""
    kept, merged = _locked(kept, merged)
    player_check_editable(player=kept, user=user)
    player_check_editable(player=merged, user=user)
    preview = selectors.player_merge_preview(kept=kept, merged=merged)
    if preview.conflicts:
        raise ValidationError(preview.conflicts)
    # a team both play in keeps one membership: the kept player's
    TeamMember.objects.filter(player=merged, team__memberships__player=kept).delete()
    with _refused_when_taken(_("The two players cannot be merged: a row of one would repeat a row of the other.")):
        for relation in selectors.player_references():
            name = relation.field.name
            relation.related_model._base_manager.filter(**{name: merged}).update(**{name: kept})
    removal = PlayerRemoval.objects.create(
        user=user,
        reason=reason.strip(),
        player_pk=merged.pk,
        old=_snapshot(merged),
        new=_snapshot(kept),
        merged_into=kept,
        moved={move.label: move.count for move in preview.moves},
    )
    licence, club = merged.licence, merged.club
    merged.delete()  # first: the licence is unique, and passes to kept below
    kept.licence, kept.club = kept.licence or licence, kept.club or club
    kept.save()
    # the registrations, seats, byes and penalties of both are the kept player's now
    standings_touch_many(tournaments=Tournament.objects.filter(registrations__player=kept))
    return removal


@transaction.atomic
def player_delete(*, player: Player, user: AbstractBaseUser, reason: str = "") -> PlayerRemoval:
    """Delete ``player``, entered by mistake, on behalf of ``user``, who must be allowed to change
    them: only a player no row names (no registration, seat, bye, penalty or team), since each of
    those is part of a result or a team; such a player can be merged instead. Logged as a
    ``PlayerRemoval``."""
    [player] = _locked(player)
    player_check_editable(player=player, user=user)
    blocking = [held for held in selectors.player_reference_counts(player=player) if held.keeps_player]
    if blocking:
        raise ValidationError(
            _("%(player)s cannot be deleted: the register still holds %(rows)s. Merge the player instead.")
            % {"player": player, "rows": ", ".join(f"{held.label}: {held.count}" for held in blocking)}
        )
    removal = PlayerRemoval.objects.create(user=user, reason=reason.strip(), player_pk=player.pk, old=_snapshot(player))
    player.delete()
    return removal
