"""What a page may offer the person reading it, by their role in the tournament."""

from __future__ import annotations

from django import template
from django.contrib.auth.models import AbstractBaseUser

from league.models import Tournament
from league.tournaments.roles import is_organiser

register = template.Library()


@register.filter
def organised_by(tournament: Tournament, user: AbstractBaseUser) -> bool:
    """``user`` organises ``tournament``: a referee is not offered the organiser's pages, which
    would only answer "no rights"."""
    return is_organiser(user, tournament)
