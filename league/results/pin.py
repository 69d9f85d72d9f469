"""The table scorer's way in: a protocol's short PIN opens that one protocol.

Nobody at the table needs an account. The referee hands each table its link and
PIN; a correct PIN stores a grant for that protocol alone in the browser session,
together with the seat the scorer says they sit at (the closing confirmation must
come from a different seat, docs/rules.md §7).

Wrong PINs are counted in Django's cache, per protocol, both per client IP and
per session: after ``MAX_WRONG_TRIES`` within ``WINDOW_SECONDS`` the form refuses
every try, right or wrong, until the window has passed. Counting per IP stops a
guesser who throws the cookie away; counting per session stops one behind a
shared address from locking out only themselves. With the default LocMemCache the
counts live in one server process; a deployment with several workers should point
``CACHES`` at a shared cache (Redis) so the limit holds across them.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext_lazy as _

from .models import Protocol

SESSION_KEY = "table_scorer"
MAX_WRONG_TRIES = 5
WINDOW_SECONDS = 10 * 60


def _pin_digest(protocol: Protocol) -> str:
    """What the session keeps instead of the PIN: a grant dies when the referee changes the PIN."""
    return salted_hmac("league.results.pin", f"{protocol.pk}:{protocol.pin}").hexdigest()


def granted_seat(request: HttpRequest, protocol: Protocol) -> str | None:
    """The seat of the scorer this session was let in as, or None without a valid grant."""
    grant = request.session.get(SESSION_KEY, {}).get(str(protocol.pk))
    if grant and constant_time_compare(grant["pin"], _pin_digest(protocol)):
        return grant["seat"]
    return None


def grant_access(request: HttpRequest, protocol: Protocol, seat: str) -> None:
    """Let this session score ``protocol`` as the player at ``seat``."""
    grants = request.session.get(SESSION_KEY, {})
    grants[str(protocol.pk)] = {"seat": seat, "pin": _pin_digest(protocol)}
    request.session[SESSION_KEY] = grants
    # A new session key on gaining access, so a planted session cookie gains nothing.
    request.session.cycle_key()


def client_ip(request: HttpRequest) -> str:
    """The address the connection came from. X-Forwarded-For is not trusted: a guesser could
    rotate it; behind a proxy all tables share one address, and the per-session count remains."""
    return request.META.get("REMOTE_ADDR", "")


def _counter_keys(request: HttpRequest, protocol: Protocol) -> tuple[str, str]:
    if request.session.session_key is None:
        request.session.save()  # a brand-new visitor needs a key to be counted under
    prefix = f"table-pin:{protocol.pk}"
    return f"{prefix}:ip:{client_ip(request)}", f"{prefix}:session:{request.session.session_key}"


def is_locked(request: HttpRequest, protocol: Protocol) -> bool:
    return any(cache.get(key, 0) >= MAX_WRONG_TRIES for key in _counter_keys(request, protocol))


def record_wrong_pin(request: HttpRequest, protocol: Protocol) -> None:
    """Count one wrong try; the window runs from the first wrong try, not the last."""
    for key in _counter_keys(request, protocol):
        cache.add(key, 0, WINDOW_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr: this try opens a new window
            cache.set(key, 1, WINDOW_SECONDS)


class PinForm(forms.Form):
    """The PIN from the referee's slip and the seat of the person typing it."""

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
        self.fields["seat"].choices = seats

    def clean_pin(self) -> str:
        pin = self.cleaned_data["pin"].strip()
        # Checked before the PIN itself, so a locked-out guesser learns nothing even when right.
        if is_locked(self.request, self.protocol):
            raise forms.ValidationError(
                _("Too many wrong PINs for this table. Wait %(minutes)s minutes or ask the referee."),
                code="locked",
                params={"minutes": WINDOW_SECONDS // 60},
            )
        if not constant_time_compare(pin, self.protocol.pin):
            record_wrong_pin(self.request, self.protocol)
            raise forms.ValidationError(_("Wrong PIN. Check the slip from the referee."), code="wrong")
        return pin
