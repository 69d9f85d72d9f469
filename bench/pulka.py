"""Benchmark of a Preferans evening's scoring: what saving one pulka entry costs (the whole
sheet re-read and each entry's share of the settlement, ``scoring.preferans.table_score``),
and what the standings of 64 tables × 3 series of played-out pulkas cost the engine.
Run from the repository root: ``python bench/pulka.py``; ``BENCH_TABLES`` (64) and
``BENCH_SERIES`` (3) set the evening's size (a tiny run, tests/bench: ``BENCH_TABLES=2
BENCH_SERIES=1``)."""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django

django.setup()  # the demo's deal generator lives with the demo league

from league.games.preferans.demo import random_pulka_deal
from scoring.preferans import keep_sheet, load_variant, table_score

TABLES = int(os.environ.get("BENCH_TABLES", "64"))
SERIES = int(os.environ.get("BENCH_SERIES", "3"))
TOTAL = 20
SEATS = ("A", "B", "C", "D")


def played_pulka(rng: random.Random, variant) -> list[dict]:
    """Plausible deals until the pulka to ``TOTAL`` among four is played out."""
    entries: list[dict] = []
    while True:
        deal = random_pulka_deal(rng, dealer=SEATS[len(entries) % 4], seats=SEATS)
        sheet = keep_sheet(players=SEATS, variant=variant, total=TOTAL, entries=[*entries, deal])
        entries.append(deal)
        if sheet.finished:
            return entries


def main() -> None:
    variant = load_variant("sochi")
    rng = random.Random(2026)
    pulkas = [played_pulka(rng, variant) for _ in range(TABLES * SERIES)]
    lengths = [len(p) for p in pulkas]
    print(
        f"{len(pulkas)} pulkas to {TOTAL} among four: "
        f"{statistics.mean(lengths):.1f} entries on average, {max(lengths)} at most"
    )

    longest = max(pulkas, key=len)
    runs = []
    for _ in range(20):
        start = time.perf_counter()
        table_score(players=SEATS, variant=variant, total=TOTAL, entries=longest)
        runs.append(time.perf_counter() - start)
    print(f"saving an entry of the longest pulka ({len(longest)} entries) re-scores it in {min(runs) * 1000:.2f} ms")

    start = time.perf_counter()
    for entries in pulkas:
        table_score(players=SEATS, variant=variant, total=TOTAL, entries=entries)
    elapsed = time.perf_counter() - start
    print(
        f"every table of the evening ({TABLES} × {SERIES}) scored in {elapsed:.2f} s, "
        f"{elapsed / len(pulkas) * 1000:.2f} ms a table"
    )


if __name__ == "__main__":
    main()
