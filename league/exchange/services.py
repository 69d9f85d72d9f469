"""Writes of the exchange file in the app: an upload waiting for its confirmation, and the
confirmed import, which adds a tournament or replaces the one the file's ``tournament_id``
names, keeping that one's earlier version (``TournamentFileVersion``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from league.models import League, PendingExchangeImport, Tournament, TournamentFileVersion
from league.tournaments.roles import is_organiser

from .exporting import export_tournament
from .importing import import_plan, import_tournament, import_write
from .preview import file_tournament_id, replacement_changes, with_a_free_slug

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

# An upload left unconfirmed this long is forgotten when its user, or anybody, uploads the next.
PENDING_HOURS = 24


def pending_exchange_create(*, user: AbstractBaseUser, filename: str, data: Any) -> PendingExchangeImport:
    """Keep a parsed, previewed file until ``user`` confirms it, in place of their earlier one."""
    stale = timezone.now() - timedelta(hours=PENDING_HOURS)
    PendingExchangeImport.objects.filter(Q(user=user) | Q(created__lt=stale)).delete()
    return PendingExchangeImport.objects.create(user=user, filename=filename[:255], data=data)


@transaction.atomic
def pending_exchange_confirm(
    *, pending: PendingExchangeImport, user: AbstractBaseUser, players: Mapping[str, int], league: League | None = None
) -> tuple[Tournament, bool] | None:
    """Import the waiting file as :func:`tournament_file_import` does, and forget it in the same
    transaction; None when it is gone already (a second click while the first one imported it)."""
    locked = PendingExchangeImport.objects.select_for_update().filter(pk=pending.pk, user=user).first()
    if locked is None:
        return None
    imported = tournament_file_import(
        user=user, data=locked.data, filename=locked.filename, players=players, league=league
    )
    locked.delete()
    return imported


@transaction.atomic
def tournament_file_import(
    *, user: AbstractBaseUser, data: Any, filename: str, players: Mapping[str, int], league: League | None = None
) -> tuple[Tournament, bool]:
    """Import the parsed exchange file ``data`` for ``user``, all or nothing; ``players`` are the
    organiser's choices for probable duplicates (file id → stored player's pk). Returns the
    tournament and whether anything was written.

    A file whose ``tournament_id`` is a stored tournament's replaces it, if ``user`` organises it,
    after its present state is kept as an earlier version; the same tournament again changes
    nothing. Any other file becomes a new tournament, a draft organised by ``user``, in ``league``
    (one ``user`` organises: the caller checks) when given.
    Raises :class:`ExchangeError` (nothing written) or ``PermissionDenied``.
    """
    exchange_id = file_tournament_id(data)
    stored = Tournament.objects.select_for_update().filter(exchange_id=exchange_id).first() if exchange_id else None
    if stored is None:
        tournament = import_tournament(with_a_free_slug(data), user=user, players=players)
        tournament.published = False
        tournament.league = league
        tournament.save(update_fields=["published", "league"])
        tournament.organisers.add(user)
        return tournament, True
    if not is_organiser(user, stored):
        raise PermissionDenied(_("You do not organise the tournament this file replaces."))
    plan = import_plan(data, players=players, replacing=stored)
    if replacement_changes(stored=stored, plan=plan, data=data).nothing:
        return stored, False
    reason = _("Replaced by the exchange file %(filename)s.") % {"filename": filename}
    TournamentFileVersion.objects.create(tournament=stored, user=user, reason=reason, file=export_tournament(stored))
    return import_write(plan, user=user), True
