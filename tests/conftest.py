import pytest

from league.celery import app as celery_app


@pytest.fixture(autouse=True)
def eager_tasks():
    """Unit tests run tasks in-process; the Redis path has its own test."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous
