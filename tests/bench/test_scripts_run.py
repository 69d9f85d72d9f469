"""Every script of ``bench/`` runs to its end at a tiny size and prints its figures, so none
rots unnoticed again (issue 26).

Each script runs as README says to run it, in a process of its own, at the tiny size its
docstring gives; the test checks that it exits 0 and printed its figures, never what they
are (a shared machine's speed says nothing about the code's).

The scripts that start gunicorn, a Celery worker or ``wrk`` need the local PostgreSQL
(127.0.0.1:5432, user postgres, trust auth) and Redis (127.0.0.1:6379): they are ``slow``
and run when the suite itself runs on PostgreSQL (``DATABASE_URL=postgres://…``, CI's
second run), skipped elsewhere. They copy one migrated template database
(``BENCH_TEMPLATE_DB``) instead of migrating a database each, and each script that shares
a Redis cache gets a Redis database of its own, so two running side by side (pytest-xdist)
never read each other's pages.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = {"host": "127.0.0.1", "port": 5432, "user": "postgres", "dbname": "postgres"}
SECONDS = 180  # a script still running after this is stuck, whatever the machine's load
# one gunicorn worker: it starts, warms up and stops sooner than the scripts' four
SMALL_SERVER = {"BENCH_WORKERS": "1", "BENCH_THREADS": "4"}


@dataclass(frozen=True)
class Script:
    name: str
    figures: tuple[str, ...]
    """Patterns the output must hold: the figures the script exists to print."""
    env: dict[str, str] = field(default_factory=dict)
    args: tuple[str, ...] = ()
    services: bool = False
    """Needs the local PostgreSQL and Redis (and starts gunicorn)."""
    wrk: bool = False

    def __str__(self) -> str:
        return self.name


def live_page_env(*, redis_db: int) -> dict[str, str]:
    """A tiny run of a live page's benchmark (the control room, the projector): 4 tables dealing
    for a second under 4 wrk connections, with a Redis database of its own."""
    return {
        "BENCH_TABLES": "4",
        "BENCH_SECONDS": "1",
        "BENCH_DEAL_EVERY": "0.3",
        "BENCH_CONNECTIONS": "4",
        "BENCH_IDLE": "5",
        "BENCH_CACHE_URL": f"redis://127.0.0.1:6379/{redis_db}",
        **SMALL_SERVER,
    }


SCRIPTS = [
    Script(
        "scoring",
        (r"deal valuations: [\d,]+ per second", r"tournament of 8 players .* [\d.]+ s \(best of 5\)"),
        {"BENCH_TABLES": "2"},
    ),
    Script("draw", (r"16: 4 teams +4 +\d+ +\d+ +\d+ +\d+ +[\d.]+ \| +\d+ +[\d.]+",), {"BENCH_MAX_PLAYERS": "20"}),
    Script(
        "pulka",
        (r"2 pulkas to 20 among four", r"re-scores it in [\d.]+ ms", r"every table of the evening .* ms a table"),
        {"BENCH_TABLES": "2", "BENCH_SERIES": "1"},
    ),
    Script(
        "printing",
        (
            r"2 protocols of a series \(to play with\), first +[\d.]+ s wall",
            r"2 protocols of a series \(archive, filled\) +[\d.]+ s wall.* 2/2 tables",
            r"results sheets \(4 rankings, 8 players\) +[\d.]+ s wall.* \d+ kB",
        ),
        {"BENCH_TABLES": "2", "BENCH_SERIES": "1", "BENCH_DEALS": "4"},
    ),
    Script(
        "rankings",
        (
            r"one tournament's standings \(16 players\) +[\d.]+ s",
            r"season of 2 tournaments, best 7 +[\d.]+ s",
            r"queries per standings page: \d+ computing, \d+ from the cache",
        ),
        {"BENCH_TEAMS": "4", "BENCH_TOURNAMENTS": "2", "BENCH_SERIES": "2", "BENCH_DEALS": "4"},
    ),
    Script(
        "records",
        (
            r"built 2 tournaments, \d+ deal rows",
            r"records, no rows kept \(each tournament read afresh\) +[\d.]+ s +\d+ queries",
            r"records from the players' kept rows, nothing cached +[\d.]+ s +\d+ queries",
            r"a visit of /rekordy/ \(the lists kept\) +[\d.]+ s +\d+ queries",
            r"records after one tournament's correction \(its rows behind\) +[\d.]+ s +\d+ queries",
            r"records once the recompute task rewrote its rows +[\d.]+ s +\d+ queries",
        ),
        {"BENCH_TOURNAMENTS": "2", "BENCH_SERIES": "1", "BENCH_DEALS": "4"},
    ),
    Script(
        "season_history",
        (
            r"tournaments +table s +chart s +chart before s +kept bytes +unpacked",
            r"\n +3 +[\d.]+ +[\d.]+ +[\d.]+ +\d+ +\d+ +yes",
        ),
        args=("--sizes", "1,3"),
    ),
    Script(
        "player_page",
        (
            r"tournaments +queries cold +ms cold +queries warm +ms warm +ms kept +page KB",
            # a cold page reads the database: nothing kept by the measuring process answers it
            r"\n +2 +[1-9]\d* +[\d.]+ +[1-9]\d* +[\d.]+ +[\d.]+ +[\d.]+ ",
            r"queries cold and warm the same at 1 and 2 tournaments",
        ),
        args=("--sizes", "1,2", "--field", "8,12", "--series", "2", "--deals", "4"),
    ),
    Script(
        "rating_simulation",
        (r"everyone meets +[\d.]+ +[\d.]+ ", r"two leagues .* +[\d.]+ +[\d.]+ "),
        {"BENCH_TOURNAMENTS": "5", "BENCH_RUNS": "1"},
    ),
    Script(
        "rating_speed",
        (
            r"full rebuild \(rebuild_ratings\): [\d.]+ s CPU \([\d.]+ s wall\), \d+ rows",
            r"update after one series closes \(ratings_refresh\): [\d.]+ s CPU",
            r"update after a correction a year back: [\d.]+ s CPU",
        ),
        {"BENCH_TOURNAMENTS": "3", "BENCH_TABLES": "2", "BENCH_REPEATS": "1"},
    ),
    Script(
        "player_import",
        (r"xfd1\.xlsx +[\d,]+ +[\d.]+ +\d+ .* preview of 1 rows",),
        {"BENCH_FILES": "xfd1.xlsx"},
    ),
    Script(
        "load",
        (
            r"4 of 4 tables signed in",
            r"deals acknowledged: [1-9]\d* \([\d.]+ deals/s\)",
            r"writes \(POST zapisz/\): n=[1-9]\d* p50=\d+ ms p95=\d+ ms",
            r"reads \(GET klasyfikacja/\): n=[1-9]\d* p50=\d+ ms",
            r"errors: 0",
            r"verification: OK",
        ),
        {"BENCH_TABLES": "4", "BENCH_READERS": "4", "BENCH_SECONDS": "2", "BENCH_DEALS": "5", **SMALL_SERVER},
        services=True,
    ),
    Script(
        "public_latency",
        (r"first request \(standings computed\): 200", r"[1-9]\d* requests from 4 clients", r"median \d+ ms, p95"),
        {
            "BENCH_TABLES": "4",
            "BENCH_SERIES": "1",
            "BENCH_REQUESTS": "40",
            "BENCH_CLIENTS": "4",
            "BENCH_CACHE_URL": "redis://127.0.0.1:6379/8",
            **SMALL_SERVER,
        },
        services=True,
    ),
    Script(
        "faults",
        (
            r"2 of 2 tables signed in",
            r"connections to baska_faults killed: \d+",
            r"deals acknowledged: [1-9]\d* \([1-9]\d* after the fault\)",
            r"standings page after the fault: \{200: 20\}",
            r"verification: OK",
        ),
        # its own database's connections killed, not the shared cluster restarted under the suite
        {"BENCH_FAULT": "connections", "BENCH_FAULT_SECONDS": "1", "BENCH_TABLES": "2", "BENCH_SECONDS": "3"},
        services=True,
    ),
    Script(
        "public_standings",
        (
            r"standings page: [\d.]+ KB uncompressed, [\d.]+ KB on the wire \(gzip",
            r"conditional GET: If-None-Match -> 304, If-Modified-Since -> 304",
            r"/zdrowie/ +[\d.]+ requests/s +p50 +[\d.]+ ms",
            r"ratio standings / health: [\d.]+",
            r"all goals met",
        ),
        {
            "BENCH_TABLES": "4",
            "BENCH_SERIES": "1",
            "BENCH_SECONDS": "1",
            "BENCH_SPEED_GOAL": "0",
            "BENCH_DROP_DB": "1",
            **SMALL_SERVER,
        },
        services=True,
        wrk=True,
    ),
    Script(
        "public_pages",
        (
            r"\| 2 \| /zdrowie/ \| \d+ \| 1\.00 \|",
            r"\| 2 \| find my table \| \d+ \| [\d.]+ \| [\d.]+ \| \d+ \| \d+ \|",
            r"all pages measured",
            r"cache after 2 tournament\(s\), 2 changes later: \d+ keys, [\d.]+ MB, largest value \d+ KB",
        ),
        {
            "BENCH_HISTORY": "2",
            "BENCH_PLAYERS": "16",
            "BENCH_SERIES": "1",
            "BENCH_SECONDS": "1",
            "BENCH_WARMUP": "0",
            "BENCH_SPEED_GOAL": "0",
            "BENCH_DROP_DB": "1",
            "BENCH_CACHE_URL": "redis://127.0.0.1:6379/13",
            "BENCH_CHANGES": "2",
            "BENCH_ROUNDS": "1",
            **SMALL_SERVER,
        },
        services=True,
        wrk=True,
    ),
    Script(
        "freshness",
        (
            r"\| 1 \| standings \| [\d.]+ \| [\d.]+ \| [\d.]+ \|",
            r"\| 1 \| team \| [\d.]+ \| [\d.]+ \| [\d.]+ \|",
            r"readers: \d+ reads, p95 \d+ ms, 0 errors",
            r"cache after 4 corrections at 1 tournament\(s\): \d+ keys, [\d.]+ MB",
            r"ratio last/first: [\d.]+",
        ),
        {
            "BENCH_HISTORY": "1",
            "BENCH_PLAYERS": "16",
            "BENCH_SERIES": "1",
            "BENCH_CORRECTIONS": "2",
            "BENCH_READERS": "4",
            "BENCH_MEMORY_CORRECTIONS": "2,4",
            "BENCH_DROP_DB": "1",
            "BENCH_CACHE_URL": "redis://127.0.0.1:6379/15",
            "BENCH_BROKER_URL": "redis://127.0.0.1:6379/5",  # not 10: the dependency-faults script empties that one
            **SMALL_SERVER,
        },
        services=True,
    ),
    Script(
        "control_room",
        (
            r"deals saved: [1-9]\d* in 1 s",
            r"wrk 4 connections: \d+ requests/s, 304: [\d.]+%",
            r"latency under load: p50 [\d.]+ ms",
            r"idle cost of one poll \(p50\): 200 built [\d.]+ ms",
        ),
        live_page_env(redis_db=12),
        services=True,
        wrk=True,
    ),
    Script(
        "projector",
        (
            r"pages: 200, \d+ KiB uncompressed, [1-9]\d* pages",
            r"deals saved: [1-9]\d* in 1 s",
            r"wrk 4 connections: \d+ requests/s, 304: [\d.]+%",
            r"idle cost of one poll \(p50\): 200 built [\d.]+ ms",
        ),
        live_page_env(redis_db=14),
        services=True,
        wrk=True,
    ),
    Script(
        "offline_phones",
        (
            r"deals entered: (\d+), stored: \1, duplicates: 0",
            r"reconnect → all its waiting deals stored: ",
            r"total wall time: [\d.]+ s",
            r"verification: OK",
        ),
        {"BENCH_CACHE_URL": "redis://127.0.0.1:6379/9", **SMALL_SERVER},
        ("--quick", "--tables", "4"),
        services=True,
    ),
    Script(
        "dependency_faults",
        (
            r"a\) PostgreSQL killed +\d+ +\d+ +0 +0",
            r"d\) worker killed +\d+ +\d+ +0 +0",
            r"whole run +[1-9]\d* +[1-9]\d* +0 +0",
            r"lost: 0, duplicated: 0, answers 500: 0",
            r"verification: OK",
        ),
        args=("--phones", "2", "--fault", "0.5", "--recovery", "0.5", "--warmup", "0.5", "--typing", "0.2"),
        services=True,
    ),
]


def test_every_script_of_bench_is_run_here():
    """A new script in bench/ gets its tiny run here (filler and proxy are helpers, not scripts)."""
    scripts = {path.stem for path in (ROOT / "bench").glob("*.py")} - {"filler", "proxy"}
    assert scripts == {script.name for script in SCRIPTS}


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


def on_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith("postgres")


def script_env(tmp_path: Path) -> dict[str, str]:
    """This environment without the suite's database, cache and broker (each script picks its own),
    with the scripts' files and secret key under ``tmp_path``."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL"}}
    env.update(TMPDIR=str(tmp_path), BASKA_VAR_DIR=str(tmp_path / "var"), PYTHONUNBUFFERED="1")
    return env


