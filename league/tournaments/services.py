"""Creating a tournament and keeping its series in step with ``series_count``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify

from league.models import Series, Tournament


def unique_slug(name: str) -> str:
    """A slug from the name, with -2, -3 … appended while it is taken."""
    base = slugify(name)[:70] or "turniej"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def create_tournament(*, user: AbstractBaseUser, name: str, ruleset_preset: str, **fields: Any) -> Tournament:
    """A new tournament on a scoring preset, organised by ``user``, with its series planned."""
    if not fields.get("slug"):
        fields["slug"] = unique_slug(name)
    tournament = Tournament.objects.create(name=name, ruleset_preset=ruleset_preset, **fields)
    tournament.organisers.add(user)
    ensure_series(tournament)
    return tournament


def ensure_series(tournament: Tournament) -> list[Series]:
    """Create the missing series 1..series_count (the count may be raised later) and return them all."""
    existing = set(tournament.series.values_list("number", flat=True))
    Series.objects.bulk_create(
        Series(tournament=tournament, number=n) for n in range(1, tournament.series_count + 1) if n not in existing
    )
    return list(tournament.series.order_by("number"))
