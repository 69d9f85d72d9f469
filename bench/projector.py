"""The projector of one tournament under load: 64 tables, a deal about once a second, 200 pollers.

Run: ``.venv/bin/python bench/projector.py`` (PostgreSQL at 127.0.0.1:5432, Redis and ``wrk`` as for
``bench/control_room.py``, whose tournament, writer and wrk script it uses). It builds the database
``baska_projector`` (dropped afterwards): 256 players, series 1 drawn at 64 tables under a 55-minute
limit with its clock started, the draw published; starts ``gunicorn league.wsgi`` on 127.0.0.1, then
for ``BENCH_SECONDS`` (30):

- a writer saves a deal every ``BENCH_DEAL_EVERY`` (1.0) seconds, table after table, through
  ``league.results.services`` in this process;
- ``wrk`` with ``BENCH_CONNECTIONS`` (200) connections polls the projector's pages
  (``public:projector_pages``) as ``static/js/projector.js`` does, anonymously, with
  ``If-None-Match`` of the last 200 it got (per wrk thread);
- a watcher polls the same way every 50 ms and notes when each saved deal first shows in a 200:
  a projector sees this plus up to its poll interval (``POLL_SECONDS``, 5 s).

Then, with the server idle, one client measures a 200 built afresh (a deal saved just before, so no
process holds the new pages), a 200 kept ready (asked again without an ETag) and a 304.
It exits 1 when the writer failed, saved nothing or wrk got answers other than 200 and 304.
Environment knobs: BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_DEAL_EVERY, BENCH_TABLES (64),
BENCH_IDLE (100: polls of each kind on the idle server, 3 × as many 304s; at most 30 built),
BENCH_WORKERS (4), BENCH_THREADS (4), BENCH_KEEP_DB=1. A tiny run (tests/bench):
``BENCH_TABLES=4 BENCH_SECONDS=1 BENCH_DEAL_EVERY=0.3 BENCH_CONNECTIONS=4 BENCH_IDLE=5``.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import control_room
import load

DB = "baska_projector"
PAGES = f"/t/{control_room.SLUG}/rzutnik/strony/"
COUNT_RE = re.compile(r'data-table="(\d+)"><b>\d+</b> <span class="projector-count">(\d+)/')


def projector(port: int) -> control_room.Poller:
    """One anonymous projector polling its pages with the ETag of its last 200."""
    return control_room.Poller(port, {}, path=PAGES, headers={"Accept-Encoding": "identity"}, counts=COUNT_RE)


def save_one_deal(table: int) -> None:
    from django.contrib.auth import get_user_model

    from league.games.baska.shorthand import parse
    from league.results.models import Protocol
    from league.results.services import protocol_row_save

    protocol = Protocol.objects.get(series__tournament__slug=control_room.SLUG, series__number=1, table=table)
    protocol_row_save(
        protocol=protocol,
        number=protocol.rows.count() + 1,
        deal=parse("ac60"),
        expected_version=protocol.version,
        user=get_user_model().objects.get(username=control_room.USERNAME),
    )


def main() -> int:
    seconds = int(os.environ.get("BENCH_SECONDS", "30"))
    connections = int(os.environ.get("BENCH_CONNECTIONS", "200"))
    every = float(os.environ.get("BENCH_DEAL_EVERY", "1.0"))
    workers = int(os.environ.get("BENCH_WORKERS", "4"))
    threads = int(os.environ.get("BENCH_THREADS", "4"))

    load.recreate_database(DB)
    load.setup_django(DB)
    from django.core.cache import cache
    from django.db import connections as db_connections

    control_room.build()
    cache.clear()
    db_connections.close_all()
    server = load.start_gunicorn(DB, workers=workers, threads=threads)
    print(
        f"gunicorn -w {workers} --threads {threads} on 127.0.0.1:{server.port}, {control_room.TABLES} tables; "
        f"load {load.load_average()}"
    )
    try:
        first = projector(server.port)
        status, body, _ = first.get()
        print(f"pages: {status}, {len(body) // 1024} KiB uncompressed, {body.count('data-page=')} pages")
        saved: dict[tuple[int, int], float] = {}
        lags: list[float] = []
        errors: list[str] = []
        stop = time.monotonic() + seconds
        background = [
            threading.Thread(target=control_room.writer, args=(every, stop, saved, errors)),
            threading.Thread(target=control_room.watcher, args=(projector(server.port), stop, saved, lags)),
        ]
        for thread in background:
            thread.start()
        output = control_room.run_wrk(server.port, "", seconds, connections, PAGES)["raw"]
        for thread in background:
            thread.join()
        problems = control_room.print_load_report(
            output,
            saved,
            errors,
            lags,
            seconds=seconds,
            connections=connections,
            poll="a projector adds up to its 5 s poll",
        )
        print(f"load after the run: {load.load_average()}")

        idle = projector(server.port)
        built = []
        for n in range(min(30, control_room.IDLE)):
            save_one_deal(n % control_room.TABLES + 1)
            built.append(idle.get(conditional=False)[2])
        kept = [idle.get(conditional=False)[2] for _ in range(control_room.IDLE)]
        idle.get(conditional=False)
        answers = [idle.get() for _ in range(3 * control_room.IDLE)]
        control_room.print_idle_cost(built, kept, answers)
    finally:
        server.stop()
        db_connections.close_all()
        if not os.environ.get("BENCH_KEEP_DB"):
            load.recreate_database(DB, drop_only=True)
    for problem in problems:
        print("FAILED:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
