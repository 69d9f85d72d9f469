"""Reads of the exchange file in the app: an upload waiting for its user, a tournament's
earlier versions."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from league.models import PendingExchangeImport, Tournament, TournamentFileVersion

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser
    from django.db.models import QuerySet


def pending_exchange_get(*, pk: int | None, user: AbstractBaseUser) -> PendingExchangeImport | None:
    """The file ``user`` left waiting under ``pk``; nobody else's."""
    return PendingExchangeImport.objects.filter(pk=pk, user=user).first() if pk else None


def tournament_file_versions(*, tournament: Tournament) -> QuerySet[TournamentFileVersion]:
    """The tournament's earlier versions, newest first, without their files (only downloads read them)."""
    return tournament.file_versions.select_related("user").defer("file")


def version_file_text(*, version: TournamentFileVersion) -> str:
    """An earlier version as an exchange file, laid out as the export writes one."""
    return json.dumps(version.file, ensure_ascii=False, indent=2) + "\n"
