"""The Celery application. Without ``CELERY_BROKER_URL`` every task runs eagerly
in the web process (settings), so the embedded mode needs no broker."""

import os

from celery import Celery

from league.caching import WORKER_PING

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

app = Celery("league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="league.ping")
def ping(token: str) -> None:
    """Leave ``token`` in the cache: proof that a worker took a task off the broker."""
    WORKER_PING.set(f"league.ping:{token}", "pong", 60)
