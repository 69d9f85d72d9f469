"""Writes of a season (sezon, a league's year of tournaments): creating it, changing its
settings, and attaching, detaching and counting its tournaments.

Every change is a :class:`league.models.SeasonVersion`: the settings before and after (or the
tournament concerned), who, when and, where the organiser gave one, why.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from league.history import settings_apply
from league.models import Season, SeasonVersion, Tournament, season_title
from league.slugs import polish_slug
from league.standings.refresh import standings_touch
from league.tournaments.roles import is_organiser

SETTINGS_FIELDS = ("name", "slug", "year", "league", "scheme", "best_of", "place_points", "team_place_points")


def _settings(season: Season) -> dict[str, Any]:
    """The settings as the history keeps them: the league by its name (None outside any)."""
    values = {name: getattr(season, name) for name in SETTINGS_FIELDS}
    values["league"] = season.league.name if season.league else None
    return values


def _tournament(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    return {"tournament": tournament.pk, "name": tournament.name, **extra}


def _record(
    *,
    season: Season,
    action: str,
    user: AbstractBaseUser,
    old: dict[str, Any] | None = None,
    new: dict[str, Any] | None = None,
    reason: str = "",
) -> None:
    """One entry of the season's history."""
    SeasonVersion.objects.create(season=season, action=action, old=old, new=new, user=user, reason=reason)


def _slug_taken(message: str) -> ValidationError:
    return ValidationError({"slug": ValidationError(message, code="slug_taken")})


@transaction.atomic
def season_create(
    *, user: AbstractBaseUser, name: str, year: int, slug: str = "", reason: str = "", **fields: Any
) -> Season:
    """A new season organised by ``user``.

    Without a ``slug`` one is made from the name and year. A season of that slug
    which ``user`` already organises under the same name and year is the one a
    resent form created: it is returned as it is, so a retried POST makes no second
    season. Any other season of that slug refuses the slug.
    """
    slug = slug or polish_slug(season_title(name, year), max_length=80)
    existing = Season.objects.select_for_update().filter(slug=slug).first()
    if existing is not None:
        if existing.organisers.filter(pk=user.pk).exists() and (existing.name, existing.year) == (name, year):
            return existing
        raise _slug_taken(_("Another season already has this short name; choose another one."))
    season = Season(name=name, year=year, slug=slug, **fields)
    season.full_clean()
    season.save()
    season.organisers.add(user)
    _record(season=season, action=SeasonVersion.Action.CREATE, user=user, new=_settings(season), reason=reason)
    return season


@transaction.atomic
def season_update(*, season: Season, user: AbstractBaseUser, reason: str = "", **fields: Any) -> Season:
    """Change the season's settings (name, slug, year, scheme, best K of N, points for places),
    ``reason`` saying why; returns it as stored. Nothing is written when nothing changes."""
    stored = Season.objects.select_for_update().get(pk=season.pk)
    if fields.get("slug", stored.slug) != stored.slug and Season.objects.filter(slug=fields["slug"]).exists():
        raise _slug_taken(_("Another season already has this short name; choose another one."))
    league = fields.get("league", stored.league)
    if league != stored.league and (other := stored.tournaments.exclude(league=league).first()) is not None:
        moved = Season(name=stored.name, year=stored.year, league=league)
        raise ValidationError({"league": moved.other_league_refusal(other)})
    change = settings_apply(stored=stored, fields=fields, names=SETTINGS_FIELDS, settings_of=_settings)
    if change is not None:
        old, new = change
        _record(season=stored, action=SeasonVersion.Action.CHANGE, user=user, old=old, new=new, reason=reason)
    return stored


@transaction.atomic
def season_tournament_attach(
    *, season: Season, tournament: Tournament, user: AbstractBaseUser, move: bool = False
) -> bool:
    """Make ``tournament`` one of the season's; only an organiser of the tournament may. A
    tournament of another season moves only when ``move`` says the organiser agreed to take it
    out of that season's tables. Returns whether anything changed: attaching it again does nothing."""
    stored = Tournament.objects.select_for_update(of=("self",)).select_related("season").get(pk=tournament.pk)
    if not is_organiser(user, stored):
        raise ValidationError(_("Only the tournament's organisers may add it to a season."), code="not_organiser")
    if stored.season_id == season.pk:
        return False
    if stored.season is not None and not move:
        raise ValidationError(
            _(
                "%(name)s belongs to the season %(other)s: moving it here takes it out of that "
                "season's tables. Confirm to move it."
            ),
            code="in_other_season",
            params={"name": stored.name, "other": stored.season},
        )
    refusal = season.other_game_refusal(stored) or season.other_league_refusal(stored)
    if refusal is not None:
        raise refusal
    moved_from = stored.season_id
    stored.season = season
    stored.save(update_fields=["season", "updated"])
    standings_touch(tournament_id=stored.pk)
    _record(
        season=season,
        action=SeasonVersion.Action.ATTACH,
        user=user,
        new=_tournament(stored, **({"from_season": moved_from} if moved_from else {})),
    )
    return True


@transaction.atomic
def season_tournament_detach(*, season: Season, tournament: Tournament, user: AbstractBaseUser) -> bool:
    """Take ``tournament`` out of the season; returns whether it was in it (a resent POST
    finds it gone and changes nothing)."""
    stored = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if stored.season_id != season.pk:
        return False
    stored.season = None
    stored.save(update_fields=["season", "updated"])
    standings_touch(tournament_id=stored.pk)
    _record(season=season, action=SeasonVersion.Action.DETACH, user=user, old=_tournament(stored))
    return True


@transaction.atomic
def season_tournament_count(*, season: Season, tournament: Tournament, counts: bool, user: AbstractBaseUser) -> bool:
    """Let a tournament of the season count for its tables or not (``counts_for_season``);
    the wanted state is posted, so a resent POST changes nothing. Returns whether it changed."""
    stored = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if stored.season_id != season.pk or stored.counts_for_season == counts:
        return False
    stored.counts_for_season = counts
    stored.save(update_fields=["counts_for_season", "updated"])
    standings_touch(tournament_id=stored.pk)
    _record(
        season=season,
        action=SeasonVersion.Action.COUNT,
        user=user,
        old=_tournament(stored, counts=not counts),
        new=_tournament(stored, counts=counts),
    )
    return True
