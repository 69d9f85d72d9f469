"""How many sign-up forms one client address may send: a bot filling the form in a loop is
stopped, while a club's hall behind one address can still sign up its players.

Counted like the table PINs (``league.net.count_try``): in Django's cache, shared by the web
workers when ``CACHE_URL`` points at Redis, per address as ``league.net.client_ip`` reads it
through the trusted proxies. django-ratelimit would add a dependency for these few lines.
"""

from __future__ import annotations

from django.http import HttpRequest

from league.net import client_ip, count_try

SENDS_PER_WINDOW = 30
WINDOW_SECONDS = 60 * 60


def signup_send_allowed(request: HttpRequest) -> bool:
    """Count one more form sent from the request's address; False once it is over the limit."""
    return count_try(key=f"signups.sent:{client_ip(request)}", limit=SENDS_PER_WINDOW, seconds=WINDOW_SECONDS)
