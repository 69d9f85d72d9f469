"""The Celery application. Without ``CELERY_BROKER_URL`` every task runs eagerly
in the web process (settings), so the embedded mode needs no broker."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

app = Celery("league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="league.ping")
def ping() -> str:
    """A task that only answers: the health of the worker path, used by the tests."""
    return "pong"
