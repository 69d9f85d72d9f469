"""Throughput of the public standings page against the same server's health check.

Run: ``.venv/bin/python bench/public_standings.py``. Builds the PostgreSQL
database ``bench_public_standings`` on 127.0.0.1 (kept for the next run of the
same size, rebuilt with ``BENCH_REBUILD=1``, dropped at the end with
``BENCH_DROP_DB=1``): 4 × ``BENCH_TABLES`` (64) players in teams of four,
``BENCH_SERIES`` (5) closed series of 40 deals (``bench/load.py``'s tournament,
seated and filled by ``bench/filler.py``). Starts ``gunicorn league.wsgi -w 4
--threads 4`` (``BENCH_WORKERS``, ``BENCH_THREADS``) on a free port of 127.0.0.1 (DEBUG off, cache ``BENCH_CACHE_URL``,
by default Redis database 3), then runs ``wrk`` (Debian's package; a client
outside the server's interpreter) with 20 connections for ``BENCH_SECONDS`` (15)
against ``/zdrowie/`` and against the standings page, as a browser asks for it
(``Accept-Encoding: gzip``), and prints each one's requests/s and latency
p50/p90, their ratio (goal ≥ 0.5), the page's size on the wire (goal ≤ 40 KB)
and whether a conditional GET gets 304. Stops gunicorn however it ends. It exits 1
when a goal is missed; ``BENCH_SPEED_GOAL=0`` prints the ratio without failing on
it (a tiny run on a busy machine says nothing about speed). A tiny run
(tests/bench): ``BENCH_TABLES=4 BENCH_SERIES=1 BENCH_SECONDS=1 BENCH_SPEED_GOAL=0
BENCH_DROP_DB=1``.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("BENCH_CACHE_URL", "redis://127.0.0.1:6379/3")

import load

DB_NAME, SLUG = "bench_public_standings", "klasyfikacja"
PAGE, HEALTH = f"/t/{SLUG}/klasyfikacja/", "/zdrowie/"
CONNECTIONS = 20
SERIES = int(os.environ.get("BENCH_SERIES", "5"))
TABLES = int(os.environ.get("BENCH_TABLES", "64"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "15"))
GOAL_RATIO, GOAL_BYTES = 0.5, 40 * 1024
BROWSER = {"Accept-Encoding": "gzip, deflate", "Accept-Language": "pl"}


def database_ready() -> bool:
    """Whether the database holds the tournament of this size from an earlier run."""
    import psycopg

    try:
        with psycopg.connect(load.database_url(DB_NAME), connect_timeout=5) as conn:
            row = conn.execute(
                "SELECT count(DISTINCT s.id), count(DISTINCT r.id) FROM league_tournament t "
                "JOIN league_series s ON s.tournament_id = t.id AND s.status = 'closed' "
                "JOIN league_registration r ON r.tournament_id = t.id WHERE t.slug = %s",
                [SLUG],
            ).fetchone()
    except psycopg.Error:
        return False
    return row == (SERIES, TABLES * 4)


def prepare_database() -> None:
    if database_ready() and not os.environ.get("BENCH_REBUILD"):
        print(f"reusing the database {DB_NAME}")
        load.setup_django(DB_NAME)
        return
    load.recreate_database(DB_NAME)
    load.setup_django(DB_NAME)
    start = time.perf_counter()
    load.build_tournament(SLUG, players=TABLES * 4, closed_series=SERIES, open_series=False)
    print(
        f"built {DB_NAME}: {TABLES * 4} players, {SERIES} closed series x {TABLES} tables x 40 deals"
        f" in {time.perf_counter() - start:.1f} s"
    )


def get(port: int, path: str, headers: dict[str, str]) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection(load.HOST, port, timeout=30)
    conn.request("GET", path, headers={"Host": f"{load.HOST}:{port}", **headers})
    response = conn.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    conn.close()
    return response


def wrk(port: int, path: str, headers: dict[str, str]) -> dict[str, float]:
    """requests/s and latency p50/p90 (ms) from one wrk run."""
    command = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{SECONDS}s", "--timeout", "10s", "--latency"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run(
        [*command, f"http://{load.HOST}:{port}{path}"], capture_output=True, text=True, timeout=SECONDS + 60, check=True
    ).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    result = {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": milliseconds(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1)),
        "p90": milliseconds(re.search(r"^\s+90%\s+(\S+)", out, re.M).group(1)),
        "errors": int(errors.group(1)) if errors else 0,
    }
    return result


def milliseconds(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


def main() -> int:
    if shutil.which("wrk") is None:
        print("wrk is missing: apt-get install -y wrk")
        return 2
    prepare_database()
    from django.core.cache import cache
    from django.db import connections

    cache.clear()  # cold start: the first request computes the standings
    connections.close_all()
    workers = int(os.environ.get("BENCH_WORKERS", "4"))
    threads = int(os.environ.get("BENCH_THREADS", "4"))
    server = load.start_gunicorn(DB_NAME, workers=workers, threads=threads)
    print(
        f"gunicorn on {load.HOST}:{server.port} (-w {workers} --threads {threads}, DEBUG off), cache {load.CACHE_URL}"
    )
    try:
        start = time.perf_counter()
        first = get(server.port, PAGE, BROWSER)
        print(f"first request (standings computed): {first.status} in {(time.perf_counter() - start) * 1000:.0f} ms")
        plain = get(server.port, PAGE, {"Accept-Language": "pl"})
        wire = len(first.body)
        print(
            f"standings page: {len(plain.body) / 1024:.1f} KB uncompressed, {wire / 1024:.1f} KB on the wire "
            f"({first.getheader('Content-Encoding') or 'identity'}; goal <= {GOAL_BYTES // 1024} KB)"
        )
        etag, modified = first.getheader("ETag"), first.getheader("Last-Modified")
        by_etag = get(server.port, PAGE, {**BROWSER, "If-None-Match": etag or ""})
        by_date = get(server.port, PAGE, {**BROWSER, "If-Modified-Since": modified or ""})
        print(f"conditional GET: If-None-Match -> {by_etag.status}, If-Modified-Since -> {by_date.status}")

        health = wrk(server.port, HEALTH, BROWSER)
        page = wrk(server.port, PAGE, BROWSER)
        for label, run in ((HEALTH, health), (PAGE, page)):
            print(
                f"{label:<28} {run['rps']:8.1f} requests/s  p50 {run['p50']:6.1f} ms  p90 {run['p90']:6.1f} ms"
                f"  non-2xx {run['errors']:.0f}  ({CONNECTIONS} connections, {SECONDS} s)"
            )
        ratio = page["rps"] / health["rps"]
        print(f"ratio standings / health: {ratio:.2f} (goal >= {GOAL_RATIO})")
    finally:
        server.stop()
        connections.close_all()
        if os.environ.get("BENCH_DROP_DB"):
            load.recreate_database(DB_NAME, drop_only=True)
    speed_goal = os.environ.get("BENCH_SPEED_GOAL", "1") != "0"
    passed = (
        (ratio >= GOAL_RATIO or not speed_goal)
        and wire <= GOAL_BYTES
        and first.getheader("Content-Encoding") == "gzip"
        and by_etag.status == by_date.status == 304
        and not page["errors"]
    )
    print("all goals met" if passed else "GOALS MISSED")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
