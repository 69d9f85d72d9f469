"""Writes of a league (liga): creating it, changing its settings, adding and taking off its
organisers.

Every change is a :class:`league.models.LeagueVersion`: the settings before and after (or the
organiser concerned), who, when and, where the organiser gave one, why.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.history import settings_apply
from league.models import League, LeagueVersion
from league.slugs import polish_slug

SETTINGS_FIELDS = ("name", "slug", "description", "logo")


def league_slug(name: str) -> str:
    """The part of a league's address made from its name: "Złota Liga Baśki" → "zlota-liga-baski"."""
    return polish_slug(name, max_length=80)


def _settings(league: League) -> dict[str, Any]:
    values = {name: getattr(league, name) for name in SETTINGS_FIELDS}
    values["logo"] = league.logo.name or ""
    return values


def _record(
    *,
    league: League,
    action: str,
    user: AbstractBaseUser,
    old: dict[str, Any] | None = None,
    new: dict[str, Any] | None = None,
    reason: str = "",
) -> None:
    LeagueVersion.objects.create(league=league, action=action, old=old, new=new, user=user, reason=reason)


def _slug_taken() -> ValidationError:
    return ValidationError(
        {
            "slug": ValidationError(
                _("Another league already has this short name; choose another one."), code="slug_taken"
            )
        }
    )


@transaction.atomic
def league_create(
    *,
    user: AbstractBaseUser,
    name: str,
    slug: str = "",
    description: str = "",
    logo: File | None = None,
    reason: str = "",
) -> League:
    """A new league organised by ``user``; without a ``slug`` one is made from the name.

    A league of that slug which ``user`` already organises under the same name is the one a
    resent form created: it is returned as it is. Any other league of that slug refuses it.
    """
    slug = slug or league_slug(name)
    existing = League.objects.select_for_update().filter(slug=slug).first()
    if existing is not None:
        if existing.name == name and existing.organisers.filter(pk=user.pk).exists():
            return existing
        raise _slug_taken()
    league = League(name=name, slug=slug, description=description, logo=logo or "")
    league.full_clean()
    league.save()
    league.organisers.add(user)
    _record(league=league, action=LeagueVersion.Action.CREATE, user=user, new=_settings(league), reason=reason)
    return league


@transaction.atomic
def league_update(*, league: League, user: AbstractBaseUser, reason: str = "", **fields: Any) -> League:
    """Change the league's name, slug, description or logo (``logo``: None keeps it, False
    removes it, a file replaces it); returns it as stored. Nothing is written when nothing changes."""
    stored = League.objects.select_for_update().get(pk=league.pk)
    logo = fields.pop("logo", None)
    if logo is not None:
        fields["logo"] = logo or ""
    if fields.get("slug", stored.slug) != stored.slug and League.objects.filter(slug=fields["slug"]).exists():
        raise _slug_taken()
    change = settings_apply(stored=stored, fields=fields, names=SETTINGS_FIELDS, settings_of=_settings)
    if change is not None:
        old, new = change
        _record(league=stored, action=LeagueVersion.Action.CHANGE, user=user, old=old, new=new, reason=reason)
    return stored


def league_calendar_left(*, league_id: int | None) -> None:
    """A tournament left the league's calendar (deleted, or moved to another league): its
    ``updated`` moves, which dates the calendar and its feed (``selectors.calendar_stamp``), so a
    calendar app asking "modified since?" gets the feed without it."""
    if league_id is not None:
        League.objects.filter(pk=league_id).update(updated=timezone.now())


def _person(organiser: AbstractBaseUser) -> dict[str, Any]:
    return {"user": organiser.pk, "username": organiser.get_username()}


@transaction.atomic
def league_organiser_add(*, league: League, organiser: AbstractBaseUser, user: AbstractBaseUser) -> bool:
    """Make ``organiser`` one of the league's organisers: they manage its tournaments and seasons.
    Returns whether anything changed (adding them again does nothing)."""
    League.objects.select_for_update().get(pk=league.pk)
    if league.organisers.filter(pk=organiser.pk).exists():
        return False
    league.organisers.add(organiser)
    _record(league=league, action=LeagueVersion.Action.ADD_ORGANISER, user=user, new=_person(organiser))
    return True


@transaction.atomic
def league_organiser_remove(*, league: League, organiser: AbstractBaseUser, user: AbstractBaseUser) -> bool:
    """Take ``organiser`` off the league's organisers; the last one stays. Returns whether
    anything changed (a resent form finds them gone)."""
    League.objects.select_for_update().get(pk=league.pk)  # one removal at a time keeps the last one
    organisers = league.organisers
    if not organisers.filter(pk=organiser.pk).exists():
        return False
    if not organisers.exclude(pk=organiser.pk).exists():
        raise ValidationError(
            _("A league needs an organiser: add another one before removing the last."), code="last_organiser"
        )
    organisers.remove(organiser)
    _record(league=league, action=LeagueVersion.Action.REMOVE_ORGANISER, user=user, old=_person(organiser))
    return True
