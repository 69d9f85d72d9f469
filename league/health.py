"""The health check that docker-compose and a load balancer poll."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache


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
    from league.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as error:
        return f"error: {error.__class__.__name__}"
    return "ok"


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    """200 with ``{"database": "ok", "broker": "ok"|"eager"}``, or 503 naming what is down."""
    checks = {"database": _database(), "broker": _broker()}
    healthy = all(value in {"ok", "eager"} for value in checks.values())
    return JsonResponse(checks, status=200 if healthy else 503)
