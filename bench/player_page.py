"""Benchmark of a regular's player page as the league's history grows: queries and time with an
empty cache (cold) and with the cache filled (warm), and the page's size.

Run: ``.venv/bin/python bench/player_page.py`` (sizes: ``--sizes 1,10,100,300``, the
tournaments the regular has played; ``--sizes 1,2 --field 8,12`` is the tiny run of
tests/bench). It builds a throwaway SQLite database ``bench-player-page.sqlite3`` in
``$BASKA_VAR_DIR`` (default /tmp/bench-player-page; never the database ``DATABASE_URL`` names),
with this process's own memory cache. As the issue's measurements were taken, each tournament
ranks 40 to 100 players (``--field``) drawn from a pool of 600, one regular plays them all, and
ten tournaments make a season; each has ``--series`` (3) closed series of ``--deals`` (10)
deals a table, written in bulk, after which the standings' recompute task runs as it does when
a series closes (so the players' kept results are written). The history grows from one size
to the next; at each size a process of its own (as a web worker) opens the page three ways:
**cold**, with the cache emptied and nothing kept by the process (the season tables are added
up again); **warm**, with the cache filled but the page and its state not kept by the process
(as a web worker meets it after a change elsewhere or when it starts; the best of three); and
**kept**, a reload within the second, answered from the page the process keeps (the best of three).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
VAR_DIR = Path(os.environ.setdefault("BASKA_VAR_DIR", "/tmp/bench-player-page"))
DATABASE = VAR_DIR / "bench-player-page.sqlite3"  # never the database the shell points at
MEASURING = "--measure" in sys.argv  # a fresh process opening the page of the database built
if not MEASURING:
    DATABASE.unlink(missing_ok=True)
VAR_DIR.mkdir(parents=True, exist_ok=True)
os.environ["DATABASE_URL"] = f"sqlite:///{DATABASE}"
os.environ.pop("CACHE_URL", None)  # the cache it empties is its own
os.environ.pop("CELERY_BROKER_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django

django.setup()

import filler
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.games.baska.settings import BaskaSettings
from league.models import Registration, Season, Series, Tournament
from league.public import page_store
from league.standings.tasks import recompute_standings
from players.models import Gender, Player

POOL, SEASON_LENGTH, SEED = 600, 10, 2026
COLUMNS = ("tournaments", "queries cold", "ms cold", "queries warm", "ms warm", "ms kept", "page KB")


def pool() -> list[Player]:
    rng = random.Random(SEED)
    return Player.objects.bulk_create(
        Player(first_name=f"Imię{i}", last_name=f"Nazwisko{i}", gender=rng.choice(Gender.values)) for i in range(POOL)
    )


def tournament(number: int, players: list[Player], rng: random.Random, args: argparse.Namespace) -> None:
    """The ``number``-th tournament of the history (0 first), played to its end by the regular
    (``players[0]``) and a field drawn from the pool; then the recompute task, as after a close."""
    fewest, most = args.field
    size = rng.randint(fewest, most) // 4 * 4  # tables of four
    field = [players[0], *rng.sample(players[1:], size - 1)]
    season, _ = Season.objects.get_or_create(
        slug=f"sezon-{number // SEASON_LENGTH}",
        defaults={"name": f"Sezon {number // SEASON_LENGTH + 1}", "year": 2000 + number // SEASON_LENGTH},
    )
    played = Tournament.objects.create(
        name=f"Turniej {number + 1}",
        slug=f"turniej-{number + 1}",
        date=date(2000, 1, 1) + timedelta(weeks=number),
        season=season,
        series_count=args.series,
        game="baska",
        game_settings=BaskaSettings(ruleset_preset="puck", deals_per_series=args.deals).stored(),
        draw_published=True,
    )
    Registration.objects.bulk_create(Registration(tournament=played, player=p, checked_in=True) for p in field)
    for series_number in range(1, args.series + 1):
        series = Series.objects.create(
            tournament=played, number=series_number, status=Series.Status.CLOSED, results_published=True
        )
        filler.seat_and_fill(series, field, rng, deals=args.deals, played=True)
    recompute_standings(played.pk)


def measure(url: str) -> tuple[int, float, int, float, float, float]:
    """The figures of :func:`measured`, in a process of its own, as a web worker has: not the
    one that wrote the whole history."""
    finished = subprocess.run(
        [sys.executable, __file__, "--measure", url], capture_output=True, text=True, check=True, timeout=600
    )
    cold_queries, cold, warm_queries, warm, kept, kilobytes = finished.stdout.split()[-6:]
    return int(cold_queries), float(cold), int(warm_queries), float(warm), float(kept), float(kilobytes)


def timed(client: Client, url: str) -> tuple[int, float, int]:
    """Queries, ms and bytes of one request for ``url``."""
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = client.get(url)
        elapsed = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, response.status_code
    return len(queries), elapsed, len(response.content)


def measured(url: str) -> None:
    """Prints the queries and ms of a cold page, the queries and best ms of three warm ones, the
    best ms of three kept ones, and the page's KB (see the module's docstring)."""
    client = Client()
    client.get(url)  # the process warmed up (templates compiled, URLs resolved)
    cache.clear()
    page_store.forget_all()
    cold_queries, cold, size = timed(client, url)
    warm = []
    for _ in range(3):
        page_store.forget_all()
        warm.append(timed(client, url))
    kept = [timed(client, url)[1] for _ in range(3)]
    warm_queries, warm_ms = warm[0][0], min(ms for _, ms, _ in warm)
    print(cold_queries, cold, warm_queries, warm_ms, min(kept), size / 1024)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,100,300", help="tournaments of history, comma-separated")
    parser.add_argument("--field", default="40,100", help="fewest and most players of a tournament")
    parser.add_argument("--series", type=int, default=3)
    parser.add_argument("--deals", type=int, default=10, help="deals a table plays in a series")
    parser.add_argument("--measure", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measured(args.measure)
        return
    sizes = sorted(int(size) for size in args.sizes.split(","))
    args.field = tuple(int(n) for n in args.field.split(","))

    call_command("migrate", verbosity=0)
    players = pool()
    url = reverse("public:player", args=[players[0].pk])
    rng = random.Random(SEED)
    print(f"a regular's player page ({args.field[0]}–{args.field[1]} players a tournament from a pool of {POOL}, ")
    print(f"{args.series} series of {args.deals} deals a table, {SEASON_LENGTH} tournaments a season; SQLite)")
    print("".join(f"{column:>14}" for column in COLUMNS))
    rows, built = [], 0
    for size in sizes:
        start = time.perf_counter()
        while built < size:
            tournament(built, players, rng, args)
            built += 1
        building = time.perf_counter() - start
        connection.close()  # everything written, before another process reads it
        queries, cold, warm_queries, warm, kept, kilobytes = measure(url)
        rows.append((size, queries, cold, warm_queries, warm, kept))
        print(
            f"{size:>14}{queries:>14}{cold:>14.1f}{warm_queries:>14}{warm:>14.1f}{kept:>14.1f}{kilobytes:>14.1f}"
            f"   (history built in {building:.1f} s)"
        )
    first, last = rows[0], rows[-1]
    same = "the same" if (first[1], first[3]) == (last[1], last[3]) else "NOT the same"
    print(f"queries cold and warm {same} at {first[0]} and {last[0]} tournaments; ", end="")
    print(f"ms cold ×{last[2] / first[2]:.1f}, ms warm ×{last[4] / first[4]:.1f}, ms kept ×{last[5] / first[5]:.1f}")


if __name__ == "__main__":
    main()
