"""Every dependency down in turn while 16 table phones send deals and spectators read the public
pages: 0 lost, 0 duplicated, 0 answers 500, the limits still counted.

Run: ``.venv/bin/python bench/dependency_faults.py [--fault 10] [--recovery 10] [--phones 16]``
(PostgreSQL at 127.0.0.1:5432, user postgres, trust auth; Redis at 127.0.0.1:6379). It builds
the database ``baska_faults_dep`` (dropped afterwards; BENCH_KEEP_DB=1 keeps it) with one drawn
series of ``--phones`` tables, starts ``gunicorn league.wsgi`` and a Celery worker (``-P solo``)
in their own processes, and puts a :class:`proxy.Proxy` between them and Redis twice: one for the
cache (``CACHE_URL``, Redis db 10), one for the broker (``CELERY_BROKER_URL``, Redis db 11).

Each phone (a thread of this process) opens its table with the PIN form, types a deal every
``--typing`` seconds into its queue and sends the queue in order through ``POST rozdania.json``,
each deal with its own key; any answer but 200/201 (a 503, a 500, a reset connection) is sent
again with the same key after 0.3 s, until acknowledged. After ``--warmup`` seconds the phases
run one after another, each a fault of ``--fault`` seconds then ``--recovery`` seconds restored:

a) PostgreSQL: every connection to the database is killed (``pg_terminate_backend``, as postgres)
   twice a second; the cluster itself stays up;
b) cache: the cache proxy is cut (the Redis cache on a closed port);
c) broker: the broker proxy is cut while the deals ask for standings recomputes and an organiser
   requests a batch print of the series' protocols;
d) worker: an organiser requests a batch print, the worker is killed (SIGKILL) once it is
   printing the job (or after 30 s), and started again ``--fault`` seconds later;
e) cache flushed: the cache's Redis database is emptied (``FLUSHDB``) in the middle of the evening,
   twice a second for ``--fault`` seconds;
f) cache restarted with junk: every key of the cache is overwritten with values it cannot read
   (bytes, truncated JSON, a pickle, another version's shape), as after a restart from an old dump.

Throughout, two spectators read the public pages (standings, series, table, records, the
tournament's page, its API) every 0.2 s: their answers are counted per phase. In phase b a
guesser sends wrong PINs to table 1 from a new phone: with the cache down the phone's count is
kept in the database (``league.net``), so it is locked after ``MAX_WRONG_TRIES`` as usual.

Then the phones send what they still hold and the script prints, per phase (a deal belongs to
the phase during whose fault or recovery it was typed): deals typed, stored (its row holds the
deal typed, at its number), lost, duplicated (rows or history "add" entries beyond one), the
answers to the phones' sends by status, p50/p95 latency of the sends, and the recovery time
(from the restore to the last deal typed before it acknowledged). For c and d it says where each
print job ended: "done" or "failed" with its message are fine; "queued"/"printing" is a job its
page shows as waiting until it is taken as stopped (``league.printing.models.STALE_AFTER``).
The exit status is 0 when nothing was lost or duplicated and no answer was a 500. A tiny run
(tests/bench): ``--phones 2 --fault 0.5 --recovery 0.5 --warmup 0.5 --typing 0.2``.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load
import offline_phones
from proxy import Proxy

# the project before bench/ again (importing offline_phones put bench/ first): bench/scoring.py is not the package
sys.path.insert(0, str(load.ROOT))

DB = "baska_faults_dep"
SLUG = "awarie-zaleznosci"
REDIS_PORT = 6379
CACHE_DB, BROKER_DB = 10, 11
ORGANISER, PASSWORD = "organizator", "bench-" + uuid.uuid4().hex
RETRY_SECONDS = 0.3
DRAIN_SECONDS = 90
SEED = 24
OPEN_SERIES = 2
PHASES = (
    "a) PostgreSQL killed",
    "b) cache port closed",
    "c) broker port closed",
    "d) worker killed",
    "e) cache flushed",
    "f) cache full of junk",
)
JUNK = (b"\x80\x04\x95junk", b'{"individual": [{"pk": 1, "pla', b'{"\\u0000type": "tuple", "items": [1]}', b"[[1]]")
PUBLIC_PAGES = (
    f"/t/{SLUG}/",
    f"/t/{SLUG}/klasyfikacja/",
    f"/t/{SLUG}/seria/1/",
    f"/t/{SLUG}/seria/1/stolik/1/",
    f"/api/t/{SLUG}/klasyfikacja.json",
    "/rekordy/",
    "/",
)


@dataclass
class Deal:
    table: int
    number: int
    deal: dict
    key: str
    typed: float
    acknowledged: float | None = None


@dataclass
class Log:
    lock: threading.Lock = field(default_factory=threading.Lock)
    deals: list[Deal] = field(default_factory=list)
    """Every deal typed, acknowledged or not."""
    sends: list[tuple[float, str, float]] = field(default_factory=list)
    """(when, status or exception name, seconds) of every send of a deal."""
    errors: list[str] = field(default_factory=list)
    organiser: Counter = field(default_factory=Counter)
    """Answers to the organiser's requests, by status."""
    public: list[tuple[float, str]] = field(default_factory=list)
    """(when, status or exception name) of every spectator's read of a public page."""


