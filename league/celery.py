"""The Celery application. Without ``CELERY_BROKER_URL`` every task runs eagerly
in the web process (settings), so the embedded mode needs no broker."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

app = Celery("league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="league.ping")
def ping(token: str) -> None:
    """Leave ``token`` in the cache: proof that a worker took a task off the broker."""
    from league.caching import WORKER_PING  # the app is made before Django's settings are read

    WORKER_PING.set(f"league.ping:{token}", "pong", 60)
