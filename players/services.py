"""Write operations on clubs, players and teams.

Views, the admin and the importer all go through these functions, so the team
rules live in one place. Rule violations raise ``ValidationError`` with
translated messages keyed by form field name.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .models import Club, Player, Team, TeamMember

MIN_TEAM_SIZE = 4
MAX_TEAM_SIZE = 5


def club_create(*, name: str, city: str = "") -> Club:
    club = Club(name=name.strip(), city=city.strip())
    club.full_clean()
    club.save()
    return club


def club_get_or_create(*, name: str) -> Club:
    """The club called ``name`` (case-insensitively), created when missing."""
    name = name.strip()
    club = Club.objects.filter(name__iexact=name).first()
    return club or Club.objects.create(name=name)


def player_create(
    *,
    first_name: str,
    last_name: str,
    gender: str,
    club: Club | None = None,
    licence: str = "",
    active: bool = True,
) -> Player:
    return _player_save(
        Player(),
        first_name=first_name,
        last_name=last_name,
        gender=gender,
        club=club,
        licence=licence,
        active=active,
    )


def player_update(
    *,
    player: Player,
    first_name: str,
    last_name: str,
    gender: str,
    club: Club | None,
    licence: str,
    active: bool,
) -> Player:
    return _player_save(
        player,
        first_name=first_name,
        last_name=last_name,
        gender=gender,
        club=club,
        licence=licence,
        active=active,
    )


def _player_save(player: Player, **fields) -> Player:
    for name, value in fields.items():
        setattr(player, name, value.strip() if isinstance(value, str) else value)
    player.full_clean()
    player.save()
    return player


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
) -> Team:
    return _team_save(Team(), name=name, members=members, captain=captain, club=club, active=active)


def team_update(
    *,
    team: Team,
    name: str,
    members: Iterable[Player],
    captain: Player | None,
    club: Club | None,
    active: bool,
) -> Team:
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
    team_validate(team=team if team.pk else None, members=members, captain=captain, active=active)
    team.name, team.captain, team.club, team.active = name.strip(), captain, club, active
    team.full_clean()
    team.save()
    wanted = {player.pk for player in members}
    team.memberships.exclude(player__in=wanted).delete()
    present = set(team.memberships.values_list("player_id", flat=True))
    for player_id in wanted - present:
        TeamMember.objects.create(team=team, player_id=player_id)
    return team
