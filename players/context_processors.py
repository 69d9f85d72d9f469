"""What every page's menu needs to know about the visitor's rights over the player register."""

from __future__ import annotations

from django.contrib.auth.models import Permission
from django.db.models import Q
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject


def manages_players(user) -> bool:
    """Whether ``user`` may add players (and so sees the register in the menu).

    The same answer as ``user.has_perm("players.add_player")`` for the model
    backend, in one query instead of its two (own and group permissions), as the
    menu is on every page a referee reloads while typing protocols.
    """
    if not user.is_active:
        return False
    if user.is_superuser:
        return True
    return Permission.objects.filter(
        Q(user=user) | Q(group__user=user), content_type__app_label="players", codename="add_player"
    ).exists()


def player_register(request: HttpRequest) -> dict[str, object]:
    """``manages_players`` for the templates, asked only when a page shows the menu."""
    return {"manages_players": SimpleLazyObject(lambda: manages_players(request.user))}
