import os
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.test import override_settings
from django.utils import translation

from league.celery import app as celery_app
from tests.factories import UserFactory


def pytest_configure(config):
    """The suite links and serves the files of static/ as they are (WhiteNoise from the finders),
    whether or not a `make run` left collectstatic's manifest in the checkout: a test must not
    depend on a collection that may be missing or older than the files. The hashed, compressed
    files have their own tests (tests/test_static_files.py), which collect into a folder of theirs."""
    plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    override_settings(STORAGES={**settings.STORAGES, "staticfiles": plain}, WHITENOISE_USE_FINDERS=True).enable()
    _cache_of_this_worker()


# The pure cores' tests (scoring/ and the draw's algorithm import no Django: tests/test_architecture.py)
# read no setting, so under another database or cache they would run exactly as before; so would a
# test marked ``configuration_free`` (a bench script's tiny run on a SQLite database of its own).
PURE_CORE_TESTS = ("tests/scoring/", "tests/draw/")


# The browser's widths (tests/browser/conftest.py): the deployed leg runs a browser test at the first
# one its ``viewport`` marker names, else at the phone's, where the tables' phones are.
WIDTHS = ("phone", "desktop")


def pytest_collection_modifyitems(config, items):
    """Left out: a browser test marked for one width (``@pytest.mark.viewport("phone")``) at the
    other, before its browser and live server start; and, with ``DATABASE_URL`` (the deployed
    configuration's leg of CI, after the embedded default's leg ran everything), what reads nothing
    of the configuration: the pure cores' tests (about a thousand, a minute of CI), those marked
    ``configuration_free``, and a browser test's second width (a page's layout at a width is the
    same whatever the database and cache; what the server answers does not depend on the width)."""
    deployed = bool(os.environ.get("DATABASE_URL"))
    left_out = [item for item in items if other_width(item) or (deployed and same_in_every_configuration(item))]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        kept = set(items) - set(left_out)
        items[:] = [item for item in items if item in kept]


def same_in_every_configuration(item) -> bool:
    """Whether ``item`` runs the same whatever database, cache and broker the suite is given, as
    another test the deployed leg runs."""
    if item.nodeid.startswith(PURE_CORE_TESTS) or item.get_closest_marker("configuration_free") is not None:
        return True
    width = browser_width(item)
    marker = item.get_closest_marker("viewport")
    return width is not None and width != (marker.args if marker else WIDTHS)[0]


def browser_width(item) -> str | None:
    """The width a browser test's window has (the ``page`` fixture's parameter), or None."""
    callspec = getattr(item, "callspec", None)
    width = callspec.params.get("page") if callspec is not None else None
    return width if "page" in getattr(item, "fixturenames", ()) and width in WIDTHS else None


def other_width(item) -> bool:
    """Whether ``item`` is a browser test at a width its ``viewport`` marker does not name."""
    marker = item.get_closest_marker("viewport")
    width = browser_width(item)
    return marker is not None and width is not None and width not in marker.args


def _cache_of_this_worker() -> None:
    """With ``CACHE_URL`` (the deployed configuration's leg of CI), each test process keeps its
    cache in a Redis database of its own, the URL's number plus the xdist worker's: every test
    empties the cache (``fresh_caches``), and a test process must not empty another's mid-test."""
    cache_url = settings.CACHE_URL
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    if not cache_url or not worker.startswith("gw"):
        return
    parts = urlsplit(cache_url)
    database = int(parts.path.strip("/") or 0) + int(worker[2:])
    if database > 15:
        raise RuntimeError(f"CACHE_URL's database number plus {worker} is past Redis's 16 databases")
    location = urlunsplit(parts._replace(path=f"/{database}"))
    override_settings(CACHES={"default": {**settings.CACHES["default"], "LOCATION": location}}).enable()


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


@pytest.fixture(autouse=True)
def english_messages(settings):
    """Tests read messages in English, the source language; the Polish catalogue
    (the site's default) has its own tests in test_translations.py, and a test
    that wants Polish asks for it (Accept-Language: pl, translation.override)."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def fresh_caches(settings):
    """Each test starts with an empty cache (standings, PIN tries) and no page kept ready, and
    reads the stamp on every request, so a test that changes results sees them at once;
    tests/public/test_ready_pages.py sets its own stamp time."""
    from league.public import page_store

    settings.STANDINGS_STAMP_SECONDS = 0
    cache.clear()
    page_store.forget_all()
    yield
    cache.clear()
    page_store.forget_all()


@pytest.fixture
def organiser(client):
    """A user who may create tournaments (an organiser), logged in; a module may define its own."""
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    return user


@pytest.fixture
def still_clock(monkeypatch):
    """The clock stands at one instant for the test: a polled page's ETag moves with the minute and the
    phones' heartbeat period (20 s), so a test reading the same page twice would otherwise, now and
    then, straddle a boundary and see a new page where nothing was written."""
    from django.utils import timezone

    instant = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: instant)
    return instant