@dataclass
class Window:
    """A phase: its fault from ``start`` to ``restored``, its recovery until ``end``."""

    name: str
    start: float
    restored: float = 0.0
    end: float = 0.0
    notes: list[str] = field(default_factory=list)


def phone(
    port: int, table: int, pin: str, typing: float, stop: threading.Event, give_up: threading.Event, log: Log
) -> None:
    """A table's phone: types deals until ``stop``, sends each until it is acknowledged (or ``give_up``)."""
    from league.games.baska.demo import random_deal

    rng = random.Random(SEED * 1000 + table)
    base = f"/turnieje/{SLUG}/stolik/{OPEN_SERIES}/{table}/"
    client = load.Client(port)
    while not signed_in(client, base, pin):  # the player types the PIN again, as after any failed try
        if stop.is_set():
            log.errors.append(f"table {table}: never signed in")
            return
        time.sleep(RETRY_SECONDS)
    queue: list[Deal] = []
    typed = 0
    next_typed = time.monotonic()
    while not stop.is_set() or (queue and not give_up.is_set()):
        now = time.monotonic()
        if not stop.is_set() and now >= next_typed:
            typed += 1
            deal = Deal(table, typed, random_deal(rng, RULESET), str(uuid.uuid4()), now)
            queue.append(deal)
            with log.lock:
                log.deals.append(deal)
            next_typed = now + typing * rng.uniform(0.5, 1.5)
        if not queue:
            time.sleep(0.05)
            continue
        deal = queue[0]
        began = time.monotonic()
        try:
            body = {"key": deal.key, "number": deal.number, "deal": deal.deal}
            status, _, _ = offline_phones.post_json(client, base + "rozdania.json", body, lose_one_in=0)
            outcome = str(status)
        except (OSError, http.client.HTTPException) as error:
            status, outcome = 0, type(error).__name__
        with log.lock:
            log.sends.append((began, outcome, time.monotonic() - began))
        if status in (200, 201):
            deal.acknowledged = time.monotonic()
            queue.pop(0)
        else:
            time.sleep(RETRY_SECONDS)


def spectator(port: int, stop: threading.Event, log: Log, seed: int) -> None:
    """A visitor reading the public pages, one every 0.2 s, until ``stop``."""
    rng = random.Random(seed)
    client = load.Client(port)
    while not stop.is_set():
        began = time.monotonic()
        try:
            outcome = str(client.get(rng.choice(PUBLIC_PAGES)).status)
        except (OSError, http.client.HTTPException) as error:
            outcome = type(error).__name__
        with log.lock:
            log.public.append((began, outcome))
        time.sleep(0.2)


def guess_pins(port: int, tries: int) -> list[str]:
    """Wrong PINs at table 1 from one new phone; what each answer said ("wrong", "locked", or the status)."""
    client = load.Client(port)
    base = f"/turnieje/{SLUG}/stolik/{OPEN_SERIES}/1/"
    answers = []
    for _ in range(tries):
        try:
            page = client.get(base + "pin/")
            token = load.hidden(load.CSRF_RE, page.body)
            answer = client.post(base + "pin/", {"csrfmiddlewaretoken": token, "pin": "wrong", "seat": "A"})
            body = answer.body.lower()
            answers.append("locked" if "too many" in body or "zbyt wiele" in body else str(answer.status))
        except (OSError, http.client.HTTPException, ValueError) as error:
            answers.append(type(error).__name__)
    return answers


def spoil_cache(cache_url: str, *, flush: bool) -> int:
    """Empty the cache's Redis database, or write junk under every key it holds; the keys touched."""
    import redis

    client = redis.Redis.from_url(cache_url)
    if flush:
        count = client.dbsize()
        client.flushdb()
        return count
    keys = list(client.scan_iter(count=1000))
    for index, key in enumerate(keys):
        client.set(key, JUNK[index % len(JUNK)], keepttl=True)
    return len(keys)


