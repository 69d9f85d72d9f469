"""Writes of a season (sezon, a league's year of tournaments): creating it, changing its
settings, and attaching, detaching and counting its tournaments.

Every change is recorded in Django's admin log (``LogEntry``: who, when, what
changed; a superuser reads it as the season's history in the admin). The log
has no place for a reason, and keeps no copy of the settings before the change.
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from league.models import Season, Tournament
from league.tournaments.roles import is_organiser

SETTINGS_FIELDS = ("name", "slug", "year", "scheme", "best_of", "place_points", "team_place_points")


def _log(*, user: AbstractBaseUser, season: Season, flag: int, message: list[dict[str, Any]]) -> None:
    """One entry of the season's history, in the admin's own message format so the admin shows it."""
    LogEntry.objects.log_actions(user.pk, [season], flag, message, single_object=True)


def _slug_taken(message: str) -> ValidationError:
    return ValidationError({"slug": ValidationError(message, code="slug_taken")})


@transaction.atomic
def season_create(*, user: AbstractBaseUser, name: str, year: int, slug: str = "", **fields: Any) -> Season:
    """A new season organised by ``user``.

    Without a ``slug`` one is made from the name and year. A season of that slug
    which ``user`` already organises under the same name and year is the one a
    resent form created: it is returned as it is, so a retried POST makes no second
    season. Any other season of that slug refuses the slug.
    """
    slug = slug or slugify(f"{name} {year}")[:80]
    existing = Season.objects.select_for_update().filter(slug=slug).first()
    if existing is not None:
        if existing.organisers.filter(pk=user.pk).exists() and (existing.name, existing.year) == (name, year):
            return existing
        raise _slug_taken(_("Another season already has this short name; choose another one."))
    season = Season(name=name, year=year, slug=slug, **fields)
    season.full_clean()
    season.save()
    season.organisers.add(user)
    _log(user=user, season=season, flag=ADDITION, message=[{"added": {}}])
    return season


@transaction.atomic
def season_update(*, season: Season, user: AbstractBaseUser, **fields: Any) -> Season:
    """Change the season's settings (name, slug, year, scheme, best K of N, points for places);
    returns it as stored. Nothing is written when nothing changes."""
    stored = Season.objects.select_for_update().get(pk=season.pk)
    changed = [name for name in SETTINGS_FIELDS if name in fields and fields[name] != getattr(stored, name)]
    if not changed:
        return stored
    if "slug" in changed and Season.objects.filter(slug=fields["slug"]).exclude(pk=stored.pk).exists():
        raise _slug_taken(_("Another season already has this short name; choose another one."))
    for name in changed:
        setattr(stored, name, fields[name])
    stored.full_clean()
    stored.save()
    with translation.override(None):  # kept in the source language; the admin translates it when shown
        labels = [str(Season._meta.get_field(name).verbose_name) for name in changed]
    _log(user=user, season=stored, flag=CHANGE, message=[{"changed": {"fields": labels}}])
    return stored


def _tournament_message(action: str, tournament: Tournament, **extra: Any) -> list[dict[str, Any]]:
    """The admin's message for a change of a related object: "Added tournament “…”." and the like."""
    with translation.override(None):
        detail = {"name": str(Tournament._meta.verbose_name), "object": str(tournament), **extra}
    return [{action: detail}]


@transaction.atomic
def season_tournament_attach(*, season: Season, tournament: Tournament, user: AbstractBaseUser) -> bool:
    """Make ``tournament`` one of the season's (moving it from another season, if any);
    only an organiser of the tournament may. Returns whether anything changed: attaching
    it again does nothing."""
    stored = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not is_organiser(user, stored):
        raise ValidationError(_("Only the tournament's organisers may add it to a season."), code="not_organiser")
    if stored.season_id == season.pk:
        return False
    stored.season = season
    stored.save(update_fields=["season", "updated"])
    _log(user=user, season=season, flag=CHANGE, message=_tournament_message("added", stored))
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
    _log(user=user, season=season, flag=CHANGE, message=_tournament_message("deleted", stored))
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
    with translation.override(None):
        field = str(Tournament._meta.get_field("counts_for_season").verbose_name)
    _log(user=user, season=season, flag=CHANGE, message=_tournament_message("changed", stored, fields=[field]))
    return True
