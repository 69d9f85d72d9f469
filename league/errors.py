"""A clear answer instead of a traceback when the database is unreachable.

PostgreSQL restarting or dropping a connection makes the request that was using
it fail with ``OperationalError`` (or ``InterfaceError`` for a connection already
closed). The transaction of that request is rolled back, so nothing of it is
stored; the next request gets a fresh connection (``CONN_HEALTH_CHECKS``). The
person at the phone must learn that their last change may not have been saved
and that sending it again is safe: a resent form carries the old protocol version
and is refused as stale if the first try did get through.

Two pieces, wired in by the project:

- ``DatabaseUnavailableMiddleware`` (in ``MIDDLEWARE``): a view that fails on the
  database answers 503 with ``Retry-After``, also with ``DEBUG`` on;
- ``server_error`` as ``handler500`` in the root URLconf: the same page for a
  database failure anywhere else (a middleware saving the session), and the
  site's 500 page (``500.html``) for any other error.

The page is plain HTML built here, not a template: rendering ``base.html`` would
ask for the user and the session, i.e. the database that has just failed. For the
same reason ``500.html`` (and ``400.html``, also rendered without the request)
extends ``_error_page.html``, a frame that needs nothing but the language.

``permission_denied`` is ``handler403``: a page of a tournament refused to a
logged-in user says whom to ask (its organisers); any other refusal gives its
translated reason, if it has one.
"""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views import defaults

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503: the database did not answer; what happened to the change and what to do."""
    title = _("The results database did not answer")
    lines = [
        _("The server lost its connection to the database for a moment."),
        _(
            "If you were saving a deal, it may not have been saved. Go back, reload the protocol and check "
            "the last deal; send it again if it is missing (sending it twice cannot store it twice)."
        ),
    ]
    body = "".join(f"<p>{escape(line)}</p>" for line in lines)
    back = _("Back")
    html = (
        f'<!doctype html><html lang="{escape(getattr(request, "LANGUAGE_CODE", "pl"))}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{escape(title)}</title></head>'
        f'<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem">'
        f"<h1>{escape(title)}</h1>{body}"
        f'<p><a href="javascript:history.back()">{escape(back)}</a></p></body></html>'
    )
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    """Turn a database failure in a view into the 503 page above."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_ERRORS):
            logger.warning("Database unavailable during %s %s: %s", request.method, request.path, exception)
            return database_unavailable(request)
        return None


def server_error(request: HttpRequest, template_name: str = defaults.ERROR_500_TEMPLATE_NAME) -> HttpResponse:
    """``handler500``: the database page for a database failure, Django's 500 page otherwise."""
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_ERRORS):
        return database_unavailable(request)
    try:
        return defaults.server_error(request, template_name)
    except Exception:  # the 500 template itself failed (it may need the database too)
        return HttpResponseServerError("<h1>Server Error (500)</h1>", content_type="text/html")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``: the refused page, naming the organisers of a refused tournament page."""
    tournament = getattr(exception, "tournament", None)
    context: dict[str, object] = {"reason": str(exception)}
    if tournament is not None:
        organisers = tournament.organisers.order_by("last_name", "first_name", "username")
        context = {
            "tournament": tournament,
            "role": exception.role,
            "organisers": [user.get_full_name() or user.get_username() for user in organisers],
        }
    return render(request, "403.html", context, status=403)


class RefusalInOneLine(logging.Filter):
    """A logging filter: Django logs a refused request (403) with the traceback of the permission
    check that raised it; keep the line ("Forbidden: /turnieje/…/") and drop the traceback, which
    tells an administrator nothing and filled the log with one screen per refusal."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
