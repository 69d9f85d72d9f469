"""The client's network address, read through the reverse proxies we were told to trust, and the
count of a client's tries that the limits per address (table PINs, online sign-ups) keep.

The counts live in Django's cache (Redis, shared by the web workers, with ``CACHE_URL``): a
try costs no database write. While the cache is unavailable they are kept in the database
instead (``TryCount``), so that a limit still counts with Redis down: a guesser or a bot gains
nothing from an outage, and the people trying honestly are not refused either. A count under
a key that holds junk (no whole number) starts a new window.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from ipaddress import ip_address

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone
from redis.exceptions import ResponseError

from league.models import TryCount

logger = logging.getLogger(__name__)


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
    """Count one try under ``key``; whether it is within ``limit``. The window of ``seconds`` runs
    from the first try."""
    return count_add(key=key, seconds=seconds) <= limit


def count_add(*, key: str, seconds: int, delta: int = 1) -> int:
    """Add ``delta`` (a try, or -1: a try given back) to the count under ``key`` and return it. A
    count that is missing, expired or not a whole number starts a new window at ``delta``."""
    if _cache_unavailable():
        return _database_count_add(key=key, seconds=seconds, delta=delta)
    cache.add(key, 0, seconds)
    try:
        return cache.incr(key, delta)
    except ValueError:  # expired between add and incr, or the cache went down meanwhile
        if _cache_unavailable():
            return _database_count_add(key=key, seconds=seconds, delta=delta)
    except (TypeError, ResponseError):  # LocMem's and Redis's word for junk under the key
        logger.warning("A count that was no number was found and started again: %s", key)
    cache.set(key, delta, seconds)
    return delta


def _cache_unavailable() -> bool:
    """Whether the cache was found down a moment ago (``league.cache_backend``); an in-process
    cache never is."""
    unavailable = getattr(cache, "unavailable", None)
    return unavailable is not None and unavailable()


def _database_count_add(*, key: str, seconds: int, delta: int) -> int:
    """``count_add`` in the database: one row per key and window, the expired ones removed."""
    now = timezone.now()
    with transaction.atomic():
        TryCount.objects.filter(window_ends__lte=now).delete()
        if not TryCount.objects.filter(key=key).update(count=F("count") + delta):
            try:
                with transaction.atomic():
                    TryCount.objects.create(key=key, count=delta, window_ends=now + timedelta(seconds=seconds))
            except IntegrityError:  # another try of the same key made the row first
                TryCount.objects.filter(key=key).update(count=F("count") + delta)
        return TryCount.objects.get(key=key).count
