"""Who may do what in a tournament.

Roles (rola):

- **organizator** (organiser): everything for the tournaments they organise, and for
  every tournament of a league (liga) they organise; a superuser counts as the
  organiser of every tournament.
- **sędzia** (referee): results and their corrections; every organiser is also
  a referee of their tournament.
- **protokolant stolika** (table scorer): only their own table, through the
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
from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from league.games import linked_related
from league.models import League, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    User = AbstractBaseUser | AnonymousUser

View = Callable[..., HttpResponse]


# The annotation that tournament_with_roles gives each list of the tournament's people.
ROLE_ANNOTATIONS = {"organisers": "user_organises", "referees": "user_referees"}


def tournament_with_roles(*, slug: str, user: User) -> Tournament:
    """The tournament with ``slug`` (404 if none) and, in the same query, whether ``user``
    organises or referees it: the door of every organiser's and referee's page asks both; with what
    its game keeps in rows of its own (Baśka's own rules), which its pages name."""
    tournament = get_object_or_404(
        Tournament.objects.select_related(*linked_related()).annotate(**role_annotations(user=user)), slug=slug
    )
    tournament.roles_of = user.pk
    return tournament


def role_annotations(*, user: User, tournament: str = "pk") -> dict[str, Exists]:
    """Annotations saying whether ``user`` organises or referees the tournament at ``tournament``
    (a path from the queried model, e.g. ``series__tournament``), for one-query doors."""
    listed = {
        annotation: Exists(
            getattr(Tournament, role).through.objects.filter(tournament=OuterRef(tournament), user=user.pk)
        )
        for role, annotation in ROLE_ANNOTATIONS.items()
    }
    league = "league" if tournament == "pk" else f"{tournament}__league"
    leads = Exists(League.organisers.through.objects.filter(league=OuterRef(league), user=user.pk))
    organises = ROLE_ANNOTATIONS["organisers"]
    return listed | {organises: ExpressionWrapper(listed[organises] | leads, output_field=BooleanField())}


def roles_remember(*, tournament: Tournament, user: User, annotated: object) -> None:
    """Keep on ``tournament`` the roles of ``user`` read by :func:`role_annotations` into ``annotated``."""
    for annotation in ROLE_ANNOTATIONS.values():
        setattr(tournament, annotation, getattr(annotated, annotation))
    tournament.roles_of = user.pk


def _has_role(user: User, tournament: Tournament, role: str) -> bool:
    """The tournament's ``role`` list ("organisers" or "referees") names the user; read from the
    annotations of :func:`tournament_with_roles` when the tournament came from there."""
    if not user.is_authenticated:
        return False
    if getattr(tournament, "roles_of", None) == user.pk:
        return getattr(tournament, ROLE_ANNOTATIONS[role])
    if role == "organisers" and tournament.league_id and leads_league(user=user, league_id=tournament.league_id):
        return True
    return getattr(tournament, role).filter(pk=user.pk).exists()


def leads_league(*, user: User, league_id: int) -> bool:
    """Whether ``user`` is one of the league's organisers (not counting a superuser)."""
    return League.organisers.through.objects.filter(league=league_id, user=user.pk).exists()


def is_organiser(user: User, tournament: Tournament) -> bool:
    """A superuser, or one of the tournament's organisers."""
    return user.is_authenticated and (user.is_superuser or _has_role(user, tournament, "organisers"))


def is_referee(user: User, tournament: Tournament) -> bool:
    """An organiser of the tournament, or one of its referees."""
    return is_organiser(user, tournament) or _has_role(user, tournament, "referees")


class TournamentRefusal(PermissionDenied):
    """A page of ``tournament`` refused to a logged-in user; the 403 page (``league.errors``)
    names the tournament's organisers, whom to ask for the role."""

    def __init__(self, *, tournament: Tournament, role: str) -> None:
        super().__init__()
        self.tournament = tournament
        self.role = role


def _require(check: Callable[[User, Tournament], bool], role: str) -> Callable[[View], View]:
    def decorator(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, slug: str, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            tournament = tournament_with_roles(slug=slug, user=request.user)
            if not check(request.user, tournament):
                raise TournamentRefusal(tournament=tournament, role=role)
            request.tournament = tournament
            return view(request, *args, slug=slug, **kwargs)

        return wrapped

    return decorator


organiser_required = _require(is_organiser, "organisers")
"""View decorator: anonymous users go to the login page, non-organisers get 403."""

referee_required = _require(is_referee, "referees")
"""View decorator: anonymous users go to the login page, non-referees get 403."""
