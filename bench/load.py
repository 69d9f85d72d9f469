"""Load test: 64 table scorers enter deals through their phone pages while 200
spectators refresh the public standings, against gunicorn on PostgreSQL.

Run: ``.venv/bin/python bench/load.py`` (PostgreSQL at 127.0.0.1:5432, user
postgres, trust auth; Redis at 127.0.0.1:6379 for the shared cache). It drops
and creates the database ``baska_load``, migrates, builds a tournament of 256
players (64 tables) with two closed series already played and a third drawn,
starts ``gunicorn league.wsgi -w 4 --threads 4`` on 127.0.0.1, signs every table
in (the real PIN form: GET for the CSRF token, POST PIN and seat) and computes the
standings page once, as a hall where the scorers sit down before the spectators
come; then, for at most ``BENCH_SECONDS`` (60) seconds and at most ``BENCH_DEALS``
(40) deals per table:

- each table client posts deals as shorthand lines to the entry form, reading the
  version from the page; a stale-version answer is re-read and retried;
- each reader client GETs the public standings page, pausing ``BENCH_READER_PAUSE``
  (0.5) seconds between refreshes.

It prints deals, throughput, errors and latency percentiles, then checks the
database against the clients' log of acknowledged deals (every deal exactly
once, rows sum to zero, values equal scoring's recomputation), stops gunicorn
and drops the database. It exits 1 when a check fails, a request failed or no deal
at all was acknowledged. All traffic stays on 127.0.0.1.

Environment knobs: BENCH_SECONDS, BENCH_DEALS, BENCH_TABLES (64), BENCH_READERS
(200), BENCH_READER_PAUSE, BENCH_WORKERS (4), BENCH_THREADS (4), BENCH_PORT
(0 = any free), BENCH_CACHE_URL (redis://127.0.0.1:6379/7; empty = per-process
memory cache), BENCH_KEEP_DB=1, BENCH_TEMPLATE_DB (a migrated database to copy; the
scripts built on these helpers take it too). A tiny run (tests/bench):
``BENCH_TABLES=4 BENCH_READERS=4 BENCH_SECONDS=2 BENCH_DEALS=5``.
"""

from __future__ import annotations

import http.client
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import filler

PG_ADMIN = {"host": "127.0.0.1", "port": 5432, "user": "postgres", "dbname": "postgres"}
HOST = "127.0.0.1"
SECRET_KEY = "bench-" + secrets.token_urlsafe(32)
CACHE_URL = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/7")
SEED = 2026
TEAM_SIZE = 4


def database_url(name: str) -> str:
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def setup_django(db_name: str) -> None:
    """Point this process's Django at ``db_name`` (call before anything imports settings)."""
    os.environ["DATABASE_URL"] = database_url(db_name)
    os.environ["DJANGO_SECRET_KEY"] = SECRET_KEY
    os.environ["DJANGO_SETTINGS_MODULE"] = "league.settings"
    os.environ["CACHE_URL"] = CACHE_URL
    os.environ.pop("CELERY_BROKER_URL", None)  # eager recompute in the web process
    import django

    django.setup()


def recreate_database(name: str, *, drop_only: bool = False) -> None:
    """Drop the database ``name`` and (unless ``drop_only``) create it anew: empty, or a copy of
    ``BENCH_TEMPLATE_DB`` when that names a database migrated already (tests/bench make one, so
    each script's migrate has nothing left to do)."""
    import psycopg

    template = os.environ.get("BENCH_TEMPLATE_DB", "")
    with psycopg.connect(**PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))


# --- data -------------------------------------------------------------------


