"""Benchmark of the records page (rekordy) over a long history: building its lists, a visit, and
building them again after one tournament changes.

Run: ``.venv/bin/python bench/records.py``. It builds a throwaway SQLite database
``bench-records.sqlite3`` in ``$BASKA_VAR_DIR`` (default /tmp/bench-records; never the database
``DATABASE_URL`` names), with this process's own memory cache: ``BENCH_TOURNAMENTS`` (300)
tournaments of 40 to 100 players drawn from a pool of 600 (one regular plays them all, as in
bench/season_history.py), ``BENCH_SERIES`` (5) closed series of ``BENCH_DEALS`` (40) deals a
table, each deal a plausible one of the puck rules (league.games.baska.demo's), rows written with
bulk_create. Prints the time and queries of building the lists with nothing in the cache and no
players' rows, with the rows kept (as the recompute task leaves them), a visit, and the build after
one tournament's protocol changed, before and after the recompute task rewrites its rows. A tiny
run (tests/bench):
``BENCH_TOURNAMENTS=2 BENCH_SERIES=1 BENCH_DEALS=4``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
VAR_DIR = Path(os.environ.setdefault("BASKA_VAR_DIR", "/tmp/bench-records"))
DATABASE = VAR_DIR / "bench-records.sqlite3"  # never the database the shell points at
# BENCH_REUSE=1 times the history a previous run left (building 300 tournaments takes minutes)
REUSE = os.environ.get("BENCH_REUSE") == "1" and DATABASE.exists()
if not REUSE:
    DATABASE.unlink(missing_ok=True)
VAR_DIR.mkdir(parents=True, exist_ok=True)
os.environ["DATABASE_URL"] = f"sqlite:///{DATABASE}"
os.environ.pop("CACHE_URL", None)  # the cache it clears is its own
os.environ.pop("CELERY_BROKER_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django
from django.conf import settings

# Django's memory cache keeps 300 values and then drops a third of them: 300 tournaments' standings
# and records' parts would push each other out, and every run would read the whole history again.
# Redis (CACHE_URL) keeps them all; so does this run's memory cache.
settings.CACHES["default"].setdefault("OPTIONS", {})["MAX_ENTRIES"] = 100_000

django.setup()

from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext

import scoring
from league.games.baska.demo import random_deal
from league.games.baska.settings import BaskaSettings
from league.models import Registration, Series, TableAssignment, Tournament
from league.results.models import DealRow, Protocol
from league.standings.records import records
from league.standings.summaries import player_results_rebuild, player_results_refresh
from players.models import Player

SEED, POOL, FEWEST, MOST = 2026, 600, 40, 100
TOURNAMENTS = int(os.environ.get("BENCH_TOURNAMENTS", "300"))
SERIES = int(os.environ.get("BENCH_SERIES", "5"))
DEALS = int(os.environ.get("BENCH_DEALS", "40"))


def deal_pool(rng: random.Random, size: int = 2000) -> list[tuple[dict, dict[str, int]]]:
    """Plausible deals of the puck rules with their values by seat, drawn from for every table."""
    ruleset = scoring.load_ruleset("puck")
    pool = []
    for _ in range(size):
        deal = random_deal(rng, ruleset)
        pool.append((deal, scoring.score_deal(deal, ruleset).values))
    return pool


def build() -> None:
    rng = random.Random(SEED)
    call_command("migrate", verbosity=0)
    players = Player.objects.bulk_create(Player(first_name=f"Imię{i}", last_name=f"Nazwisko{i}") for i in range(POOL))
    pool = deal_pool(rng)
    for n in range(TOURNAMENTS):
        tournament = Tournament.objects.create(
            name=f"Turniej {n}",
            slug=f"turniej-{n}",
            date=date(2020, 1, 1) + timedelta(weeks=n),
            series_count=SERIES,
            game="baska",
            game_settings=BaskaSettings(ruleset_preset="puck", deals_per_series=DEALS).stored(),
            draw_published=True,
        )
        size = rng.randint(FEWEST, MOST) // 4 * 4
        field = [players[0], *rng.sample(players[1:], size - 1)]
        Registration.objects.bulk_create(Registration(tournament=tournament, player=p) for p in field)
        for number in range(1, SERIES + 1):
            series = Series.objects.create(
                tournament=tournament, number=number, status=Series.Status.CLOSED, results_entered=True
            )
            rng.shuffle(field)
            TableAssignment.objects.bulk_create(
                TableAssignment(series=series, table=i // 4 + 1, seat=scoring.SEATS[i % 4], player=p)
                for i, p in enumerate(field)
            )
            protocols = Protocol.objects.bulk_create(
                Protocol(series=series, table=t, status=Protocol.Status.CONFIRMED) for t in range(1, size // 4 + 1)
            )
            rows = []
            for protocol in protocols:
                for number_in_protocol in range(1, DEALS + 1):
                    deal, values = rng.choice(pool)
                    rows.append(
                        DealRow(
                            protocol=protocol,
                            number=number_in_protocol,
                            deal=deal,
                            **{f"value_{seat.lower()}": value for seat, value in values.items()},
                        )
                    )
            DealRow.objects.bulk_create(rows, batch_size=2000)


def timed(label: str, action) -> None:
    start = time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        action()
    print(f"{label:<58} {time.perf_counter() - start:8.3f} s {len(queries):6d} queries")


def main() -> None:
    start = time.perf_counter()
    if not REUSE:
        build()
    made = "reused" if REUSE else f"built {TOURNAMENTS} tournaments,"
    print(f"{made} {DealRow.objects.count()} deal rows in {time.perf_counter() - start:.1f} s")
    cache.clear()
    timed("records, no rows kept (each tournament read afresh)", lambda: records())
    cache.clear()
    start = time.perf_counter()
    player_results_rebuild()  # as the recompute task leaves them after every change
    print(f"{'(the players rows written, rebuild_statistics)':<58} {time.perf_counter() - start:8.3f} s")
    cache.clear()
    timed("records from the players' kept rows, nothing cached", lambda: records())
    client = Client()
    client.get("/rekordy/")
    timed("a visit of /rekordy/ (the lists kept)", lambda: client.get("/rekordy/"))
    changed = Protocol.objects.filter(series__tournament__slug="turniej-0").order_by("pk")[:1]
    Protocol.objects.filter(pk__in=changed).update(version=F("version") + 1)  # a correction moves its stamp
    timed("records after one tournament's correction (its rows behind)", lambda: records())
    player_results_refresh(tournament_id=Tournament.objects.get(slug="turniej-0").pk)
    timed("records once the recompute task rewrote its rows", lambda: records())


if __name__ == "__main__":
    main()
