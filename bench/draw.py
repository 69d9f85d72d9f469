"""Benchmark of the table draw against a naive baseline (docs/draw.md, "Figures").

Run: ``.venv/bin/python bench/draw.py``.  For each instance (tables of four,
and Preferans tables of three) it prints the repeated pairs, the highest meeting count, seat balance (most times any
player sits at the same letter) and the time of our draw, the repeats and time
of the naive baseline, the counting lower bound on repeats, and the repeats and time of the same draw
with two fixed seats (stałe miejsca), then seeded by strength (rozstawienie, a third of the field
without a rating). ``BENCH_MAX_PLAYERS``
(all) keeps only the instances of at most that many players (a tiny run, tests/bench:
``BENCH_MAX_PLAYERS=20``).
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.draw import DrawPlayer, FixedSeat, SeriesDraw, count_repeats, draw_tournament, repeat_lower_bound
from league.draw.model import seat_balance

SEED = 2026


def roster(teams: int, individuals: int, members: int = 4) -> list[DrawPlayer]:
    """``teams`` teams of ``members``, then ``individuals`` players without a team."""
    players = [DrawPlayer(f"t{t}p{k}", f"t{t}") for t in range(teams) for k in range(members)]
    return players + [DrawPlayer(f"i{k}", None) for k in range(individuals)]


def naive(players: list[DrawPlayer], series: int, seed: int, size: int) -> list[SeriesDraw]:
    """Shuffle each series independently until no teammates share a table."""
    rng = random.Random(seed)
    out = []
    byes_left = [p.id for p in players]
    rng.shuffle(byes_left)
    per_series = len(players) % size
    for _ in range(series):
        byes = [byes_left.pop() for _ in range(per_series)]
        playing = [p for p in players if p.id not in byes]
        while True:
            rng.shuffle(playing)
            tables = [playing[k : k + size] for k in range(0, len(playing), size)]
            if all(len({p.team for p in t if p.team}) == sum(p.team is not None for p in t) for t in tables):
                break
        out.append(SeriesDraw([tuple(p.id for p in t) for t in tables], byes))
    return out


# (name, players, series, players at a table)
INSTANCES = [
    ("16: 4 teams", roster(4, 0), 4, 4),
    ("40: 8 teams + 8 ind.", roster(8, 8), 4, 4),
    ("101: 25 teams + 1 ind.", roster(25, 1), 4, 4),
    ("256: 64 teams", roster(64, 0), 5, 4),
    ("400: 100 teams", roster(100, 0), 5, 4),
    ("20: 5 teams (tight)", roster(5, 0), 6, 4),
    ("40: 13 teams of 3 + 1 ind., by 3", roster(13, 1, members=3), 4, 3),
    ("15: 5 teams of 3, by 3 (tight)", roster(5, 0, members=3), 6, 3),
]


def main() -> None:
    header = (
        f"{'instance':33} {'S':>2} {'repeats':>7} {'bound':>5} {'max m':>5} {'seat':>4} {'time s':>7} | "
        f"{'naive rep':>9} {'naive s':>7} | {'fixed rep':>9} {'fixed s':>7} | {'seeded rep':>10} {'seeded s':>8}"
    )
    print(header)
    print("-" * len(header))
    largest = int(os.environ.get("BENCH_MAX_PLAYERS", "0")) or max(len(players) for _, players, _, _ in INSTANCES)
    for name, players, series, size in INSTANCES:
        if len(players) > largest:
            continue
        start = time.perf_counter()
        result = draw_tournament(players, series, SEED, table_size=size)
        ours = time.perf_counter() - start
        # The same draw with two fixed seats (stałe miejsca): the first player at table 1, the last at seat A of 2.
        kept = [FixedSeat(players[0].id, 1), FixedSeat(players[-1].id, 2, seat=0)]
        start = time.perf_counter()
        fixed = draw_tournament(players, series, SEED, table_size=size, fixed_seats=kept)
        fixed_time = time.perf_counter() - start
        rng = random.Random(SEED)
        strengths = {p.id: rng.gauss(1000, 150) for p in players if rng.random() < 2 / 3}
        start = time.perf_counter()
        seeded = draw_tournament(players, series, SEED, table_size=size, strengths=strengths)
        seeded_time = time.perf_counter() - start
        start = time.perf_counter()
        baseline = naive(players, series, SEED, size)
        theirs = time.perf_counter() - start
        print(
            f"{name:33} {series:>2} {result.repeats:>7} {repeat_lower_bound(players, series, size):>5} "
            f"{result.max_meetings:>5} {seat_balance(result.series):>4} {ours:>7.3f} | "
            f"{count_repeats(baseline):>9} {theirs:>7.3f} | {fixed.repeats:>9} {fixed_time:>7.3f} | "
            f"{seeded.repeats:>10} {seeded_time:>8.3f}"
        )


if __name__ == "__main__":
    main()
