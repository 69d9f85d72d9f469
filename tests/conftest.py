import pytest

from league.celery import app as celery_app


@pytest.fixture(autouse=True)
def eager_tasks():
    """Unit tests run tasks in-process; the Redis path has its own test."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Real hashing costs a third of a second per user; tests create many."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
