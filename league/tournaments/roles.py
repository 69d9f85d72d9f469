"""Who may do what in a tournament.

Roles (rola):

- **organizator** (organiser): everything for the tournaments they organise;
  a superuser counts as the organiser of every tournament.
- **sędzia** (referee): results and their corrections; every organiser is also
  a referee of their tournament.
- **protokolant stołu** (table scorer): only their own table, through the
  table's link and PIN, only while the series is open (no account needed;
  checked by the table-scorer flow, not here).
- **publiczność** (public): reads published pages only.

Views take the tournament from the ``slug`` URL keyword and use
:func:`organiser_required` or :func:`referee_required`; both hand the view the
tournament as ``request.tournament`` so it is fetched once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from league.models import Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    User = AbstractBaseUser | AnonymousUser

View = Callable[..., HttpResponse]


def is_organiser(user: User, tournament: Tournament) -> bool:
    """A superuser, or one of the tournament's organisers."""
    return tournament.is_organised_by(user)


def is_referee(user: User, tournament: Tournament) -> bool:
    """An organiser of the tournament, or one of its referees."""
    return is_organiser(user, tournament) or (user.is_authenticated and tournament.referees.filter(pk=user.pk).exists())


def _require(check: Callable[[User, Tournament], bool]) -> Callable[[View], View]:
    def decorator(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, slug: str, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            tournament = get_object_or_404(Tournament, slug=slug)
            if not check(request.user, tournament):
                raise PermissionDenied
            request.tournament = tournament
            return view(request, *args, slug=slug, **kwargs)

        return wrapped

    return decorator


organiser_required = _require(is_organiser)
"""View decorator: anonymous users go to the login page, non-organisers get 403."""

referee_required = _require(is_referee)
"""View decorator: anonymous users go to the login page, non-referees get 403."""
