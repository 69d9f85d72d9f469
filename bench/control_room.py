"""The control room of one series under load: 64 tables, a deal about once a second, 200 pollers.

Run: ``.venv/bin/python bench/control_room.py`` (PostgreSQL at 127.0.0.1:5432 and Redis as for
``bench/load.py``, whose helpers it uses; ``wrk`` on the PATH: ``apt-get install wrk``). It builds the
database ``baska_control_room`` (dropped afterwards): 256 players, series 1 drawn at 64 tables under
a 55-minute limit with its clock started, and a referee; starts ``gunicorn league.wsgi`` on
127.0.0.1, then for ``BENCH_SECONDS`` (30):

- a writer saves a deal every ``BENCH_DEAL_EVERY`` (1.0) seconds, table after table, as the
  referee through ``league.results.services`` in this process (the evening's rate, whatever the
  pollers do to the server's queue; bench/load.py measures deals through the HTTP pages);
- ``wrk`` with ``BENCH_CONNECTIONS`` (200) connections polls the fragment as the browsers' htmx
  does, with the referee's session and ``If-None-Match`` of the last 200 it got (per wrk thread);
- a watcher polls the fragment every 50 ms the same way and notes when each saved deal first
  shows in a 200: the lag a browser sees is this plus up to its 2 s polling interval.

Then, with the server idle, one client measures a 200 built afresh (a filter value not asked before),
a 200 from the fragments each process keeps ready (no ETag sent) and a 304 (the current ETag).
Prints requests/s, the share of 304, p50/p99 latency, the lag and the two costs.
It exits 1 when the writer failed, saved nothing or wrk got answers other than 200 and 304.
Environment knobs: BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_DEAL_EVERY, BENCH_TABLES (64),
BENCH_IDLE (100: polls of each kind on the idle server, 3 × as many 304s), BENCH_WORKERS (4),
BENCH_THREADS (4), BENCH_KEEP_DB=1. A tiny run (tests/bench):
``BENCH_TABLES=4 BENCH_SECONDS=1 BENCH_DEAL_EVERY=0.3 BENCH_CONNECTIONS=4 BENCH_IDLE=5``.
"""

from __future__ import annotations

import http.client
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load

SLUG = "sala-obciazenie"
DB = "baska_control_room"
USERNAME, PASSWORD = "sedzia-bench", "haslo-bench-sali"
ROOM = f"/turnieje/{SLUG}/seria-1/sala/stoly/"
LINES = ["ac60", "bd+", "ab70", "cd-", "ad45", "bc+"]
COUNT_RE = re.compile(r'data-table="(\d+)">.*?class="hall-count">(\d+)/', re.S)
TABLES = int(os.environ.get("BENCH_TABLES", "64"))
IDLE = int(os.environ.get("BENCH_IDLE", "100"))

# wrk: each thread keeps the ETag of the last 200 it got and counts the answers by status
WRK_SCRIPT = """
local etag = nil
counts = {}  -- global: done() reads it from each thread
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) cookie = args[1] end
function request()
  local headers = {["Cookie"] = cookie, ["HX-Request"] = "true"}
  if etag then headers["If-None-Match"] = etag end
  return wrk.format("GET", nil, headers)
end
function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
  if status == 200 then etag = headers["ETag"] end
end
function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    local c = thread:get("counts")
    for status, n in pairs(c) do total[status] = (total[status] or 0) + n end
  end
  for status, n in pairs(total) do io.write(string.format("status %d %d\\n", status, n)) end
  io.write(string.format("latency p50 %.3f p99 %.3f max %.3f\\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("requests %d seconds %.3f\\n", summary.requests, summary.duration / 1e6))
end
"""


def build() -> None:
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from league.models import Series, Tournament

    load.build_tournament(SLUG, players=TABLES * 4, closed_series=0)
    tournament = Tournament.objects.get(slug=SLUG)
    tournament.time_limit_minutes = 55
    tournament.save(update_fields=["time_limit_minutes"])
    referee = get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    tournament.referees.add(referee)
    # started a while ago, so the room has a pace to measure lateness by
    Series.objects.filter(tournament=tournament, number=1).update(
        clock_started_at=timezone.now() - timedelta(minutes=12), clock_limit_minutes=55
    )


