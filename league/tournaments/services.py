"""Writes of a tournament: creating it, planning its series and what the public pages show."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify

from league.models import Series, Tournament


def _free_slug(name: str) -> str:
    """A slug from the name, with -2, -3 … appended while it is taken."""
    base = slugify(name)[:70] or "turniej"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def tournament_create(*, user: AbstractBaseUser, name: str, ruleset_preset: str, **fields: Any) -> Tournament:
    """A new tournament on a scoring preset, organised by ``user``, with its series planned."""
    if not fields.get("slug"):
        fields["slug"] = _free_slug(name)
    tournament = Tournament.objects.create(name=name, ruleset_preset=ruleset_preset, **fields)
    tournament.organisers.add(user)
    series_ensure(tournament=tournament)
    return tournament


def series_ensure(*, tournament: Tournament) -> list[Series]:
    """Plan the missing series 1..series_count (the count may be raised later) and return them all."""
    existing = set(tournament.series.values_list("number", flat=True))
    Series.objects.bulk_create(
        Series(tournament=tournament, number=n) for n in range(1, tournament.series_count + 1) if n not in existing
    )
    return list(tournament.series.order_by("number"))


def tournament_draw_publication_toggle(*, tournament: Tournament) -> bool:
    """Show or hide the draw on the public pages; returns whether it is now shown."""
    tournament.draw_published = not tournament.draw_published
    tournament.save(update_fields=["draw_published"])
    return tournament.draw_published


def series_results_publication_toggle(*, series: Series) -> bool:
    """Show or hide a closed series' results on the public pages; returns whether they are now shown."""
    series.results_published = not series.results_published
    series.save(update_fields=["results_published"])
    return series.results_published
