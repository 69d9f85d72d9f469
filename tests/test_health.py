"""/zdrowie/: what the container's probe and a load balancer read.

The probe runs inside the container: ``curl http://127.0.0.1:8000/zdrowie/``, plain HTTP,
by an address the deployment does not list in ``DJANGO_ALLOWED_HOSTS``. It must reach the
app itself (not a 301 that always looks healthy, nor a 400 that always looks unhealthy),
while every other path keeps the host check and the HTTPS redirect.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

from tests.caches import redis_in_use
from tests.test_production import LEG_ONLY

pytestmark = pytest.mark.django_db

PROBE_HOST = "127.0.0.1:8000"
PUBLIC_HOST = "liga.example.org"
ROOT = Path(__file__).resolve().parent.parent

behind_the_proxy = override_settings(ALLOWED_HOSTS=[PUBLIC_HOST], SECURE_SSL_REDIRECT=True)


@behind_the_proxy
def test_the_probe_by_loopback_over_plain_http_reaches_the_health_check(client):
    response = client.get("/zdrowie/", HTTP_HOST=PROBE_HOST)

    assert response.status_code == 200
    assert response.json()["database"] == "ok"


@behind_the_proxy
def test_any_other_page_asked_by_loopback_is_still_refused(client):
    assert client.get("/", HTTP_HOST=PROBE_HOST).status_code == 400


@behind_the_proxy
def test_any_other_page_asked_over_plain_http_is_still_sent_to_https(client):
    response = client.get("/", HTTP_HOST=PUBLIC_HOST)

    assert response.status_code == 301 and response["Location"] == f"https://{PUBLIC_HOST}/"


def test_the_health_check_names_each_part_and_a_cache_inside_the_process_is_local(client):
    response = client.get("/zdrowie/")

    assert response.status_code == 200
    # CI's deployed configuration has a real broker and Redis as the cache
    broker = "eager" if settings.CELERY_TASK_ALWAYS_EAGER else "ok"
    assert response.json() == {"database": "ok", "broker": broker, "cache": "ok" if redis_in_use() else "local"}
    assert "no-cache" in response["Cache-Control"]


PROBE = """
from django.test import Client
client = Client()
for path in ("/zdrowie/", "/"):
    print(path, client.get(path, HTTP_HOST="127.0.0.1:8000").status_code)
print("public", client.get("/", HTTP_HOST="liga.example.org").status_code)
"""


def test_with_the_production_settings_only_the_health_check_answers_the_probe(tmp_path):
    """The settings as a deployment makes them, ``DJANGO_SECURE=1`` and the public host alone."""
    env = {
        **{name: value for name, value in os.environ.items() if name not in LEG_ONLY},
        "DJANGO_SECRET_KEY": "a-production-secret-of-sufficient-length-0123456789-abcdefghijklmnop",
        "DJANGO_ALLOWED_HOSTS": PUBLIC_HOST,
        "DJANGO_SECURE": "1",
        "DJANGO_DEBUG": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    code = f"import django; django.setup(); exec({PROBE!r})"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "league.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["/zdrowie/", "200", "/", "400", "public", "301"]
