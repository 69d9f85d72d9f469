"""The private link (prywatny link) of a sign-up: whoever holds it may see and cancel that one
sign-up, without an account. It carries the sign-up's number signed with the site's secret key
(``django.core.signing``; the same link each time it is made, on the page and in the e-mail), so
it cannot be guessed or changed into another's. It expires when the tournament starts
(``selectors.tournament_start``), read afresh from the tournament, so a moved date moves it too."""

from __future__ import annotations

from django.core import signing
from django.utils import timezone

from league.signups.models import SignUp
from league.signups.selectors import tournament_start

SALT = "league.signups.private-link"


class LinkExpired(Exception):
    """The link is genuine but its tournament has started."""


def signup_token(*, signup: SignUp) -> str:
    return signing.Signer(salt=SALT).sign_object(signup.pk)


def signup_of_token(*, token: str, slug: str) -> SignUp | None:
    """The sign-up of tournament ``slug`` that ``token`` was made for; None for a forged or
    foreign token. Raises :class:`LinkExpired` once the tournament has started."""
    try:
        pk = signing.Signer(salt=SALT).unsign_object(token)
    except signing.BadSignature:
        return None
    signup = SignUp.objects.select_related("tournament", "club", "team").filter(pk=pk, tournament__slug=slug).first()
    if signup is not None and timezone.now() >= tournament_start(tournament=signup.tournament):
        raise LinkExpired
    return signup
