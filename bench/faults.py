"""The real fault: PostgreSQL restarted while tables enter deals through gunicorn.

Run: ``.venv/bin/python bench/faults.py`` (needs root for ``pg_ctlcluster``). Builds
``baska_faults`` (dropped afterwards), starts gunicorn, signs ``BENCH_TABLES`` (8)
table clients in and lets them enter the 40 deals of the drawn series 2 spread over
``BENCH_SECONDS`` (30) seconds, restarts the cluster with ``pg_ctlcluster
--skip-systemctl-redirect <version> main restart`` (the version: ``BENCH_PG_VERSION``,
else the one under /etc/postgresql) after a third of the time, then checks every
acknowledged deal is stored exactly once and no protocol holds a deal nobody was told
was saved (beyond the one in flight per table). It exits 1 when a check fails or when
no deal was acknowledged before the fault or none after it. It restarts the shared
cluster: other test runs against it see their connections dropped for a second or two.

``BENCH_FAULT=connections`` kills only the connections to ``baska_faults``
(``pg_terminate_backend``, twice a second for ``BENCH_FAULT_SECONDS``, 2) instead of
restarting the cluster: the same fault for the web processes, no root needed, and
nobody else's connections touched (tests/bench runs it so, with
``BENCH_TABLES=2 BENCH_SECONDS=3 BENCH_FAULT_SECONDS=1``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load

DB_NAME, SLUG = "baska_faults", "awarie"
SERIES = 2  # series 1 closed and played, series 2 drawn for the tables


def restart_cluster() -> str:
    """Restart the local PostgreSQL cluster; what it said."""
    version = os.environ.get("BENCH_PG_VERSION") or sorted(os.listdir("/etc/postgresql"))[-1]
    restart = subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return f"cluster {version} restart: rc={restart.returncode} {restart.stderr.strip()[:200]}"


def kill_connections(seconds: float) -> str:
    """Terminate every connection to the bench database twice a second for ``seconds``."""
    import psycopg

    killed = 0
    end = time.monotonic() + seconds
    with psycopg.connect(**load.PG_ADMIN, autocommit=True) as admin:
        while time.monotonic() < end:
            killed += len(
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = %s AND pid <> pg_backend_pid()",
                    (DB_NAME,),
                ).fetchall()
            )
            time.sleep(0.5)
    return f"connections to {DB_NAME} killed: {killed}"


def main() -> int:
    tables = int(os.environ.get("BENCH_TABLES", "8"))
    seconds = float(os.environ.get("BENCH_SECONDS", "30"))
    fault = os.environ.get("BENCH_FAULT", "restart")
    fault_seconds = float(os.environ.get("BENCH_FAULT_SECONDS", "2"))
    if fault not in ("restart", "connections"):
        print(f"BENCH_FAULT={fault!r}: restart or connections")
        return 2
    load.recreate_database(DB_NAME)
    load.setup_django(DB_NAME)
    from django.db import connections

    from league.games.baska.settings import tournament_ruleset
    from league.models import Tournament

    pins = load.build_tournament(SLUG, players=tables * 4, closed_series=SERIES - 1, deals=40)
    load.RULESET = tournament_ruleset(Tournament.objects.get(slug=SLUG))
    connections.close_all()
    server = load.start_gunicorn(DB_NAME, workers=2, threads=4)
    stats = load.Stats()
    statuses: Counter = Counter()
    try:
        phones = load.sign_in_tables(server.port, SLUG, pins, stats, series=SERIES)
        print(f"{len(phones)} of {len(pins)} tables signed in")
        stop = time.monotonic() + seconds
        threads = [
            threading.Thread(
                target=load.table_client,
                args=(server.port, SLUG, table, pins[table], 40, stop, stats),
                # 40 deals spread over the window, so the tables are still entering when the fault comes
                kwargs={"series": SERIES, "signed_in": phone, "pause": seconds / 40},
                daemon=True,
            )
            for table, phone in phones.items()
        ]
        for thread in threads:
            thread.start()
        time.sleep(seconds / 3)
        before = len(stats.acknowledged)
        began = time.monotonic()
        said = restart_cluster() if fault == "restart" else kill_connections(fault_seconds)
        print(f"{said}, in {time.monotonic() - began:.1f} s (after {before} deals)")
        for thread in threads:
            thread.join(timeout=max(1.0, stop + 40 - time.monotonic()))
        # after the restart the site must answer again
        for _ in range(20):
            try:
                statuses[load.Client(server.port).get(f"/t/{SLUG}/klasyfikacja/").status] += 1
            except OSError:
                statuses["exception"] += 1
        after = len(stats.acknowledged) - before
        print(f"deals acknowledged: {len(stats.acknowledged)} ({after} after the fault), stale retried: {stats.stale}")
        print(f"failed requests during the fault: {sum(stats.errors.values())} {dict(stats.errors)}")
        for sample in stats.error_samples[:5]:
            print("  ", sample[:200])
        print(f"standings page after the fault: {dict(statuses)}")
    finally:
        server.stop()
    # a save refused by the restart may still have committed just before it: the client
    # then re-reads and continues, so at most one unacknowledged row per table is allowed
    problems = load.verify(SLUG, stats, series=SERIES)
    unacked = [p for p in problems if "acknowledged" in p and "rows in the database" in p]
    hard = [p for p in problems if p not in unacked]
    if not before or not after:
        hard.append(f"deals acknowledged before the fault: {before}, after it: {after}; both must be some")
    if set(statuses) != {200}:
        hard.append(f"the standings page after the fault answered {dict(statuses)}")
    print("verification:", "OK" if not hard else f"FAILED: {len(hard)} problems", f"({len(unacked)} row-count notes)")
    for problem in [*hard, *unacked][:10]:
        print("  ", problem)
    connections.close_all()
    load.recreate_database(DB_NAME, drop_only=True)
    return 0 if not hard else 1


if __name__ == "__main__":
    sys.exit(main())
