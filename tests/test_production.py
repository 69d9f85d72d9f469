"""The production set-up that can be checked without Docker: settings, the
entrypoint starting gunicorn against a real database, and a Celery worker."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.core.exceptions import ImproperlyConfigured

from league.settings import env_bool, env_choice, env_int, env_list

ROOT = Path(__file__).resolve().parent.parent
ENTRYPOINT = ROOT / "docker" / "entrypoint.sh"
PRODUCTION = {
    "DJANGO_SECRET_KEY": "a-production-secret-of-sufficient-length-0123456789-abcdefghijklmnop",
    "DJANGO_ALLOWED_HOSTS": "liga.example.org,127.0.0.1",
    "DJANGO_SECURE": "1",
    "DJANGO_DEBUG": "0",
}


# CI's deployed leg turns the redirect to HTTPS off for the test client; a deployment leaves it on
LEG_ONLY = ("DJANGO_SSL_REDIRECT",)


def run_env(**extra: str) -> dict[str, str]:
    env = {**{k: v for k, v in os.environ.items() if k not in LEG_ONLY}, **PRODUCTION, **extra}
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_production_settings_pass_the_deploy_check():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=run_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def hsts_settings(**variables: str) -> list:
    names = "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD"
    code = f"import league.settings as s; print({', '.join('s.' + name for name in names)})"
    env = run_env(**variables)
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    return result.stdout.split()


def test_hsts_is_modest_unless_the_deployer_asks_for_subdomains_and_preload():
    assert hsts_settings() == ["86400", "False", "False"]
    assert hsts_settings(
        DJANGO_HSTS_SECONDS="31536000", DJANGO_HSTS_INCLUDE_SUBDOMAINS="1", DJANGO_HSTS_PRELOAD="yes"
    ) == ["31536000", "True", "True"]


def start_without_a_secret_key(var_dir: Path, **variables: str) -> subprocess.CompletedProcess:
    """The settings loaded as a start with no DJANGO_SECRET_KEY; prints the key they chose."""
    env = {**os.environ, "BASKA_VAR_DIR": str(var_dir), **variables}
    for name in {"DJANGO_SECRET_KEY", "DJANGO_SECURE"} - variables.keys():
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-c", "import league.settings as s; print(s.SECRET_KEY)"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_secret_key_the_app_makes_one_outside_the_repository(tmp_path):
    result = start_without_a_secret_key(tmp_path)
    assert len(result.stdout.strip()) >= 50
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_the_made_key_is_kept_so_sessions_survive_a_restart(tmp_path):
    first, second = start_without_a_secret_key(tmp_path), start_without_a_secret_key(tmp_path)
    assert first.stdout == second.stdout
    assert [path.name for path in tmp_path.iterdir()] == ["secret_key"]


def test_a_production_start_without_a_secret_key_is_refused_and_writes_nothing(tmp_path):
    result = start_without_a_secret_key(tmp_path, DJANGO_SECURE="1")
    assert result.returncode != 0
    assert result.stderr.splitlines()[-1].startswith(
        "django.core.exceptions.ImproperlyConfigured: DJANGO_SECRET_KEY is not set; "
        "with DJANGO_SECURE on (production) it must be: set it to a long random string"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_key_that_cannot_be_kept_stops_the_start_with_what_to_set(tmp_path):
    (tmp_path / "a-file").write_text("")
    result = start_without_a_secret_key(tmp_path / "a-file" / "var")
    assert result.returncode != 0
    assert result.stderr.splitlines()[-1].startswith(
        "django.core.exceptions.ImproperlyConfigured: DJANGO_SECRET_KEY is not set and the generated key "
        f"cannot be kept in {tmp_path / 'a-file' / 'var' / 'secret_key'}"
    )
    assert "set DJANGO_SECRET_KEY, or BASKA_VAR_DIR to a folder this user may write" in result.stderr


# --- variables the settings read ----------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("TRUE", True), (" yes ", True), ("On", True), ("0", False), ("false", False), ("NO", False)]
    + [("off", False)],
)
def test_yes_no_variables_take_the_usual_spellings(monkeypatch, value, expected):
    monkeypatch.setenv("BASKA_TEST_FLAG", value)
    assert env_bool("BASKA_TEST_FLAG", default=not expected) is expected


@pytest.mark.parametrize("default", [True, False])
def test_an_unset_or_empty_variable_gives_the_default(monkeypatch, default):
    monkeypatch.delenv("BASKA_TEST_VAR", raising=False)
    assert env_bool("BASKA_TEST_VAR", default) is default
    assert env_int("BASKA_TEST_VAR", 15) == 15
    monkeypatch.setenv("BASKA_TEST_VAR", " ")
    assert env_bool("BASKA_TEST_VAR", default) is default
    assert env_int("BASKA_TEST_VAR", 15) == 15
    assert env_list("BASKA_TEST_VAR", "a.org,b.org") == ["a.org", "b.org"]
    assert env_choice("BASKA_TEST_VAR", "WARNING", ("INFO", "WARNING")) == "WARNING"


def test_numbers_lists_and_log_levels_are_read_as_written(monkeypatch):
    monkeypatch.setenv("BASKA_TEST_VAR", " 30 ")
    assert env_int("BASKA_TEST_VAR", 15) == 30
    monkeypatch.setenv("BASKA_TEST_VAR", "liga.example.org, 127.0.0.1,")
    assert env_list("BASKA_TEST_VAR", "") == ["liga.example.org", "127.0.0.1"]
    monkeypatch.setenv("BASKA_TEST_VAR", "info")
    assert env_choice("BASKA_TEST_VAR", "WARNING", ("INFO", "WARNING")) == "INFO"


@pytest.mark.parametrize(
    ("read", "value", "accepted"),
    [
        (lambda: env_bool("BASKA_TEST_VAR"), "yes-please", "1/true/yes/on for yes, 0/false/no/off for no"),
        (lambda: env_bool("BASKA_TEST_VAR", True), "2", "1/true/yes/on for yes, 0/false/no/off for no"),
        (lambda: env_int("BASKA_TEST_VAR", 5), "five", "a whole number, 0 or more"),
        (lambda: env_int("BASKA_TEST_VAR", 5), "-1", "a whole number, 0 or more"),
        (lambda: env_int("BASKA_TEST_VAR", 5), "1.5", "a whole number, 0 or more"),
        (lambda: env_list("BASKA_TEST_VAR", ""), "a.org b.org", "items separated by commas"),
        (lambda: env_choice("BASKA_TEST_VAR", "WARNING", ("INFO", "WARNING")), "loud", "INFO, WARNING"),
    ],
)
def test_a_value_the_settings_do_not_understand_is_refused_by_name(monkeypatch, read, value, accepted):
    monkeypatch.setenv("BASKA_TEST_VAR", value)
    with pytest.raises(ImproperlyConfigured) as error:
        read()
    assert f"BASKA_TEST_VAR={value!r} is not understood" in str(error.value)
    assert accepted in str(error.value)


def test_the_app_does_not_start_with_a_yes_no_value_it_does_not_understand(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=run_env(DJANGO_DEBUG="yes-please", BASKA_VAR_DIR=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert result.stderr.splitlines()[-1] == (
        "django.core.exceptions.ImproperlyConfigured: DJANGO_DEBUG='yes-please' is not understood; "
        "accepted values: 1/true/yes/on for yes, 0/false/no/off for no (any case)"
    )


def documented_variables() -> set[str]:
    """The first column of README.md's configuration table."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Configuration (environment variables)", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", section, flags=re.M))