# --- the organiser and the worker -------------------------------------------


def signed_in(client: load.Client, base: str, pin: str) -> bool:
    try:
        return offline_phones.sign_in(client, base, pin)
    except (OSError, http.client.HTTPException, ValueError):  # a 503 page has no form
        return False


def organiser(port: int) -> load.Client:
    """A logged-in superuser's browser (the organiser who prints)."""
    return load.logged_in(port, ORGANISER, PASSWORD)


def organiser_post(client: load.Client, path: str, data: dict, log: Log) -> str:
    """POST ``data`` with a CSRF token from the printing page; the answer's status, counted in ``log``."""
    try:
        page = client.get(f"/turnieje/{SLUG}/druk/")
        token = load.hidden(load.CSRF_RE, page.body)
        outcome = str(client.post(path, {"csrfmiddlewaretoken": token, **data}).status)
    except (OSError, http.client.HTTPException, ValueError) as error:
        outcome = type(error).__name__
    with log.lock:
        log.organiser[outcome] += 1
    return outcome


def request_batch_print(client: load.Client, log: Log) -> tuple[str, int | None]:
    """POST the batch print of the open series' protocols; (status, the new job's id if any)."""
    from league.printing.models import PrintJob

    before = set(PrintJob.objects.values_list("pk", flat=True))
    outcome = organiser_post(client, f"/turnieje/{SLUG}/druk/seria-{OPEN_SERIES}/protokoly/", {}, log)
    new = set(PrintJob.objects.values_list("pk", flat=True)) - before
    return outcome, (max(new) if new else None)


def penalise(client: load.Client, log: Log) -> str:
    """A penalty in the closed series: the public standings change, so a recompute is queued."""
    from league.models import TableAssignment

    player = TableAssignment.objects.filter(series__tournament__slug=SLUG, series__number=1).first().player_id
    data = {
        "penalty-player": player,
        "penalty-small_points": "-10",
        "penalty-big_points": "0",
        "penalty-reason": "Spóźnienie",
    }
    return organiser_post(client, f"/turnieje/{SLUG}/seria-1/kary/dodaj/", data, log)


def job_state(job_id: int | None) -> str:
    from league.printing.models import STALE_AFTER, PrintJob

    if job_id is None:
        return "no job created"
    job = PrintJob.objects.get(pk=job_id)
    state = f"job {job.pk} {job.status} ({job.progress}/{job.total})"
    if job.error:
        return f"{state}: {job.error[:120]}"
    return state if job.is_finished else f"{state}, its page says it stopped {STALE_AFTER} after its last progress"


@dataclass
class Worker:
    env: dict
    log: Path
    process: subprocess.Popen | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "celery", "-A", "league", "worker", "-P", "solo", "-l", "warning"]
        command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        with self.log.open("a") as out:
            self.process = subprocess.Popen(
                command, cwd=load.ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )

    def kill(self) -> None:
        """SIGKILL the worker's own process group: no warm shutdown, the task dies mid-PDF."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


# --- the faults ---------------------------------------------------------------


def kill_connections(seconds: float) -> int:
    """Terminate every connection to the bench database twice a second for ``seconds``."""
    import psycopg

    killed = 0
    end = time.monotonic() + seconds
    with psycopg.connect(**load.PG_ADMIN, autocommit=True) as admin:
        while time.monotonic() < end:
            rows = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (DB,),
            ).fetchall()
            killed += len(rows)
            time.sleep(0.5)
    return killed


def wait_for_printing(job_id: int | None, seconds: float) -> None:
    """Return once a worker is printing the job, or after ``seconds``. Not later: its progress
    moves a chunk of tables (``TABLES_PER_DOCUMENT``) at a time, 16 phones' tables are one chunk."""
    from league.printing.models import PrintJob

    end = time.monotonic() + seconds
    while job_id is not None and time.monotonic() < end:
        if PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.RUNNING, total__gt=0).exists():
            return
        time.sleep(0.02)


