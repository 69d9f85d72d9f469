"""Latency of the public standings page under concurrent spectators.

Run: ``.venv/bin/python bench/public_latency.py``. Builds the database
``baska_public_latency`` on the local PostgreSQL (dropped afterwards): one
tournament of 4 × ``BENCH_TABLES`` (64) players, ``BENCH_SERIES`` (5) closed series
of 40 deals; starts ``gunicorn league.wsgi -w 4 --threads 4`` (``BENCH_WORKERS``,
``BENCH_THREADS``) on 127.0.0.1 and sends ``BENCH_REQUESTS`` (2000) GETs of the
standings page from ``BENCH_CLIENTS`` (20) concurrent clients (bounded also by
``BENCH_SECONDS``, 120). Prints the first (cold, computing) request, then median/p95
latency and requests/s of the rest; exits 1 when a request failed or none was answered.
Uses the helpers of ``bench/load.py``; cache as there (BENCH_CACHE_URL). A tiny run
(tests/bench): ``BENCH_TABLES=4 BENCH_SERIES=1 BENCH_REQUESTS=40 BENCH_CLIENTS=4``.
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load


def main() -> int:
    requests = int(os.environ.get("BENCH_REQUESTS", "2000"))
    clients = int(os.environ.get("BENCH_CLIENTS", "20"))
    seconds = float(os.environ.get("BENCH_SECONDS", "120"))
    series = int(os.environ.get("BENCH_SERIES", "5"))
    tables = int(os.environ.get("BENCH_TABLES", "64"))
    workers = int(os.environ.get("BENCH_WORKERS", "4"))
    threads_each = int(os.environ.get("BENCH_THREADS", "4"))
    db_name, slug = "baska_public_latency", "publiczna"
    path = f"/t/{slug}/klasyfikacja/"

    load.recreate_database(db_name)
    load.setup_django(db_name)
    from django.core.cache import cache
    from django.db import connections

    start = time.perf_counter()
    load.build_tournament(slug, players=tables * 4, closed_series=series, open_series=False)
    print(
        f"built: {tables * 4} players, {series} closed series x {tables} tables x 40 deals "
        f"in {time.perf_counter() - start:.1f} s"
    )
    if load.CACHE_URL:
        cache.clear()
    connections.close_all()
    server = load.start_gunicorn(db_name, workers=workers, threads=threads_each)
    print(
        f"gunicorn on 127.0.0.1:{server.port} (-w {workers} --threads {threads_each}), "
        f"cache {load.CACHE_URL or 'locmem'}; load before: {load.load_average()}"
    )
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    remaining = [requests]
    try:
        cold = load.Client(server.port).get(path)
        print(
            f"first request (standings computed): {cold.status} in {cold.seconds * 1000:.0f} ms, {len(cold.body)} bytes"
        )
        stop = time.monotonic() + seconds

        def worker() -> None:
            client = load.Client(server.port)
            while time.monotonic() < stop:
                with lock:
                    if remaining[0] <= 0:
                        return
                    remaining[0] -= 1
                try:
                    answer = client.get(path)
                except OSError as error:
                    with lock:
                        errors.append(repr(error))
                    continue
                with lock:
                    if answer.status == 200:
                        latencies.append(answer.seconds)
                    else:
                        errors.append(f"HTTP {answer.status}")

        threads = [threading.Thread(target=worker, daemon=True) for _ in range(clients)]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=max(1.0, stop + 35 - time.monotonic()))
        elapsed = time.monotonic() - began
        print(
            f"{len(latencies)} requests from {clients} clients in {elapsed:.1f} s: "
            f"{len(latencies) / elapsed:.1f} requests/s; load after: {load.load_average()}"
        )
        if latencies:
            print(
                f"median {statistics.median(latencies) * 1000:.0f} ms, "
                f"p95 {load.percentile(latencies, 0.95) * 1000:.0f} ms, "
                f"max {max(latencies) * 1000:.0f} ms"
            )
        print(f"errors: {len(errors)} {errors[:5]}")
    finally:
        server.stop()
        connections.close_all()
        if not os.environ.get("BENCH_KEEP_DB"):
            load.recreate_database(db_name, drop_only=True)
    if not latencies:
        print("FAILED: no request was answered")
    return 0 if latencies and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
