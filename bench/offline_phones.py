"""64 table phones on the hall's bad Wi-Fi: deals queued offline, sent in order, stored exactly once.

Run: ``.venv/bin/python bench/offline_phones.py [--quick] [--tables N] [--deals N]`` (PostgreSQL at 127.0.0.1:5432, user
postgres, trust auth; Redis at 127.0.0.1:6379 as for ``bench/load.py``, whose helpers it uses). It
builds the database ``baska_bench_offline`` (dropped afterwards): 256 players at 64 tables of a drawn
series, 40 deals per series; starts ``gunicorn league.wsgi`` in its own process, then runs one client
thread per table in this process (not the server's). Each client is a phone:

- it opens the table with the real PIN form (GET for the CSRF cookie, POST PIN and seat);
- the scorer types a deal every 0.5–1.5 s (``random_deal`` of the demo, under the tournament's
  rules), each with its own key (uuid4), into the phone's queue;
- the phone is online for 5–20 s, then offline for 10–60 s (at random), and so on; offline it only
  queues; online it sends the queue in order, oldest first, through ``POST rozdania.json`` with the
  same key each time (``X-CSRFToken`` from the cookie, as the page's JS does);
- a sent deal whose answer is lost (one in ``LOST_ANSWER`` (8), the request reached the server and
  the answer is dropped) and any failed send are sent again with the same key, after 0.2 s.

Then it prints the deals entered, stored (rows in the database), duplicates (rows or history "add"
entries beyond one per deal: must be 0; and every row must hold the deal typed for its number),
answers that were repeats, the time from each reconnect with deals waiting to all of them stored
(p50/p95/max) and the total wall time. ``--quick``: 8 tables, 10 deals, offline 1–3 s, online 1–3 s;
``--tables`` and ``--deals`` change the count of either profile (tests/bench: ``--quick --tables 4``).
Environment: BENCH_KEEP_DB=1 keeps the database; BENCH_WORKERS (4), BENCH_THREADS (4).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load

DB = "baska_bench_offline"
SLUG = "bez-sieci"
LOST_ANSWER = 8
SEED = 15


@dataclass(frozen=True)
class Profile:
    tables: int
    deals: int
    offline: tuple[float, float]
    online: tuple[float, float]
    typing: tuple[float, float]


FULL = Profile(tables=64, deals=40, offline=(10, 60), online=(5, 20), typing=(0.5, 1.5))
QUICK = Profile(tables=8, deals=10, offline=(1, 3), online=(1, 3), typing=(0.05, 0.2))


@dataclass
class Results:
    lock: threading.Lock = field(default_factory=threading.Lock)
    entered: dict[int, list[dict]] = field(default_factory=dict)
    answers: Counter = field(default_factory=Counter)
    lost_answers: int = 0
    catch_up: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def post_json(
    client: load.Client, path: str, body: dict, *, lose_one_in: int = LOST_ANSWER
) -> tuple[int, dict | None, bool]:
    """POST ``body`` as the phone's JS does; (status, answer, lost): a lost answer (one in
    ``lose_one_in``; 0: none) is read and dropped."""
    headers = {
        "Host": f"{load.HOST}:{client.port}",
        "Content-Type": "application/json",
        "X-CSRFToken": client.cookies.get("csrftoken", ""),
        "Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items()),
    }
    conn = http.client.HTTPConnection(load.HOST, client.port, timeout=30)
    try:
        conn.request("POST", path, body=json.dumps(body), headers=headers)
        response = conn.getresponse()
        text = response.read().decode()
    finally:
        conn.close()
    lost = bool(lose_one_in) and random.random() < 1 / lose_one_in
    is_json = response.headers.get_content_type() == "application/json"  # a 503 page is HTML
    answer = json.loads(text) if text and is_json and not lost else None
    return response.status, answer, lost


def sign_in(client: load.Client, base: str, pin: str) -> bool:
    """Open the table at ``base`` with the real PIN form (GET for the CSRF cookie, POST PIN and seat)."""
    page = client.get(base + "pin/")
    login = client.post(
        base + "pin/", {"csrfmiddlewaretoken": load.hidden(load.CSRF_RE, page.body), "pin": pin, "seat": "A"}
    )
    return login.status == 302


def phone(port: int, table: int, pin: str, profile: Profile, results: Results) -> None:
    """One table's phone: types deals into its queue and sends the queue whenever it is online."""
    from league.games.baska.demo import random_deal

    rng = random.Random(SEED * 1000 + table)
    base = f"/turnieje/{SLUG}/stolik/1/{table}/"
    client = load.Client(port)
    if not sign_in(client, base, pin):
        results.errors.append(f"table {table}: PIN refused")
        return
    deals = [random_deal(rng, RULESET) for _ in range(profile.deals)]
    with results.lock:
        results.entered[table] = deals
    queue: list[dict] = []
    typed = 0
    online = True
    switch = time.monotonic() + rng.uniform(*profile.online)
    next_typed = time.monotonic() + rng.uniform(*profile.typing)
    reconnected: float | None = None
    while typed < len(deals) or queue:
        now = time.monotonic()
        if now >= switch:
            online = not online
            switch = now + rng.uniform(*(profile.online if online else profile.offline))
            if online and queue:
                reconnected = now
        if typed < len(deals) and now >= next_typed:
            typed += 1
            queue.append({"key": str(uuid.uuid4()), "number": typed, "deal": deals[typed - 1]})
            next_typed = now + rng.uniform(*profile.typing)
        if not online or not queue:
            time.sleep(0.05)
            continue
        try:
            status, answer, lost = post_json(client, base + "rozdania.json", queue[0])
        except (OSError, http.client.HTTPException) as error:
            results.errors.append(f"table {table}: {error!r}")
            time.sleep(0.2)
            continue
        if lost:
            with results.lock:
                results.lost_answers += 1
            time.sleep(0.2)
            continue
        kind = (
            f"{status} {answer.get('status') if answer else ''}{' repeat' if answer and answer.get('repeat') else ''}"
        )
        with results.lock:
            results.answers[kind] += 1
        if status in (200, 201):
            queue.pop(0)
            if not queue and reconnected is not None:
                with results.lock:
                    results.catch_up.append(time.monotonic() - reconnected)
                reconnected = None
        else:
            results.errors.append(f"table {table} deal {queue[0]['number']}: {status} {answer}")
            return