def run_phases(
    args: argparse.Namespace, port: int, cache: Proxy, broker: Proxy, worker: Worker, log: Log
) -> list[Window]:
    from league.results.table.pin import MAX_WRONG_TRIES

    direct_cache_url = f"redis://127.0.0.1:{REDIS_PORT}/{CACHE_DB}"
    from django.db import connections

    windows = []
    for name in PHASES:
        window = Window(name, time.monotonic())
        windows.append(window)
        if name.startswith("a"):
            window.notes.append(f"connections killed: {kill_connections(args.fault)}")
        elif name.startswith("b"):
            cache.cut()
            answers = guess_pins(port, MAX_WRONG_TRIES + 3)
            window.notes.append(f"a guesser's {len(answers)} wrong PINs with the cache down: {' '.join(answers)}")
            time.sleep(max(0.0, window.start + args.fault - time.monotonic()))
            cache.restore()
        elif name.startswith("e"):
            flushed = 0
            while time.monotonic() < window.start + args.fault:
                flushed += spoil_cache(direct_cache_url, flush=True)
                time.sleep(0.5)
            window.notes.append(f"keys flushed: {flushed}")
        elif name.startswith("f"):
            window.notes.append(f"keys spoiled: {spoil_cache(direct_cache_url, flush=False)}")
            time.sleep(args.fault)
        elif name.startswith("c"):
            broker.cut()
            client = organiser(port)
            window.notes.append(f"penalty in the closed series with the broker down: answer {penalise(client, log)}")
            status, job = request_batch_print(client, log)
            window.notes.append(f"batch print asked with the broker down: answer {status}")
            time.sleep(max(0.0, window.start + args.fault - time.monotonic()))
            broker.restore()
        else:
            status, job = request_batch_print(organiser(port), log)
            window.notes.append(f"batch print asked: answer {status}")
            # the worker may still be reconnecting to the broker after phase c: give it time
            wait_for_printing(job, 30)
            worker.kill()
            window.notes.append(f"worker killed at {job_state(job)}")
            time.sleep(args.fault)
            worker.start()
        window.restored = time.monotonic()
        time.sleep(args.recovery)
        window.end = time.monotonic()
        if name.startswith(("c", "d")):
            page = organiser(port).get(f"/turnieje/{SLUG}/druk/zadanie/{job}/") if job else None
            answer = f", its page answers {page.status}" if page else ""
            window.notes.append(f"after {args.recovery:.0f} s restored: {job_state(job)}{answer}")
        connections.close_all()  # this process's connection was killed in phase a too
    return windows


# --- the figures --------------------------------------------------------------


def verify(log: Log) -> tuple[set[tuple[int, int]], Counter, int]:
    """((table, number) of the deals stored as typed, extra "add" entries per (table, number), rows)."""
    from league.results.models import DealRow, DealRowVersion

    rows = DealRow.objects.filter(protocol__series__tournament__slug=SLUG, protocol__series__number=OPEN_SERIES)
    held = {(t, n): deal for t, n, deal in rows.values_list("protocol__table", "number", "deal")}
    stored = {(d.table, d.number) for d in log.deals if held.get((d.table, d.number)) == d.deal}
    adds = Counter(
        DealRowVersion.objects.filter(
            protocol__series__tournament__slug=SLUG, protocol__series__number=OPEN_SERIES, action="add"
        ).values_list("protocol__table", "number")
    )
    extra = Counter({key: count - 1 for key, count in adds.items() if count > 1})
    return stored, extra, rows.count()


def table_row(window: Window, typed: list[Deal], stored: set, extra: Counter, log: Log) -> str:
    sends = [(status, seconds) for when, status, seconds in log.sends if window.start <= when < window.end]
    statuses = Counter(status for status, _ in sends)
    latencies = [seconds for _, seconds in sends]
    mine = [d for d in typed if window.start <= d.typed < window.end]
    kept = sum((d.table, d.number) in stored for d in mine)
    duplicated = sum(extra[(d.table, d.number)] for d in mine)
    before = [d.acknowledged for d in typed if d.typed < window.restored and d.acknowledged]
    recovery = max(0.0, max(before, default=window.restored) - window.restored) if window.restored else 0.0
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p95 = load.percentile(latencies, 0.95) * 1000
    answers = " ".join(f"{k}:{v}" for k, v in sorted(statuses.items()))
    public = Counter(status for when, status in log.public if window.start <= when < window.end)
    read = " ".join(f"{k}:{v}" for k, v in sorted(public.items()))
    return (
        f"{window.name:<24} {len(mine):>5} {kept:>6} {len(mine) - kept:>4} {duplicated:>4} "
        f"{p50:>6.0f} {p95:>6.0f} {recovery:>7.2f}  {answers} | public {read}"
    )


RULESET = None