class Poller:
    """One client polling ``path`` (the room's fragment) with the ETag of its last 200; ``counts``
    reads each table's deal count out of a page, for the watcher."""

    def __init__(
        self,
        port: int,
        cookies: dict[str, str],
        *,
        path: str = ROOM,
        headers: dict[str, str] | None = None,
        counts: re.Pattern[str] = COUNT_RE,
    ) -> None:
        self.port, self.cookies, self.etag = port, cookies, ""
        self.path, self.headers, self.counts = path, headers or {}, counts

    def get(self, *, conditional: bool = True, query: str = "") -> tuple[int, str, float]:
        headers = {"Host": f"{load.HOST}:{self.port}", **self.headers}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if conditional and self.etag:
            headers["If-None-Match"] = self.etag
        start = time.perf_counter()
        conn = http.client.HTTPConnection(load.HOST, self.port, timeout=30)
        try:
            conn.request("GET", self.path + query, headers=headers)
            response = conn.getresponse()
            body = response.read().decode()
        finally:
            conn.close()
        if response.status == 200:
            self.etag = response.headers["ETag"]
        return response.status, body, time.perf_counter() - start


def writer(every: float, stop: float, saved: dict[tuple[int, int], float], errors: list[str]) -> None:
    """Save a deal every ``every`` seconds, table after table, through the results services in this
    process (as the server's own views would, but not queued behind the pollers); ``saved`` gets
    (table, count) → when it was committed."""
    from django.contrib.auth import get_user_model
    from django.core.exceptions import ValidationError
    from django.db import connection

    from league.games.baska.shorthand import parse
    from league.results.models import Protocol
    from league.results.services import protocol_row_save

    referee = get_user_model().objects.get(username=USERNAME)
    table, line = 0, 0
    next_at = time.monotonic()
    try:
        while time.monotonic() < stop:
            table = table % TABLES + 1
            protocol = Protocol.objects.select_related("series__tournament").get(
                series__tournament__slug=SLUG, series__number=1, table=table
            )
            number = protocol.rows.count() + 1
            try:
                protocol_row_save(
                    protocol=protocol,
                    number=number,
                    deal=parse(LINES[line % len(LINES)]),
                    expected_version=protocol.version,
                    user=referee,
                )
                saved[(table, number)] = time.monotonic()
            except ValidationError as error:
                errors.append(" ".join(error.messages))
            line += 1
            next_at += every
            time.sleep(max(0.0, next_at - time.monotonic()))
    finally:
        connection.close()


def watcher(poller: Poller, stop: float, saved: dict[tuple[int, int], float], lags: list[float]) -> None:
    """Note when each saved deal first shows in a 200 of the fragment."""
    seen: set[tuple[int, int]] = set()
    while time.monotonic() < stop + 2:
        try:
            status, body, _ = poller.get()
        except (OSError, http.client.HTTPException):
            continue
        if status == 200:
            now = time.monotonic()
            shown = {(int(t), int(c)) for t, c in poller.counts.findall(body)}
            for key, acknowledged in list(saved.items()):
                if key in shown and key not in seen:
                    seen.add(key)
                    lags.append(max(0.0, now - acknowledged))
        time.sleep(0.05)


def run_wrk(port: int, cookie: str, seconds: int, connections: int, path: str = ROOM) -> dict[str, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT)
    command = [
        "wrk",
        f"-t{min(4, connections)}",
        f"-c{connections}",
        f"-d{seconds}s",
        "--timeout",
        "10s",
        "-s",
        script.name,
        f"http://{load.HOST}:{port}{path}",
        "--",
        cookie,
    ]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    os.unlink(script.name)
    return {"raw": output}


def parse_wrk(output: str) -> tuple[dict[int, int], dict[str, float], int, float]:
    statuses = {int(s): int(n) for s, n in re.findall(r"^status (\d+) (\d+)$", output, re.M)}
    p50, p99, peak = map(float, re.search(r"latency p50 ([\d.]+) p99 ([\d.]+) max ([\d.]+)", output).groups())
    requests, seconds = re.search(r"requests (\d+) seconds ([\d.]+)", output).groups()
    return statuses, {"p50": p50, "p99": p99, "max": peak}, int(requests), float(seconds)


