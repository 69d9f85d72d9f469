"""The table scorer's way in: a protocol's short PIN opens that one protocol.

Nobody at the table needs an account. The referee hands each table its link and
PIN; a correct PIN stores a **grant** for that protocol alone in the browser session,
together with the seat the scorer says they sit at. A session has one grant id, the
same for every PIN it enters; the protocol records it, since the closing confirmation
must come from another seat on another grant (docs/rules.md §7). A grant holds a digest
of the PIN it was made with, so the referee's new PIN ends it.

A PIN is typed at one of two **doors** (``Protocol``): the **token door**, reached by the table's
link carrying its unguessable token (``?t=``; the QR code on the printed sheet and the referee's
link, :func:`with_token`), and the **short address** typed by hand from the sheet, without the token.
Each door has its own counts below, so tries without the token never lock out a phone that came
with it: whoever knows only a table's (sequential) address can at most close the short address,
and the players are sent to the QR code. A phone let in through the token door keeps its token in
its grant, so entering the PIN again later (another seat) uses the same door.

Wrong PINs are counted at three levels at each door, the guessing phone first:

- per phone (``MAX_WRONG_TRIES``: its session, or the id in ``phone_id``'s cookie) and per
  client address (``ADDRESS_MAX_WRONG_TRIES``, the address read through the trusted proxies
  by ``league.net.client_ip``), in Django's cache for ``WINDOW_SECONDS``, or until the referee
  unlocks the table or gives it a new PIN (the counts are kept under ``Protocol.pin_generation``,
  which both of them move on, so every phone and address starts afresh). The phone that
  guesses is locked first; its address only once someone there keeps throwing the cookie
  away, so one guesser on the venue's Wi-Fi (or behind the proxy) does not lock out the
  other phones.
- per table, in the database (``Protocol.wrong_pins`` at the token door, ``hand_wrong_pins`` at the
  short address), from anywhere: a guesser rotating addresses ends there after
  ``Protocol.PIN_LOCK_TRIES`` (``HAND_LOCK_TRIES``), and so does any guesser while the cache is
  down or was flushed. That door then refuses every PIN until the referee unlocks the table or
  gives it a new PIN. The cap stays in the database rather than the cache, for the short address
  too: with the cache down, nothing else would stop a guesser from trying all 10,000 PINs.

Every level counts a try before the PIN is compared (an atomic increment, then the
check), so tries arriving together cannot slip past a limit together; a right PIN gives
its tries back. With the default LocMemCache the cache counts live in one server process;
a deployment with several workers points ``CACHES`` at Redis.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext_lazy as _

from league.net import client_ip, count_add, count_try
from league.results import services
from league.results.models import Protocol

SESSION_KEY = "table_scorer"
# The query parameter (and hidden field of the PIN form) carrying the table's token.
TOKEN_PARAM = "t"
GRANT_ID_KEY = "table_scorer_grant"
# The cookie naming a phone that guessed without a session (phone_id); it holds a random id and no data.
PHONE_COOKIE = "baska_phone"
MAX_WRONG_TRIES = 5
ADDRESS_MAX_WRONG_TRIES = 10
WINDOW_SECONDS = 10 * 60


@dataclass(frozen=True)
class Grant:
    """A session's access to one protocol: the seat its scorer chose, and the session's grant id."""

    seat: str
    id: str


def _pin_digest(protocol: Protocol) -> str:
    """What the session keeps instead of the PIN: a grant dies when the referee changes the PIN."""
    return salted_hmac("league.results.table.pin", f"{protocol.pk}:{protocol.pin}").hexdigest()


def grant_of(request: HttpRequest, protocol: Protocol) -> Grant | None:
    """This session's grant for ``protocol``, or None without a valid one."""
    grant = request.session.get(SESSION_KEY, {}).get(str(protocol.pk))
    grant_id = request.session.get(GRANT_ID_KEY)
    if grant and grant_id and constant_time_compare(grant["pin"], _pin_digest(protocol)):
        return Grant(grant["seat"], grant_id)
    return None


def grant_access(request: HttpRequest, protocol: Protocol, seat: str, *, token: str) -> None:
    """Let this session score ``protocol`` as the player at ``seat``; ``token`` is the table's token
    when the PIN came through the token door (else ""), kept for this phone's next PIN."""
    grants = request.session.get(SESSION_KEY, {})
    grants[str(protocol.pk)] = {"seat": seat, "pin": _pin_digest(protocol), "token": token}
    request.session[SESSION_KEY] = grants
    # Kept when the PIN is entered again: choosing another seat does not make this phone a second player.
    request.session.setdefault(GRANT_ID_KEY, secrets.token_hex(8))
    # A new session key on gaining access, so a planted session cookie gains nothing.
    request.session.cycle_key()


def with_token(url: str, protocol: Protocol) -> str:
    """The table's ``url`` (its page or PIN page) at the token door."""
    return f"{url}?{urlencode({TOKEN_PARAM: protocol.table_token})}"


def carried_token(request: HttpRequest, protocol: Protocol) -> str:
    """The table's token when this request comes through the token door, else "": in the address,
    in the PIN form, or kept in this session's grant for the table. A wrong or old token is the
    short address."""
    kept = request.session.get(SESSION_KEY, {}).get(str(protocol.pk), {}).get("token")
    for token in (request.POST.get(TOKEN_PARAM), request.GET.get(TOKEN_PARAM), kept):
        if token and constant_time_compare(token, protocol.table_token):
            return token
    return ""


