"""Benchmark of the ratings (``league.rating``): a full rebuild of a long history, the update
after one series closes, and after a correction a year back; reads and writes included.

Run: ``.venv/bin/python bench/rating_speed.py`` (tiny: ``BENCH_TOURNAMENTS=3 BENCH_TABLES=2``).
It builds a throwaway SQLite database ``bench-rating.sqlite3`` in ``$BASKA_VAR_DIR`` (default
/tmp/bench-rating; never the database ``DATABASE_URL`` names): ``BENCH_TOURNAMENTS`` (300)
weekly tournaments of ``BENCH_SERIES`` (3) closed series of ``BENCH_TABLES`` (17) tables of four
drawn from a pool of 600, ``BENCH_DEALS`` (4) deals a table, written in bulk (about 15,000 table
matches at the defaults). Then, in this one process (one core): ``manage.py rebuild_ratings``
from nothing; one more series closed and the refresh the standings' task runs after it; one
tournament a year back corrected and its refresh. The best of ``BENCH_REPEATS`` (3) each.
"""

from __future__ import annotations

import io
import os
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
VAR_DIR = Path(os.environ.setdefault("BASKA_VAR_DIR", "/tmp/bench-rating"))
DATABASE = VAR_DIR / "bench-rating.sqlite3"  # never the database the shell points at
DATABASE.unlink(missing_ok=True)
VAR_DIR.mkdir(parents=True, exist_ok=True)
os.environ["DATABASE_URL"] = f"sqlite:///{DATABASE}"
os.environ.pop("CACHE_URL", None)
os.environ.pop("CELERY_BROKER_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django

django.setup()

import filler
from django.core.management import call_command

from league.games.baska.settings import BaskaSettings
from league.models import Series, Tournament
from league.rating.models import Rating
from league.rating.services import ratings_recompute, ratings_refresh
from league.results.models import DealRow
from players.models import Gender, Player

POOL, SEED = 600, 2026
TOURNAMENTS = int(os.environ.get("BENCH_TOURNAMENTS", "300"))
SERIES = int(os.environ.get("BENCH_SERIES", "3"))
TABLES = int(os.environ.get("BENCH_TABLES", "17"))
DEALS = int(os.environ.get("BENCH_DEALS", "4"))
REPEATS = int(os.environ.get("BENCH_REPEATS", "3"))
WEEKS_A_YEAR = 52
BEST = f"(best of {REPEATS})"


def build() -> list[Tournament]:
    rng = random.Random(SEED)
    players = Player.objects.bulk_create(
        Player(first_name=f"Imię{i}", last_name=f"Nazwisko{i}", gender=rng.choice(Gender.values)) for i in range(POOL)
    )
    tournaments = []
    for number in range(TOURNAMENTS):
        tournament = Tournament.objects.create(
            name=f"Turniej {number + 1}",
            slug=f"turniej-{number + 1}",
            date=date(2020, 1, 4) + timedelta(weeks=number),
            series_count=SERIES + 1,
            game="baska",
            game_settings=BaskaSettings(ruleset_preset="puck", deals_per_series=DEALS).stored(),
        )
        field = rng.sample(players, TABLES * 4)
        for series_number in range(1, SERIES + 1):
            series = Series.objects.create(tournament=tournament, number=series_number, status=Series.Status.CLOSED)
            filler.seat_and_fill(series, field, rng, deals=DEALS, played=True)
        tournaments.append(tournament)
    return tournaments


def best(run, prepare=lambda: None) -> tuple[float, float]:
    """The least of ``REPEATS`` runs in seconds of this process's CPU time, and that run's wall
    clock: on a machine shared with other work the wall clock counts their turns too."""
    times = []
    for _ in range(REPEATS):
        prepare()
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
    return min(times)


def main() -> None:
    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    tournaments = build()
    matches = len(tournaments) * SERIES * TABLES
    print(f"history: {len(tournaments)} tournaments, {matches} table matches, {DealRow.objects.count()} deal rows")
    print(f"(built in {time.perf_counter() - start:.1f} s; SQLite, one process)")

    full, wall = best(lambda: call_command("rebuild_ratings", stdout=io.StringIO()))
    written = Rating.objects.count()
    print(f"full rebuild (rebuild_ratings): {full:.2f} s CPU ({wall:.2f} s wall), {written} rows written", BEST)

    last = tournaments[-1]
    rng = random.Random(SEED + 1)
    field = list(Player.objects.filter(table_assignments__series__tournament=last).distinct())

    def close_one_more() -> None:
        Series.objects.filter(tournament=last, number=SERIES + 1).delete()
        ratings_refresh(tournament_id=last.pk)
        series = Series.objects.create(tournament=last, number=SERIES + 1, status=Series.Status.CLOSED)
        filler.seat_and_fill(series, field, rng, deals=DEALS, played=True)

    incremental, wall = best(lambda: ratings_refresh(tournament_id=last.pk), close_one_more)
    print(f"update after one series closes (ratings_refresh): {incremental:.3f} s CPU ({wall:.3f} s wall)", BEST)

    back = tournaments[max(0, len(tournaments) - 1 - WEEKS_A_YEAR)]
    row = DealRow.objects.filter(protocol__series__tournament=back).order_by("pk").first()

    def correct() -> None:
        row.value_a, row.value_b = row.value_b + 7, row.value_a - 7
        row.save(update_fields=["value_a", "value_b"])

    corrected, wall = best(lambda: ratings_refresh(tournament_id=back.pk), correct)
    later = Rating.objects.filter(date__gte=back.date).count()
    print(
        f"update after a correction a year back: {corrected:.2f} s CPU ({wall:.2f} s wall), {later} rows rewritten",
        BEST,
    )
    unchanged, wall = best(lambda: ratings_refresh(tournament_id=back.pk))
    print(
        f"refresh with nothing changed (after every deal saved): {unchanged * 1000:.1f} ms CPU ({wall * 1000:.1f} ms)"
    )
    ratings_recompute()


if __name__ == "__main__":
    main()
