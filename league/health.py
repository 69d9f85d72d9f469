"""The health check that docker-compose and a load balancer poll.

200 means "send this instance requests": the database answers (nothing works
without it) and the broker takes tasks. The cache is reported but does not turn
the answer into 503: with Redis down the site works, only slower
(``league.cache_backend``), and Redis is shared by every instance, so a load
balancer taking them all out of rotation, or docker restarting them, would turn a
slow site into no site and fix nothing. Monitoring reads ``"cache"`` in the body.

The probe asks ``http://127.0.0.1:8000/zdrowie/`` from inside the container: neither a
public host name nor HTTPS. ``HealthCheckMiddleware`` answers that path before the host
check and the HTTPS redirect see the request, so the probe tests the app itself while every
other path keeps both.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache

from league.celery import app


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:  # the answer must describe any failure, not raise it
        return f"error: {error.__class__.__name__}"
    return "ok"


def _broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as error:
        return f"error: {error.__class__.__name__}"
    return "ok"


def _cache() -> str:
    """``ok`` when Redis answers, ``local`` for a cache inside this process (no server to ask)."""
    backend = caches["default"]
    ping = getattr(backend, "ping", None)  # league.cache_backend.ForgivingRedisCache
    if ping is None:
        return "local"
    try:
        ping()
    except Exception as error:
        return f"error: {error.__class__.__name__}"
    return "ok"


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    """200 with ``{"database": "ok", "broker": "ok"|"eager", "cache": "ok"|"local"|"error: …"}``,
    or 503 when the database or the broker is down; the cache is reported only (see the module)."""
    checks = {"database": _database(), "broker": _broker()}
    healthy = all(value in {"ok", "eager"} for value in checks.values())
    checks["cache"] = _cache()
    return JsonResponse(checks, status=200 if healthy else 503)


class HealthCheckMiddleware:
    """Answers ``/zdrowie/`` whatever the Host header says; passes every other request on."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == "/zdrowie/":
            return health(request)
        return self.get_response(request)
