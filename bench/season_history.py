"""Benchmark of a long season: its table, its chart of the leaders, and what the cache keeps.

Run: ``.venv/bin/python bench/season_history.py`` (sizes: ``--sizes 1,20,100,300``, the
number of tournaments in the season; ``--sizes 1,3`` is the tiny run of tests/bench).
Each tournament ranks 40 to 100 players drawn from a pool of 600, and one regular plays
them all, as the issue's measurements were taken; the
lists are generated in memory (no database), so the figures are the season's own
arithmetic: ``season_standings`` (best 10 of N), the chart of the top 10 after each
tournament (``season_chart``) and, for comparison up to ``--before-up-to`` tournaments,
the chart as it was computed before (the whole season table after every prefix), and the
bytes of JSON the cache keeps for the season's table (``league.standings.cache``; Redis
refuses values over 1 MB), beside the bytes of the table as the pages read it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django

django.setup()

from django.utils import translation

from league.cache_backend import MAX_VALUE_BYTES
from league.models import Season, SeasonScheme, Tournament
from league.public.player_history import season_chart
from league.standings.cache import _packed
from league.standings.seasons import season_standings

POOL, FEWEST, MOST, SEED = 600, 40, 100, 2026


def season_of(count: int, rng: random.Random) -> tuple[Season, list[Tournament], list[dict]]:
    """A season of ``count`` tournaments with their individual lists, player 1 in every one."""
    season = Season(pk=1, name="Liga", slug="liga", best_of=10, scheme=SeasonScheme.BIG)
    tournaments, rankings = [], []
    for number in range(count):
        tournament = Tournament(pk=number + 1, name=f"Turniej {number + 1}", date=date(2026, 1, 1) + timedelta(number))
        field = [1, *rng.sample(range(2, POOL + 1), rng.randint(FEWEST, MOST) - 1)]
        small = sorted((rng.randint(-300, 300) for _ in field), reverse=True)
        entries = [
            {
                "pk": pk,
                "name": f"Zawodnik {pk}",
                "team": None,
                "place": place,
                "label": f"{place}.",
                "big_points": float(max(0, 30 - place)),
                "small_points": points,
            }
            for place, (pk, points) in enumerate(zip(field, small, strict=True), start=1)
        ]
        tournaments.append(tournament)
        rankings.append({"individual": entries, "women": [], "men": [], "teams": []})
    return season, tournaments, rankings


COLUMNS = ("tournaments", "table s", "chart s", "chart before s", "kept bytes", "unpacked", "≤ 1 MB")


def measure(count: int, before_up_to: int) -> tuple:
    """One row of the table: a season of ``count`` tournaments."""
    season, tournaments, rankings = season_of(count, random.Random(SEED))
    start = time.perf_counter()
    table = season_standings(season, tournaments, rankings)
    table_seconds = time.perf_counter() - start
    start = time.perf_counter()
    chart = season_chart(season, tournaments, table["individual"])
    chart_seconds = time.perf_counter() - start
    assert chart is not None and len(chart.lines) == min(10, len(table["individual"]))
    before = "-"
    if count <= before_up_to:
        start = time.perf_counter()
        for k in range(1, count + 1):
            season_standings(season, tournaments[:k], rankings[:k])
        before = f"{time.perf_counter() - start:.3f}"
    kept = len(json.dumps(_packed(table), separators=(",", ":")).encode())
    unpacked = len(json.dumps(table, separators=(",", ":")).encode())
    fits = "yes" if kept <= MAX_VALUE_BYTES else "NO"
    return count, f"{table_seconds:.3f}", f"{chart_seconds:.3f}", before, kept, unpacked, fits


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,20,100,300", help="tournaments in the season, comma-separated")
    parser.add_argument("--before-up-to", type=int, default=100, help="time the chart as before up to this size")
    args = parser.parse_args()
    translation.activate("pl")
    widths = [max(len(column), 8) for column in COLUMNS]
    print(" ".join(column.rjust(width) for column, width in zip(COLUMNS, widths, strict=True)))
    for count in (int(size) for size in args.sizes.split(",")):
        row = measure(count, args.before_up_to)
        print(" ".join(str(value).rjust(width) for value, width in zip(row, widths, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
