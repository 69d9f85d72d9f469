"""The table scorer's service worker: the script that keeps the phone page working offline.

A service worker controls only the pages under the path it is served from, so the script
(static/js/table-sw.js) is served here, under the tournament's table pages
(``turnieje/<slug>/stolik/``), not from ``/static/``. It is the same file for everyone and
writes nothing; the browser checks it for a new version at each page load (``no-cache``).
"""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

SCRIPT = "js/table-sw.js"


@require_GET
def service_worker(request: HttpRequest, slug: str) -> HttpResponse:
    path = finders.find(SCRIPT)
    if path is None:  # a deployment without the source's static folder
        raise Http404(SCRIPT)
    with open(path, "rb") as script:
        response = HttpResponse(script.read(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