@pytest.fixture(scope="session")
def template_database(worker_id: str, tmp_path_factory: pytest.TempPathFactory):
    """A database migrated once per test process, copied by each script that needs PostgreSQL."""
    import psycopg

    name = f"baska_bench_template_{worker_id}"
    with psycopg.connect(**PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    env = script_env(tmp_path_factory.mktemp("template"))
    env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=300
    )
    with psycopg.connect(**PG_ADMIN, autocommit=True) as admin:
        # a database is copied only while nobody is connected to it: wait for migrate's connection to end
        deadline = time.monotonic() + 10
        while admin.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)).fetchone()[0]:
            assert time.monotonic() < deadline, "migrate's connection to the template did not end"
            time.sleep(0.1)
    yield name
    with psycopg.connect(**PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.parametrize(
    "script",
    [
        # a script without services runs on a SQLite database of its own, whatever the suite's
        pytest.param(s, id=s.name, marks=[pytest.mark.slow] if s.services else [pytest.mark.configuration_free])
        for s in SCRIPTS
    ],
)
def test_the_script_runs_to_its_end_at_a_tiny_size(script: Script, tmp_path, request):
    env = script_env(tmp_path)
    if script.services:
        if not on_postgres():
            pytest.skip("needs the local PostgreSQL and Redis: runs when the suite runs on PostgreSQL")
        if not (answers(5432) and answers(6379)):
            pytest.skip("no PostgreSQL at 127.0.0.1:5432 or no Redis at 127.0.0.1:6379")
        env["BENCH_TEMPLATE_DB"] = request.getfixturevalue("template_database")
    if script.wrk and shutil.which("wrk") is None:
        pytest.skip("wrk is missing: apt-get install wrk")
    env.update(script.env)
    finished = subprocess.run(
        [sys.executable, f"bench/{script.name}.py", *script.args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=SECONDS,
    )
    output = finished.stdout + finished.stderr
    assert finished.returncode == 0, output
    missing = [pattern for pattern in script.figures if not re.search(pattern, finished.stdout)]
    assert not missing, f"no {missing} in:\n{output}"
