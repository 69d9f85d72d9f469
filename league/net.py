"""The client's network address, read through the reverse proxies we were told to trust, and the
count of a client's tries that the limits per address (table PINs, online sign-ups) keep."""

from __future__ import annotations

from ipaddress import ip_address

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


def _is_address(text: str) -> bool:
    try:
        ip_address(text)
    except ValueError:
        return False
    return True


def client_ip(request: HttpRequest) -> str:
    """The address of the device that sent ``request``.

    A connection from one of ``settings.TRUSTED_PROXIES`` names its client in
    X-Forwarded-For; that header is read from the right, skipping further trusted proxies,
    so a client cannot choose its own address by sending the header itself. From any other
    address the header is ignored.
    """
    remote = request.META.get("REMOTE_ADDR", "")
    trusted = settings.TRUSTED_PROXIES
    if remote not in trusted:
        return remote
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    for hop in reversed(hops):
        if hop not in trusted:
            return hop if _is_address(hop) else remote
    return remote


def count_try(*, key: str, limit: int, seconds: int) -> bool:
    """Count one try under ``key`` in the cache (shared by the web workers with ``CACHE_URL``);
    whether it is within ``limit``. The window of ``seconds`` runs from the first try."""
    cache.add(key, 0, seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr (this try opens a new window), or the cache is down
        cache.set(key, 1, seconds)
        count = 1
    return count <= limit
