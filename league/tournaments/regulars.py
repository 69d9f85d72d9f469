"""Stali bywalcy (the regulars): registering a whole team, a whole club or everyone of an earlier
tournament in one action (*dodaj wielu*, add many), after a preview (*podgląd*).

The preview and the confirmation are two requests. The preview signs the entries it showed (which
player, for which team) and the tournament they are for with :mod:`django.core.signing`, and the
confirmation registers exactly those: nobody can add a player the organiser did not see by editing
the form. What may have changed in between is checked again when registering
(``registrations.registration_group_create``): whoever got registered meanwhile is skipped, so
confirming twice registers nobody twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.core import signing
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

Entry = tuple[int, int | None]
"""One player to register: the player's primary key and the team's (None: an individual)."""

SALT = "league.tournaments.regulars"
PREVIEW_MAX_AGE = 60 * 60
"""Seconds a preview can be confirmed: long enough to check a list, short enough that nobody confirms yesterday's."""


@dataclass
class Fitted:
    """Entries after each team's size was kept: ``entries`` to register, and by team's primary key
    the players (primary keys) who play as individuals because the team was full."""

    entries: list[Entry]
    overflow: dict[int, list[int]] = field(default_factory=dict)


def teams_fitted(entries: Iterable[Entry], *, registered: Mapping[int, int], limit: int) -> Fitted:
    """``entries`` in their order, each team taking players until it has ``limit`` in the tournament
    (``registered``: how many play for each team there already); the rest play as individuals."""
    counts = dict(registered)
    fitted = Fitted(entries=[])
    for player, team in entries:
        if team is not None and counts.get(team, 0) >= limit:
            fitted.overflow.setdefault(team, []).append(player)
            team = None
        elif team is not None:
            counts[team] = counts.get(team, 0) + 1
        fitted.entries.append((player, team))
    return fitted


def entries_signed(*, tournament_pk: int, entries: list[Entry]) -> str:
    """The entries of a preview as a signed text for its confirmation form."""
    return signing.dumps([tournament_pk, entries], salt=SALT, compress=True)


def entries_unsigned(*, tournament_pk: int, token: str) -> list[Entry]:
    """The entries a preview of this tournament signed; a clear refusal for a changed, old or foreign one."""
    try:
        signed_for, entries = signing.loads(token, salt=SALT, max_age=PREVIEW_MAX_AGE)
    except signing.SignatureExpired as error:
        raise ValidationError(
            _("The preview is more than an hour old; show it again and confirm."), code="preview_expired"
        ) from error
    except signing.BadSignature as error:
        raise ValidationError(_("The preview was changed; show it again and confirm."), code="preview_bad") from error
    if signed_for != tournament_pk:
        raise ValidationError(_("The preview was changed; show it again and confirm."), code="preview_bad")
    return [(int(player), None if team is None else int(team)) for player, team in entries]