def build_tournament(
    slug: str, *, players: int = 256, closed_series: int = 2, open_series: bool = True, deals: int = 40
) -> dict[int, str]:
    """A tournament of ``players`` in teams of four: ``closed_series`` closed and
    published series full of rows, then (``open_series``) one drawn series with
    empty protocols. Returns {table: PIN} of the open series."""
    from django.core.management import call_command

    from league.games.baska.settings import BaskaSettings
    from league.models import Registration, Series, Tournament
    from players.models import Gender, Player, Team, TeamMember

    rng = random.Random(SEED)
    call_command("migrate", verbosity=0)
    people = Player.objects.bulk_create(
        Player(first_name=f"Imię{i}", last_name=f"Nazwisko{i}", gender=rng.choice(Gender.values))
        for i in range(players)
    )
    teams = Team.objects.bulk_create(Team(name=f"Drużyna {t}") for t in range(players // TEAM_SIZE))
    TeamMember.objects.bulk_create(
        TeamMember(team=teams[i // TEAM_SIZE], player=p, team_active=True) for i, p in enumerate(people)
    )
    total_series = closed_series + (1 if open_series else 0)
    tournament = Tournament.objects.create(
        name="Turniej obciążeniowy",
        slug=slug,
        date=date(2026, 6, 1),
        series_count=total_series,
        game="baska",
        game_settings=BaskaSettings(ruleset_preset="puck", deals_per_series=deals).stored(),
        draw_published=True,
    )
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, team=teams[i // TEAM_SIZE], checked_in=True)
        for i, p in enumerate(people)
    )
    pins: dict[int, str] = {}
    for number in range(1, total_series + 1):
        closed = number <= closed_series
        series = Series.objects.create(
            tournament=tournament,
            number=number,
            status=Series.Status.CLOSED if closed else Series.Status.DRAWN,
            results_entered=closed,
        )
        protocols = filler.seat_and_fill(series, people, rng, deals=deals, played=closed)
        if not closed:
            pins = {p.table: p.pin for p in protocols}
    return pins


# --- the server -------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    log: Path

    def stop(self) -> None:
        """Stop gunicorn once the clients are done: a quick shutdown (SIGINT), as nothing is in
        flight by then; a graceful one waits up to a second more for each worker's idle loop."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def server_env(db_name: str, *, extra_env: dict | None = None, broker_url: str | None = None) -> dict[str, str]:
    """The environment of a web or worker process on ``db_name``: without ``broker_url``
    there is no broker and Celery tasks run eagerly in the web process."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(db_name),
        "DJANGO_SECRET_KEY": SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DJANGO_SETTINGS_MODULE": "league.settings",
        "CACHE_URL": CACHE_URL,
        **(extra_env or {}),
    }
    if broker_url:
        env["CELERY_BROKER_URL"] = broker_url
    else:
        env.pop("CELERY_BROKER_URL", None)
    return env


def start_gunicorn(
    db_name: str,
    *,
    workers: int = 4,
    threads: int = 4,
    extra_env: dict | None = None,
    broker_url: str | None = None,
) -> Server:
    port = int(os.environ.get("BENCH_PORT", "0")) or free_port()
    log = Path(tempfile.gettempdir()) / f"bench-gunicorn-{db_name}-{port}.log"
    env = server_env(db_name, extra_env=extra_env, broker_url=broker_url)
    command = [
        sys.executable,  # this interpreter's gunicorn, wherever its environment lives
        "-m",
        "gunicorn",
        "league.wsgi",
        "-w",
        str(workers),
        "--threads",
        str(threads),
        "-b",
        f"{HOST}:{port}",
        "--timeout",
        "60",
        "--graceful-timeout",
        "10",
    ]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    server = Server(process, port, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited: see {log}")
        try:
            if Client(port).get("/zdrowie/").status == 200:
                return server
        except OSError:
            pass
        time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"gunicorn did not answer in 30 s: see {log}")


# --- a minimal HTTP client (stdlib only: neither httpx nor requests is installed) ---


@dataclass
class Response:
    status: int
    body: str
    location: str
    seconds: float


@dataclass
class Client:
    """One browser: its own cookies, a fresh connection per request (so no request is ever
    replayed after a dropped keep-alive connection)."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 30

    def request(self, method: str, path: str, data: dict | None = None) -> Response:
        headers = {"Host": f"{HOST}:{self.port}", "User-Agent": "baska-bench"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
        finally:
            conn.close()
        seconds = time.perf_counter() - start
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel.value:
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
        return Response(response.status, text, response.headers.get("Location", ""), seconds)

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def post(self, path: str, data: dict) -> Response:
        return self.request("POST", path, data)


CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
NUMBER_RE = re.compile(r'name="number" value="(\d+)"')
VERSION_RE = re.compile(r'name="version" value="(\d+)"')


def hidden(pattern: re.Pattern, body: str) -> str:
    match = pattern.search(body)
    if not match:
        raise ValueError(f"no {pattern.pattern!r} in the page")
    return match.group(1)


def logged_in(port: int, username: str, password: str) -> Client:
    """A browser signed in through the login page, as a person signs in."""
    client = Client(port)
    page = client.get("/konto/logowanie/")
    answer = client.post(
        "/konto/logowanie/",
        {"csrfmiddlewaretoken": hidden(CSRF_RE, page.body), "username": username, "password": password},
    )
    if answer.status != 302:
        raise RuntimeError(f"login of {username} answered {answer.status}")
    return client


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def describe(label: str, seconds: list[float]) -> str:
    if not seconds:
        return f"{label}: none"
    return (
        f"{label}: n={len(seconds)} p50={statistics.median(seconds) * 1000:.0f} ms "
        f"p95={percentile(seconds, 0.95) * 1000:.0f} ms max={max(seconds) * 1000:.0f} ms"
    )


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# --- the load test ----------------------------------------------------------


@dataclass
class Stats:
    lock: threading.Lock = field(default_factory=threading.Lock)
    write_seconds: list[float] = field(default_factory=list)
    read_seconds: list[float] = field(default_factory=list)
    other_seconds: list[float] = field(default_factory=list)
    acknowledged: list[tuple[int, int, str]] = field(default_factory=list)
    stale: int = 0
    errors: Counter = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)

    def error(self, kind: str, detail: str = "") -> None:
        with self.lock:
            self.errors[kind] += 1
            if len(self.error_samples) < 10:
                self.error_samples.append(f"{kind}: {detail[:300]}")


@dataclass
class Table:
    """A table's phone signed in: its browser, the protocol's address and the page it shows."""

    client: Client
    base: str
    page: Response


def table_sign_in(port: int, slug: str, table: int, pin: str, stats: Stats, *, series: int = 3) -> Table | None:
    """Open a table's protocol as its scorer does, with the real PIN form (GET for the CSRF
    token, POST PIN and seat), then the protocol page; None (an error counted) when refused."""
    base = f"/turnieje/{slug}/stolik/{series}/{table}/"
    client = Client(port)
    try:
        page = client.get(base + "pin/")
        login = client.post(
            base + "pin/",
            {"csrfmiddlewaretoken": hidden(CSRF_RE, page.body), "pin": pin, "seat": "ABCD"[table % 4]},
        )
        if login.status != 302:
            stats.error(f"pin {login.status}", login.body)
            return None
        page = client.get(base)
    except (OSError, ValueError, http.client.HTTPException) as error:
        stats.error("pin exception", repr(error))
        return None
    if page.status != 200:
        stats.error(f"page {page.status}", page.body)
        return None
    return Table(client, base, page)


def table_client(
    port: int,
    slug: str,
    table: int,
    pin: str,
    deals: int,
    stop: float,
    stats: Stats,
    *,
    series: int = 3,
    signed_in: Table | None = None,
    pause: float = 0.0,
) -> None:
    """A table scorer's phone: PIN form (unless ``signed_in`` already), then deals of ``series``
    as shorthand lines until ``deals`` or ``stop``, ``pause`` seconds after each one saved."""
    from league.games.baska.demo import random_deal
    from league.games.baska.shorthand import format_deal

    ruleset = RULESET
    rng = random.Random(SEED * 1000 + table)
    phone = signed_in or table_sign_in(port, slug, table, pin, stats, series=series)
    if phone is None:
        return
    client, base, page = phone.client, phone.base, phone.page
    attempts = saved = 0
    while time.monotonic() < stop and attempts < deals * 5 and saved < deals:
        attempts += 1
        try:
            number = int(hidden(NUMBER_RE, page.body))
            if number > deals:
                return
            line = format_deal(random_deal(rng, ruleset))
            data = {
                "csrfmiddlewaretoken": hidden(CSRF_RE, page.body),
                "number": number,
                "version": hidden(VERSION_RE, page.body),
                "line": line,
            }
            answer = client.post(base + "zapisz/", data)
            stats.write_seconds.append(answer.seconds)
            if answer.status == 302:
                with stats.lock:
                    stats.acknowledged.append((table, number, line))
                saved += 1
                if saved >= deals:
                    return
                time.sleep(pause)
                page = client.get(base)
                stats.other_seconds.append(page.seconds)
                if page.status != 200:
                    stats.error(f"page {page.status}", page.body)
                    time.sleep(0.2)  # the phone shows the error; its scorer opens the table again
                    page = client.get(base)
            elif answer.status == 200 and hidden(VERSION_RE, answer.body) != str(data["version"]):
                # refused as stale: the page shows the protocol as it is now, with its version; retry from it
                with stats.lock:
                    stats.stale += 1
                page = answer
            else:
                stats.error(f"save {answer.status}", answer.body)
                page = client.get(base)
        except (OSError, ValueError, http.client.HTTPException) as error:
            stats.error("save exception", repr(error))
            time.sleep(0.2)
            try:
                page = client.get(base)
            except (OSError, http.client.HTTPException):
                pass


def sign_in_tables(port: int, slug: str, pins: dict[int, str], stats: Stats, *, series: int = 3) -> dict[int, Table]:
    """Every table's phone signed in, 16 at a time, before any load starts; {table: phone} of those let in."""
    with ThreadPoolExecutor(max_workers=16) as pool:
        phones = pool.map(lambda table: table_sign_in(port, slug, table, pins[table], stats, series=series), pins)
        return {table: phone for table, phone in zip(pins, phones, strict=True) if phone is not None}


def reader_client(port: int, path: str, pause: float, stop: float, stats: Stats, seed: int) -> None:
    rng = random.Random(seed)
    client = Client(port)
    time.sleep(rng.random() * pause)  # spread the first refreshes
    for _ in range(100_000):
        if time.monotonic() >= stop:
            return
        try:
            answer = client.get(path)
            if 200 <= answer.status < 400:
                stats.read_seconds.append(answer.seconds)
            else:
                stats.error(f"read {answer.status}", answer.body)
        except (OSError, http.client.HTTPException) as error:
            stats.error("read exception", repr(error))
        time.sleep(pause * (0.5 + rng.random()))


def verify(slug: str, stats: Stats, *, series: int = 3) -> list[str]:
    """Compare the database with the clients' log of ``series`` (the one the tables played);
    returns the problems found."""
    import scoring
    from league.games.baska.settings import tournament_ruleset
    from league.games.baska.shorthand import parse
    from league.models import Tournament
    from league.results.models import DealRowVersion, Protocol

    problems: list[str] = []
    tournament = Tournament.objects.get(slug=slug)
    ruleset = tournament_ruleset(tournament)
    acked: dict[int, dict[int, str]] = {}
    for table, number, line in stats.acknowledged:
        if number in acked.setdefault(table, {}):
            problems.append(f"table {table}: deal {number} acknowledged twice")
        acked[table][number] = line
    checked_rows = 0
    for protocol in Protocol.objects.filter(series__tournament=tournament).select_related("series"):
        rows = list(protocol.rows.order_by("number"))
        numbers = [r.number for r in rows]
        if numbers != list(range(1, len(rows) + 1)):
            problems.append(f"{protocol}: row numbers {numbers[:5]}… not 1..n")
        for row in rows:
            if row.value_a + row.value_b + row.value_c + row.value_d != 0:
                problems.append(f"{protocol}: deal {row.number} does not sum to zero")
        if rows:
            result = scoring.score_protocol([r.deal for r in rows], ruleset)
            for row, line in zip(rows, result.rows, strict=True):
                stored = {"A": row.value_a, "B": row.value_b, "C": row.value_c, "D": row.value_d}
                if stored != line.values or row.doubled != line.doubled:
                    problems.append(f"{protocol}: deal {row.number} stored {stored}, scoring says {line.values}")
        checked_rows += len(rows)
        if protocol.series.number != series:
            continue
        mine = acked.get(protocol.table, {})
        if len(rows) != len(mine):
            problems.append(f"table {protocol.table}: {len(rows)} rows in the database, {len(mine)} acknowledged")
        for row in rows:
            line = mine.get(row.number)
            if line is not None and parse(line) != row.deal:
                problems.append(f"table {protocol.table}: deal {row.number} is {row.deal}, client sent {line!r}")
        adds = DealRowVersion.objects.filter(protocol=protocol, action=DealRowVersion.Action.ADD).count()
        if adds != len(rows):
            problems.append(f"table {protocol.table}: {adds} 'add' history entries for {len(rows)} rows")
        if protocol.version != len(rows):
            problems.append(f"table {protocol.table}: version {protocol.version} after {len(rows)} writes")
    print(f"verified {checked_rows} rows in {Protocol.objects.filter(series__tournament=tournament).count()} protocols")
    return problems


RULESET = None


def main() -> int:
    global RULESET
    seconds = float(os.environ.get("BENCH_SECONDS", "60"))
    deals = int(os.environ.get("BENCH_DEALS", "40"))
    tables = int(os.environ.get("BENCH_TABLES", "64"))
    readers = int(os.environ.get("BENCH_READERS", "200"))
    pause = float(os.environ.get("BENCH_READER_PAUSE", "0.5"))
    workers = int(os.environ.get("BENCH_WORKERS", "4"))
    threads_each = int(os.environ.get("BENCH_THREADS", "4"))
    db_name, slug = "baska_load", "obciazenie"
    standings = f"/t/{slug}/klasyfikacja/"

    recreate_database(db_name)
    setup_django(db_name)
    from django.core.cache import cache
    from django.db import connections

    from league.games.baska.settings import tournament_ruleset
    from league.models import Tournament

    start = time.perf_counter()
    pins = build_tournament(slug, players=tables * 4, deals=deals)
    RULESET = tournament_ruleset(Tournament.objects.get(slug=slug))
    print(f"built: {tables * 4} players, {len(pins)} tables, 2 closed series in {time.perf_counter() - start:.1f} s")
    if CACHE_URL:
        cache.clear()  # the bench's own Redis database (…/7)
    connections.close_all()
    server = start_gunicorn(db_name, workers=workers, threads=threads_each)
    print(
        f"gunicorn on {HOST}:{server.port} (-w {workers} --threads {threads_each}), cache {CACHE_URL or 'locmem'}; "
        f"load before: {load_average()}"
    )
    stats = Stats()
    try:
        # The scorers are at their tables before the spectators arrive, as in a hall: every table
        # signs in and the standings page is computed once before the window opens. Started
        # together, the 200 readers' first requests all computed the cold page and held every
        # server thread while the tables' PIN forms waited behind them for the whole window.
        began = time.monotonic()
        phones = sign_in_tables(server.port, slug, pins, stats)
        warm = Client(server.port).get(standings)
        print(
            f"{len(phones)} of {len(pins)} tables signed in, standings page computed ({warm.status}) "
            f"in {time.monotonic() - began:.1f} s"
        )
        stop = time.monotonic() + seconds
        threads = [
            threading.Thread(
                target=table_client,
                args=(server.port, slug, table, pins[table], deals, stop, stats),
                kwargs={"signed_in": phone},
                daemon=True,
            )
            for table, phone in phones.items()
        ] + [
            threading.Thread(target=reader_client, args=(server.port, standings, pause, stop, stats, r), daemon=True)
            for r in range(readers)
        ]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=max(1.0, stop + 40 - time.monotonic()))
        elapsed = time.monotonic() - began
        alive = sum(t.is_alive() for t in threads)
        print(
            f"ran {elapsed:.1f} s ({len(phones)} tables, {readers} readers pausing {pause} s); "
            f"load after: {load_average()}"
        )
        if alive:
            print(f"WARNING: {alive} client threads still running after the deadline")
        deals_done = len(stats.acknowledged)
        print(
            f"deals acknowledged: {deals_done} ({deals_done / elapsed:.1f} deals/s), "
            f"stale answers retried: {stats.stale}"
        )
        print(f"standings page views: {len(stats.read_seconds)} ({len(stats.read_seconds) / elapsed:.1f} views/s)")
        print(describe("writes (POST zapisz/)", stats.write_seconds))
        print(describe("reads (GET klasyfikacja/)", stats.read_seconds))
        print(describe("protocol page after a save", stats.other_seconds))
        print(f"errors: {sum(stats.errors.values())} {dict(stats.errors)}")
        for sample in stats.error_samples:
            print("  ", sample)
    finally:
        server.stop()
    problems = verify(slug, stats)
    if not stats.acknowledged:
        problems.append("no deal was acknowledged: the figures above measure nothing")
    print("verification: OK" if not problems else f"verification FAILED: {len(problems)} problems")
    for problem in problems[:20]:
        print("  ", problem)
    connections.close_all()
    if not os.environ.get("BENCH_KEEP_DB"):
        recreate_database(db_name, drop_only=True)
    return 0 if not problems and not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())