def verify(results: Results) -> tuple[int, int, list[str]]:
    """(rows stored, duplicates, problems): every typed deal once, at its number, nothing else."""
    from league.results.models import DealRow, DealRowVersion

    problems: list[str] = []
    rows = DealRow.objects.filter(protocol__series__tournament__slug=SLUG)
    stored = rows.count()
    adds = Counter(
        DealRowVersion.objects.filter(protocol__series__tournament__slug=SLUG, action="add").values_list(
            "protocol__table", "number"
        )
    )
    duplicates = sum(count - 1 for count in adds.values() if count > 1)
    by_table: dict[int, dict[int, dict]] = {}
    for table, number, deal in rows.values_list("protocol__table", "number", "deal"):
        by_table.setdefault(table, {})[number] = deal
    for table, deals in results.entered.items():
        held = by_table.get(table, {})
        if held != dict(enumerate(deals, start=1)):
            problems.append(f"table {table}: {len(held)} rows stored of {len(deals)} typed, or not the typed deals")
    return stored, duplicates, problems


def seconds(label: str, values: list[float]) -> str:
    if not values:
        return f"{label}: none"
    return (
        f"{label}: n={len(values)} p50={statistics.median(values):.2f} s "
        f"p95={load.percentile(values, 0.95):.2f} s max={max(values):.2f} s"
    )


RULESET = None


def main() -> int:
    global RULESET
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 tables, 10 deals, short drops")
    parser.add_argument("--tables", type=int, help="tables (phones) instead of the profile's")
    parser.add_argument("--deals", type=int, help="deals each phone types instead of the profile's")
    args = parser.parse_args()
    profile = QUICK if args.quick else FULL
    profile = replace(profile, tables=args.tables or profile.tables, deals=args.deals or profile.deals)

    load.recreate_database(DB)
    load.setup_django(DB)
    from django.core.cache import cache
    from django.db import connections

    from league.games.baska.settings import tournament_ruleset
    from league.models import Tournament

    pins = load.build_tournament(SLUG, players=profile.tables * 4, closed_series=0, deals=profile.deals)
    RULESET = tournament_ruleset(Tournament.objects.get(slug=SLUG))
    if load.CACHE_URL:
        cache.clear()
    connections.close_all()
    workers, threads = os.environ.get("BENCH_WORKERS", "4"), os.environ.get("BENCH_THREADS", "4")
    server = load.start_gunicorn(DB, workers=int(workers), threads=int(threads))
    print(f"gunicorn on {load.HOST}:{server.port} (-w {workers} --threads {threads}), {profile}")
    results = Results()
    began = time.monotonic()
    try:
        clients = [
            threading.Thread(target=phone, args=(server.port, table, pin, profile, results), daemon=True)
            for table, pin in sorted(pins.items())
        ]
        for client in clients:
            client.start()
        for client in clients:
            client.join(timeout=1800)
        wall = time.monotonic() - began
    finally:
        server.stop()
    stored, duplicates, problems = verify(results)
    entered = sum(len(deals) for deals in results.entered.values())
    print(f"deals entered: {entered}, stored: {stored}, duplicates: {duplicates}")
    print(f"answers: {dict(results.answers)}; answers lost on the way (sent again): {results.lost_answers}")
    print(seconds("reconnect → all its waiting deals stored", results.catch_up))
    print(f"total wall time: {wall:.1f} s")
    for error in results.errors[:10]:
        print("  error:", error)
    for problem in problems[:10]:
        print("  problem:", problem)
    connections.close_all()
    if not os.environ.get("BENCH_KEEP_DB"):
        load.recreate_database(DB, drop_only=True)
    ok = entered == stored and not duplicates and not problems and not results.errors
    print("verification:", "OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
