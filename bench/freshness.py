"""How soon a referee's correction shows on the public pages, with readers polling, and how much
Redis holds after many corrections.

Run: ``.venv/bin/python bench/freshness.py``. For each history size in ``BENCH_HISTORY``
(``1,100``; the issue asks for 300 too) it builds the league of ``bench/public_pages.py`` (a
regular who plays every tournament, today's tournament of ``BENCH_PLAYERS`` players in teams),
starts the deployed configuration: ``gunicorn league.wsgi`` (``BENCH_WORKERS`` × ``BENCH_THREADS``,
4 × 4) on PostgreSQL with the Redis cache (``BENCH_CACHE_URL``, database 11), a Celery worker on
the broker ``BENCH_BROKER_URL`` (Redis database 12), and ``BENCH_READERS`` (50) readers, threads of
this process (never the server's interpreter), each reloading one of the four pages below every
``BENCH_READER_PAUSE`` (0.5) seconds.

Then ``BENCH_CORRECTIONS`` (20) times, as a referee: a penalty of one point for the regular in a
closed series of today's tournament (``penalty_add``, committed here; the worker recomputes). Four
pollers ask for the tournament's standings, the season's table, the regular's page and their
team's page every 50 ms until each answers a new ETag (a page's ETag is the digest of the state it
shows: a new one means the page now shows the correction). It prints, per page, the median, p95
and slowest delay from the commit to the new page.

Then, the readers stopped, ``BENCH_MEMORY_CORRECTIONS`` (``50,500``) more corrections, each
followed by a visit to the four pages once the servers have read the new stamp (a second), and
the bytes the cache's Redis database holds after each count (``MEMORY USAGE`` of every key: the
server's ``used_memory`` counts the other databases too): the goal is the last within 1.5× of the
first (an old state's values are overwritten, not left to expire). ``BENCH_DROP_DB=1`` drops the database at the end.
A tiny run: ``BENCH_HISTORY=1 BENCH_PLAYERS=16 BENCH_SERIES=1 BENCH_CORRECTIONS=3 BENCH_READERS=4
BENCH_MEMORY_CORRECTIONS=2,4 BENCH_DROP_DB=1``.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("BENCH_CACHE_URL", "redis://127.0.0.1:6379/11")
BROKER_URL = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/12")
os.environ["CELERY_BROKER_URL"] = BROKER_URL  # this process is the referee's: its writes queue the recompute

import load
import public_pages
from dependency_faults import Worker

DB_NAME = os.environ.get("BENCH_DB", "bench_freshness")
HISTORY = [int(size) for size in os.environ.get("BENCH_HISTORY", "1,100").split(",")]
CORRECTIONS = int(os.environ.get("BENCH_CORRECTIONS", "20"))
READERS = int(os.environ.get("BENCH_READERS", "50"))
READER_PAUSE = float(os.environ.get("BENCH_READER_PAUSE", "0.5"))
MEMORY_CORRECTIONS = [int(n) for n in os.environ.get("BENCH_MEMORY_CORRECTIONS", "50,500").split(",")]
POLL_SECONDS, GIVE_UP_SECONDS = 0.05, 60.0
GOAL_SECONDS, GOAL_MEMORY = 2.0, 1.5


def watched(pks: dict[str, int]) -> dict[str, str]:
    addresses = public_pages.pages(pks)
    return {name: addresses[name] for name in ("standings", "season", "player", "team")}


def etag(client: load.Client, address: str) -> str:
    import http.client

    conn = http.client.HTTPConnection(load.HOST, client.port, timeout=60)
    conn.request("GET", address, headers={"Host": f"{load.HOST}:{client.port}", **public_pages.BROWSER})
    answer = conn.getresponse()
    answer.read()
    conn.close()
    if answer.status != 200:
        raise RuntimeError(f"{address} answered {answer.status}")
    return answer.getheader("ETag") or ""


def correct(regular: int, rng: random.Random, number: int) -> None:
    """A penalty of one point for the regular in a closed series of today's tournament, as a referee gives it."""
    from league.models import Series
    from league.results.penalties.services import penalty_add
    from players.models import Player

    series = rng.choice(
        list(
            Series.objects.filter(tournament__slug=public_pages.SLUG, status=Series.Status.CLOSED).select_related(
                "tournament"
            )
        )
    )
    penalty_add(
        series=series, player=Player.objects.get(pk=regular), small_points=-1, reason=f"Korekta {number}", user=None
    )


def delays(port: int, addresses: dict[str, str], regular: int, rng: random.Random) -> dict[str, list[float]]:
    """For each correction, the seconds from its commit until each page answers a new ETag."""
    seen: dict[str, list[float]] = {name: [] for name in addresses}
    client = load.Client(port, timeout=60)
    for number in range(1, CORRECTIONS + 1):
        before = {name: etag(client, address) for name, address in addresses.items()}
        correct(regular, rng, number)
        committed = time.monotonic()
        pollers = [
            threading.Thread(target=poll, args=(client, address, before[name], committed, seen[name]))
            for name, address in addresses.items()
        ]
        for poller in pollers:
            poller.start()
        for poller in pollers:
            poller.join()
    return seen