def print_load_report(
    output: str,
    saved: dict[tuple[int, int], float],
    errors: list[str],
    lags: list[float],
    *,
    seconds: int,
    connections: int,
    poll: str,
) -> list[str]:
    """What wrk and the watcher saw under load: requests, the share of 304, latency and the lag
    from a saved deal to the first page showing it (``poll`` says what a real reader adds).
    Returns what went wrong: writer errors, no deal saved, answers other than 200 and 304."""
    statuses, latency, requests, duration = parse_wrk(output)
    answered = sum(statuses.values()) or 1
    print(f"deals saved: {len(saved)} in {seconds} s ({len(saved) / seconds:.2f}/s); writer errors: {len(errors)}")
    print(
        f"wrk {connections} connections: {requests / duration:.0f} requests/s, "
        f"304: {statuses.get(304, 0) / answered:.1%} ({statuses.get(304, 0)} of {answered}), "
        f"other statuses: { {s: n for s, n in statuses.items() if s not in (200, 304)} or 'none' }"
    )
    print(f"latency under load: p50 {latency['p50']:.1f} ms, p99 {latency['p99']:.1f} ms, max {latency['max']:.1f} ms")
    if lags:
        print(
            f"lag saved deal → first 200 showing it (watcher polling every 50 ms): n={len(lags)} "
            f"p50 {statistics.median(lags) * 1000:.0f} ms, p95 {load.percentile(lags, 0.95) * 1000:.0f} ms, "
            f"max {max(lags) * 1000:.0f} ms ({poll})"
        )
    print(f"deals never seen by the watcher: {len(saved) - len(lags)}")
    problems = [f"writer: {error}" for error in errors[:5]]
    if not saved:
        problems.append("no deal was saved")
    if other := {status: n for status, n in statuses.items() if status not in (200, 304)}:
        problems.append(f"wrk got answers {other}")
    return problems


def print_idle_cost(built: list[float], kept: list[float], answers: list[tuple[int, str, float]]) -> None:
    """The server's cost of one poll on an idle server: a page built, a page kept ready, a 304."""
    not_modified = [spent for status, _, spent in answers if status == 304]
    print(
        "idle cost of one poll (p50): "
        f"200 built {statistics.median(built) * 1000:.1f} ms, "
        f"200 kept ready {statistics.median(kept) * 1000:.1f} ms, "
        f"304 {statistics.median(not_modified) * 1000:.1f} ms ({len(not_modified)} of {len(answers)} answered 304)"
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

    build()
    cache.clear()
    db_connections.close_all()
    server = load.start_gunicorn(DB, workers=workers, threads=threads)
    print(
        f"gunicorn -w {workers} --threads {threads} on 127.0.0.1:{server.port}, {TABLES} tables; "
        f"load {load.load_average()}"
    )
    try:
        session = load.logged_in(server.port, USERNAME, PASSWORD)
        cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
        saved: dict[tuple[int, int], float] = {}
        lags: list[float] = []
        errors: list[str] = []
        stop = time.monotonic() + seconds
        background = [
            threading.Thread(target=writer, args=(every, stop, saved, errors)),
            threading.Thread(target=watcher, args=(Poller(server.port, session.cookies), stop, saved, lags)),
        ]
        for thread in background:
            thread.start()
        output = run_wrk(server.port, cookie, seconds, connections)["raw"]
        for thread in background:
            thread.join()
        problems = print_load_report(
            output,
            saved,
            errors,
            lags,
            seconds=seconds,
            connections=connections,
            poll="a browser adds up to its 2 s poll",
        )

        idle = Poller(server.port, session.cookies)
        # a new filter value is a fragment no process holds yet: built; asked again, it comes from the store
        built = [idle.get(conditional=False, query=f"?late={n}")[2] for n in range(1, IDLE + 1)]
        kept = [idle.get(conditional=False)[2] for _ in range(IDLE)]
        answers = [idle.get() for _ in range(3 * IDLE)]
        print_idle_cost(built, kept, answers)
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