def main() -> int:
    global RULESET
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=16)
    parser.add_argument("--fault", type=float, default=10, help="seconds each dependency is down")
    parser.add_argument("--recovery", type=float, default=10, help="seconds restored before the next phase")
    parser.add_argument("--warmup", type=float, default=5, help="seconds before the first fault")
    parser.add_argument("--typing", type=float, default=1.5, help="mean seconds between two deals of a phone")
    args = parser.parse_args()

    cache, broker = Proxy(REDIS_PORT), Proxy(REDIS_PORT)
    load.CACHE_URL = cache.url("redis", CACHE_DB)
    load.recreate_database(DB)
    load.setup_django(DB)
    from django.contrib.auth import get_user_model
    from django.db import connections

    from league.games.baska.settings import tournament_ruleset
    from league.models import Tournament

    deals_room = int((args.warmup + len(PHASES) * (args.fault + args.recovery)) / args.typing * 2) + 40
    # series 1 closed and published (a penalty there changes the public standings), the phones' series drawn
    pins = load.build_tournament(SLUG, players=args.phones * 4, closed_series=OPEN_SERIES - 1, deals=deals_room)
    RULESET = tournament_ruleset(Tournament.objects.get(slug=SLUG))
    get_user_model().objects.create_superuser(ORGANISER, "organizator@example.org", PASSWORD)
    connections.close_all()
    media = tempfile.mkdtemp(prefix="baska-faults-media-")
    extra = {"DJANGO_MEDIA_ROOT": media}
    broker_url = broker.url("redis", BROKER_DB)
    server = load.start_gunicorn(DB, workers=2, threads=4, extra_env=extra, broker_url=broker_url)
    worker_log = Path(tempfile.gettempdir()) / f"bench-worker-{DB}.log"
    worker = Worker(load.server_env(DB, extra_env=extra, broker_url=broker_url), worker_log)
    worker.start()
    print(f"gunicorn on {load.HOST}:{server.port}, worker pid {worker.process.pid}, {args}")
    log = Log()
    stop, give_up = threading.Event(), threading.Event()
    try:
        phones = [
            threading.Thread(
                target=phone,
                args=(server.port, table, pin, args.typing, stop, give_up, log),
                daemon=True,
            )
            for table, pin in sorted(pins.items())
        ]
        spectators = [
            threading.Thread(target=spectator, args=(server.port, stop, log, seed), daemon=True) for seed in (1, 2)
        ]
        for thread in phones + spectators:
            thread.start()
        time.sleep(args.warmup)
        windows = run_phases(args, server.port, cache, broker, worker, log)
        stop.set()
        drain_end = time.monotonic() + DRAIN_SECONDS
        for thread in phones:
            thread.join(timeout=max(0.1, drain_end - time.monotonic()))
        unsent = sum(thread.is_alive() for thread in phones)
    finally:
        stop.set()
        give_up.set()
        worker.kill()
        server.stop()
        cache.cut()
        broker.cut()
    stored, extra_copies, rows = verify(log)
    typed = list(log.deals)
    heading = ("phase", "typed", "stored", "lost", "dup", "p50ms", "p95ms", "recov_s")
    print("\n{:<24} {:>5} {:>6} {:>4} {:>4} {:>6} {:>6} {:>7}  answers".format(*heading))
    for window in windows:
        print(table_row(window, typed, stored, extra_copies, log))
    whole = Window("whole run", 0.0, 0.0, float("inf"))
    print(table_row(whole, typed, stored, extra_copies, log))
    for window in windows:
        for note in window.notes:
            print(f"  {window.name}: {note}")
    statuses = Counter(status for _, status, _ in log.sends)
    lost = len(typed) - len(stored)
    # a row that holds no typed deal is a copy too (a deal stored at a second number)
    duplicated = sum(extra_copies.values()) + rows - len(stored)
    acknowledged = sum(d.acknowledged is not None for d in typed)
    print(f"\ndeals typed: {len(typed)}, acknowledged: {acknowledged}, rows: {rows}, phones still sending: {unsent}")
    print(f"the organiser's answers: {dict(log.organiser)}")
    public = Counter(status for _, status in log.public)
    print(f"the spectators' answers: {dict(public)}")
    answers_500 = statuses["500"] + log.organiser["500"] + public["500"]
    print(f"lost: {lost}, duplicated: {duplicated}, answers 500: {answers_500}")
    for error in log.errors[:10]:
        print("  error:", error)
    connections.close_all()
    if not os.environ.get("BENCH_KEEP_DB"):
        load.recreate_database(DB, drop_only=True)
    ok = not lost and not duplicated and not answers_500 and not unsent and not log.errors
    print("verification:", "OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