def poll(client: load.Client, address: str, old: str, committed: float, seen: list[float]) -> None:
    """Ask for ``address`` every ``POLL_SECONDS`` until its ETag is not ``old``; note how long that took."""
    while time.monotonic() - committed < GIVE_UP_SECONDS:
        if etag(client, address) != old:
            seen.append(time.monotonic() - committed)
            return
        time.sleep(POLL_SECONDS)
    seen.append(float("inf"))


def read(port: int, address: str, stop: threading.Event, reads: list[float], errors: list[str], seed: int) -> None:
    """A spectator reloading ``address`` every ``READER_PAUSE`` seconds or so, until ``stop``."""
    rng, client = random.Random(seed), load.Client(port, timeout=60)
    stop.wait(rng.random() * READER_PAUSE)  # spread the first reloads
    while not stop.is_set():
        try:
            answer = client.get(address)
            (reads if answer.status == 200 else errors).append(answer.seconds)
        except OSError as error:
            errors.append(repr(error))
        stop.wait(READER_PAUSE * (0.5 + rng.random()))


def memory_after_corrections(port: int, addresses: dict[str, str], regular: int, rng: random.Random) -> list[tuple]:
    client, done, rows = load.Client(port, timeout=120), 0, []
    for count in MEMORY_CORRECTIONS:
        while done < count:
            done += 1
            correct(regular, rng, CORRECTIONS + done)
            time.sleep(1.05)  # the servers read the stamps once a second
            for address in addresses.values():
                etag(client, address)
        rows.append((count, *public_pages.cache_size()))
    return rows


def measure(size: int) -> None:
    from django.core.cache import cache
    from django.db import connections

    from league.models import Tournament
    from league.standings.tasks import recompute_standings

    load.recreate_database(DB_NAME)
    started = time.perf_counter()
    pks = public_pages.build(size)
    cache.clear()
    for pk in Tournament.objects.values_list("pk", flat=True):
        recompute_standings.run(pk)  # as the worker leaves every tournament after its close
    print(f"\n{size} tournament(s) of history: built and computed in {time.perf_counter() - started:.0f} s")
    connections.close_all()
    addresses = watched(pks)
    worker = Worker(
        load.server_env(DB_NAME, broker_url=BROKER_URL), Path(tempfile.gettempdir()) / "bench-freshness-worker.log"
    )
    worker.start()
    workers, threads = int(os.environ.get("BENCH_WORKERS", "4")), int(os.environ.get("BENCH_THREADS", "4"))
    server = load.start_gunicorn(DB_NAME, workers=workers, threads=threads, broker_url=BROKER_URL)
    stop, reads, errors = threading.Event(), [], []
    readers = [
        threading.Thread(target=read, args=(server.port, list(addresses.values())[i % 4], stop, reads, errors, i))
        for i in range(READERS)
    ]
    try:
        for address in addresses.values():
            etag(load.Client(server.port, timeout=180), address)  # every page built once
        for reader in readers:
            reader.start()
        rng = random.Random(load.SEED + size)
        seen = delays(server.port, addresses, pks["regular"], rng)
        print(f"{CORRECTIONS} corrections, {READERS} readers polling; seconds from the commit to the new page:")
        print("| history | page | median s | p95 s | slowest s |")
        print("|---|---|---|---|---|")
        for name, values in seen.items():
            ordered = sorted(values)
            p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
            print(f"| {size} | {name} | {statistics.median(ordered):.2f} | {p95:.2f} | {ordered[-1]:.2f} |")
        print(f"readers: {len(reads)} reads, p95 {1000 * load.percentile(reads, 0.95):.0f} ms, {len(errors)} errors")
        stop.set()  # the readers measured the delays; the count of bytes needs no load
        memory = memory_after_corrections(server.port, addresses, pks["regular"], rng)
        for count, keys, used, largest in memory:
            print(
                f"cache after {count} corrections at {size} tournament(s): {keys} keys, {used / 1e6:.2f} MB "
                f"(Redis MEMORY USAGE of its keys), largest value {largest / 1e3:.0f} KB"
            )
        print(f"ratio last/first: {memory[-1][2] / memory[0][2]:.2f} (goal <= {GOAL_MEMORY})")
    finally:
        stop.set()
        for reader in readers:
            if reader.is_alive():
                reader.join()
        server.stop()
        worker.kill()
        connections.close_all()


def main() -> int:
    os.environ["DJANGO_ALLOWED_HOSTS"] = f"{load.HOST},testserver"
    load.setup_django(DB_NAME)
    try:
        for size in HISTORY:
            measure(size)
    finally:
        if os.environ.get("BENCH_DROP_DB"):
            load.recreate_database(DB_NAME, drop_only=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