def variables_read() -> set[str]:
    """Every variable the settings, the Celery app, the image's entrypoint and the compose file read."""
    python = re.compile(r'(?:\benv_\w+\(|os\.environ\.get\(|os\.getenv\(|os\.environ\[)\s*"([A-Z][A-Z0-9_]*)"')
    shell = re.compile(r"\$\{([A-Z][A-Z0-9_]*)")
    names = set()
    for path in (ROOT / "league" / "settings.py", ROOT / "league" / "celery.py"):
        names |= set(python.findall(path.read_text()))
    for path in (ENTRYPOINT, ROOT / "docker" / "docker-compose.yml"):
        names |= set(shell.findall(path.read_text()))
    return names


def test_the_readme_documents_every_variable_the_app_reads():
    read = variables_read()
    assert {"DATABASE_URL", "DJANGO_DEBUG", "DJANGO_LOG_LEVEL", "GUNICORN_WORKERS", "POSTGRES_PASSWORD"} <= read
    assert documented_variables() == read


def test_entrypoint_runs_any_other_command_as_given():
    result = subprocess.run(
        [str(ENTRYPOINT), "python", "-c", "print('baśka')"],
        cwd=ROOT,
        env=run_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.strip() == "baśka"


@pytest.fixture
def empty_database(tmp_path):
    """A database URL nobody else uses: a new PostgreSQL database when the suite
    runs on PostgreSQL, else a SQLite file."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'entrypoint.sqlite3'}"
        return
    import psycopg

    parts = urlsplit(url)
    name = "baska_entrypoint_test"
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    yield urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.mark.slow
def test_entrypoint_migrates_and_serves_with_gunicorn(empty_database, tmp_path):
    port = free_port()
    env = run_env(
        DATABASE_URL=empty_database,
        PORT=str(port),
        GUNICORN_WORKERS="1",
        BASKA_VAR_DIR=str(tmp_path),
        DJANGO_SSL_REDIRECT="0",
    )
    server = subprocess.Popen(
        [str(ENTRYPOINT), "web"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/zdrowie/", timeout=5) as response:
                    body = json.load(response)
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"gunicorn did not start:\n{server.stdout.read() if server.stdout else ''}")
                time.sleep(0.5)
        assert body["database"] == "ok"
        expected_broker = "ok" if os.environ.get("CELERY_BROKER_URL") else "eager"
        assert body["broker"] == expected_broker
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("CELERY_BROKER_URL"), reason="needs a real broker (CI's second run)")
def test_a_celery_worker_processes_a_task_through_the_broker():
    import secrets

    from celery.contrib.testing.worker import start_worker
    from django.core.cache import cache

    from league.celery import app, ping

    token = secrets.token_hex(8)
    queue = f"test-{token}"  # a queue of its own: the worker must not take anybody else's tasks
    app.conf.task_always_eager = False
    with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue]):
        ping.apply_async((token,), queue=queue)
        deadline = time.monotonic() + 30
        while cache.get(f"league.ping:{token}") is None and time.monotonic() < deadline:
            time.sleep(0.2)
    assert cache.get(f"league.ping:{token}") == "pong"
