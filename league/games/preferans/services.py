"""The Preferans table's own write: its pulka closed by the players' agreement, or opened again.

**Zamknięcie za porozumieniem** (closing by agreement): the players stop the pulka before it is
full; each writes the points still missing from the total onto the mountain (docs/preferans.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from league.games.choices import Game
from league.results import services
from league.results.models import Protocol, ProtocolEvent

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


@services.atomic_write
def protocol_pulka_close(
    *,
    protocol: Protocol,
    closed: bool,
    expected_version: int,
    user: AbstractBaseUser | None = None,
    seat: str = "",
    grant: str = "",
    reason: str = "",
) -> Protocol:
    """Close a Preferans table's pulka by the players' agreement (``closed``), or open it again:
    a referee (``user``), or the table's phone (its ``seat`` and ``grant``) while the protocol is open.

    Closed, the sheet takes no more deals (a penalty still) and its settlement is final: each
    player writes the points still missing from the total onto the mountain (docs/preferans.md).
    The standings count a pulka not played out as closed already, so this changes no points.
    """
    if protocol.series.tournament.game != Game.PREFERANS:
        raise ValidationError(_("Only a Preferans table has a pulka to close."), code="not_preferans")
    current = Protocol.objects.get(pk=protocol.pk)
    if current.closed_by_agreement == closed:
        return current  # a repeated request (a retry, a double click): already as asked
    try:
        protocol = services.protocol_claim(protocol, expected_version)
    except services.StaleProtocol:
        # the same request racing itself: the first one did it, waited for here by the lock
        current.refresh_from_db()
        if current.closed_by_agreement == closed:
            return current
        raise
    services.protocol_check_may_change(protocol, user, reason=reason)
    protocol.closed_by_agreement = closed
    protocol.save(update_fields=["closed_by_agreement"])
    action = ProtocolEvent.Action.CLOSED_BY_AGREEMENT if closed else ProtocolEvent.Action.OPENED_AGAIN
    details = {"reason": reason} if reason else None
    ProtocolEvent.objects.create(protocol=protocol, action=action, user=user, seat=seat, grant=grant, details=details)
    return services.protocol_after_change(protocol, user=user)