def phone_id(request: HttpRequest) -> str:
    """The guessing phone: its session, or for a phone without one the random id its signed cookie
    carries. No session is made for a wrong PIN: a flood of cookie-less tries would store a row each,
    while a guesser who drops the cookie is counted by the address anyway."""
    if request.session.session_key is not None:
        return f"session:{request.session.session_key}"
    known = request.get_signed_cookie(PHONE_COOKIE, default=None, salt=PHONE_COOKIE)
    if known is None:
        known = request.new_phone_id = secrets.token_hex(8)
    return f"phone:{known}"


def phone_id_remember(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Give a phone counted under a new id the cookie that names it at its next try."""
    new = getattr(request, "new_phone_id", None)
    if new is not None:
        response.set_signed_cookie(
            PHONE_COOKIE,
            new,
            salt=PHONE_COOKIE,
            max_age=WINDOW_SECONDS,
            httponly=True,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
    return response


class PinTry:
    """One try of a PIN at one door, counted at every level before the PIN is compared (see the module)."""

    def __init__(self, request: HttpRequest, protocol: Protocol, *, by_token: bool) -> None:
        # Under the protocol's PIN generation: the referee's unlock or new PIN starts a new one,
        # so the counts of this phone and address before it no longer lock them. Each door counts
        # apart: tries at the short address never lock a phone or address out of the token door.
        prefix = f"table-pin:{protocol.pk}:{protocol.pin_generation}:{'token' if by_token else 'hand'}"
        self.counters = [
            (f"{prefix}:{phone_id(request)}", MAX_WRONG_TRIES),
            (f"{prefix}:ip:{client_ip(request)}", ADDRESS_MAX_WRONG_TRIES),
        ]
        self.protocol = protocol
        self.by_token = by_token
        self.counted: list[str] = []
        self.table_counted = False

    def take(self) -> str | None:
        """Count the try; the code of the lock that refuses it ("locked" this phone or address,
        "table_locked" the table's token door, "hand_locked" its short address), or None when the
        PIN may be compared."""
        for key, limit in self.counters:
            self.counted.append(key)
            if not count_try(key=key, limit=limit, seconds=WINDOW_SECONDS):
                self.give_back()  # refused unheard: it was no wrong PIN
                return "locked"
        if not services.protocol_pin_try_take(protocol=self.protocol, by_token=self.by_token):
            self.give_back()
            return "table_locked" if self.by_token else "hand_locked"
        self.table_counted = True
        return None

    def give_back(self) -> None:
        """Uncount the try: it was right, or refused without being compared."""
        for key in self.counted:
            count_add(key=key, seconds=WINDOW_SECONDS, delta=-1)
        if self.table_counted:
            services.protocol_pin_try_return(protocol=self.protocol, by_token=self.by_token)
        self.counted, self.table_counted = [], False


TABLE_LOCKED = _(
    "Too many wrong PINs were tried at this table, so its PIN page is locked. "
    "Please ask the referee to unlock it or to give the table a new PIN."
)
HAND_DOOR_CLOSED = _(
    "Too many wrong PINs were typed at this table's short address, so it takes no more PINs. "
    "Scan the QR code on the table's protocol sheet, or ask the referee."
)
LOCKS = ("locked", "table_locked", "hand_locked")
"""The codes of a try refused unheard (see :meth:`PinTry.take`)."""


class PinForm(forms.Form):
    """The PIN from the referee's slip and the seat of the person typing it.

    ``token``: the table's token when the PIN page was reached through the token door (else ""),
    sent back with the PIN in a hidden field."""

    pin = forms.CharField(
        label=_("PIN of the table"),
        max_length=8,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "autofocus": True}),
    )
    seat = forms.ChoiceField(
        label=_("Which seat are you?"),
        widget=forms.RadioSelect(attrs={"class": "seat-pick"}),
        help_text=_("The closing totals must be confirmed by a player at another seat."),
    )

    def __init__(
        self, *args: Any, request: HttpRequest, protocol: Protocol, seats: list[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.request = request
        self.protocol = protocol
        self.token = carried_token(request, protocol)
        self.fields["seat"].choices = seats

    @property
    def door_closed(self) -> str:
        """Why this form's door takes no PIN now ("" while it does), to say before anybody types one."""
        if self.token:
            return TABLE_LOCKED if self.protocol.pin_locked else ""
        return HAND_DOOR_CLOSED if self.protocol.hand_door_closed else ""

    def refused_unheard(self) -> bool:
        """Whether the PIN was refused by a lock, without being compared."""
        return any(self.has_error("pin", code) for code in LOCKS)

    def clean_pin(self) -> str:
        pin = self.cleaned_data["pin"].strip()
        attempt = PinTry(self.request, self.protocol, by_token=bool(self.token))
        # Refused before the PIN is compared, so a locked-out guesser learns nothing even when right.
        lock = attempt.take()
        if lock == "table_locked":
            raise forms.ValidationError(TABLE_LOCKED, code=lock)
        if lock == "hand_locked":
            raise forms.ValidationError(HAND_DOOR_CLOSED, code=lock)
        if lock:
            raise forms.ValidationError(
                _("Too many wrong PINs for this table. Wait %(minutes)s minutes or ask the referee."),
                code=lock,
                params={"minutes": WINDOW_SECONDS // 60},
            )
        if not constant_time_compare(pin, self.protocol.pin):
            raise forms.ValidationError(_("Wrong PIN. Check the slip from the referee."), code="wrong")
        attempt.give_back()  # only wrong PINs count
        return pin
