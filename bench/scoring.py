"""Benchmark of the scoring engine: deal valuations per second, and the time
to value a 256-player tournament (64 tables × 5 series × 40 deals, one
score_protocol call per table).  Run from the repository root:
``python bench/scoring.py``; ``BENCH_TABLES`` (64) sets the tournament's size
(a tiny run, tests/bench: ``BENCH_TABLES=2``)."""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import SEATS, eyes_possible, load_ruleset, score_deal, score_protocol
from scoring.constants import TIE_EYES, TOTAL_EYES

TABLES, SERIES, DEALS = int(os.environ.get("BENCH_TABLES", "64")), 5, 40
SOLO = ("cicha", "zolo", "gran", "zolo_du", "gran_du")
# the eye counts a side can take, as the engine says (a side without a trick, or with tricks of 8 eyes at least)
EYES = [eyes for eyes in range(TOTAL_EYES + 1) if eyes_possible(eyes)]


def random_deal(rng: random.Random) -> dict[str, Any]:
    """A plausible deal: mostly ordinary games, some solos, a few ties."""
    if rng.random() < 0.7:
        old = rng.sample(SEATS, 2)
        kontras = ["young", "old", "young", "old"][: rng.choice((0, 0, 0, 1, 1, 2, 3))]
        return {
            "contract": rng.choice(("zwykla", "wesele")),
            "old": old,
            "kontras": kontras,
            "old_eyes": rng.choice((TIE_EYES, rng.choice(EYES))),
        }
    kontras = ["young", "old"][: rng.choice((0, 0, 1, 2))]
    return {
        "contract": rng.choice(SOLO),
        "old": [rng.choice(SEATS)],
        "kontras": kontras,
        "old_eyes": rng.choice(EYES),
    }


def main() -> None:
    ruleset = load_ruleset("psb")
    rng = random.Random(2026)
    protocols = [[random_deal(rng) for _ in range(DEALS)] for _ in range(TABLES * SERIES)]
    flat = [deal for protocol in protocols for deal in protocol]

    start = time.perf_counter()
    for deal in flat:
        score_deal(deal, ruleset)
    single = time.perf_counter() - start
    print(f"deal valuations: {len(flat) / single:,.0f} per second ({len(flat)} deals in {single:.3f} s)")

    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for protocol in protocols:
            score_protocol(protocol, ruleset)
        best = min(best, time.perf_counter() - start)
    print(
        f"tournament of {TABLES * 4} players ({TABLES} tables x {SERIES} series x {DEALS} deals = {len(flat)} deals): "
        f"{best:.3f} s (best of 5)"
    )


if __name__ == "__main__":
    main()
