"""The client's network address, read through the reverse proxies we were told to trust."""

from __future__ import annotations

from ipaddress import ip_address

from django.conf import settings
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
