"""Benchmark of the table draw against a naive baseline (docs/draw.md, "Figures").

Run: ``.venv/bin/python bench/draw.py``.  For each instance it prints the
repeated pairs, the highest meeting count, seat balance (most times any
player sits at the same letter) and the time of our draw, the repeats and time
of the naive baseline, and the counting lower bound on repeats.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.draw import DrawPlayer, SeriesDraw, count_repeats, draw_tournament, repeat_lower_bound
from league.draw.model import seat_balance

SEED = 2026


def roster(teams: int, individuals: int) -> list[DrawPlayer]:
    """``teams`` teams of four, then ``individuals`` players without a team."""
    players = [DrawPlayer(f"t{t}p{k}", f"t{t}") for t in range(teams) for k in range(4)]
    return players + [DrawPlayer(f"i{k}", None) for k in range(individuals)]


def naive(players: list[DrawPlayer], series: int, seed: int) -> list[SeriesDraw]:
    """Shuffle each series independently until no teammates share a table."""
    rng = random.Random(seed)
    out = []
    byes_left = [p.id for p in players]
    rng.shuffle(byes_left)
    per_series = len(players) % 4
    for _ in range(series):
        byes = [byes_left.pop() for _ in range(per_series)]
        playing = [p for p in players if p.id not in byes]
        while True:
            rng.shuffle(playing)
            tables = [playing[k : k + 4] for k in range(0, len(playing), 4)]
            if all(len({p.team for p in t if p.team}) == sum(p.team is not None for p in t) for t in tables):
                break
        out.append(SeriesDraw([tuple(p.id for p in t) for t in tables], byes))
    return out


INSTANCES = [
    ("16: 4 teams", roster(4, 0), 4),
    ("40: 8 teams + 8 ind.", roster(8, 8), 4),
    ("101: 25 teams + 1 ind.", roster(25, 1), 4),
    ("256: 64 teams", roster(64, 0), 5),
    ("400: 100 teams", roster(100, 0), 5),
    ("20: 5 teams (tight)", roster(5, 0), 6),
]


def main() -> None:
    header = (
        f"{'instance':24} {'S':>2} {'repeats':>7} {'bound':>5} {'max m':>5} {'seat':>4} {'time s':>7} | "
        f"{'naive rep':>9} {'naive s':>7}"
    )
    print(header)
    print("-" * len(header))
    for name, players, series in INSTANCES:
        start = time.perf_counter()
        result = draw_tournament(players, series, SEED)
        ours = time.perf_counter() - start
        start = time.perf_counter()
        baseline = naive(players, series, SEED)
        theirs = time.perf_counter() - start
        print(
            f"{name:24} {series:>2} {result.repeats:>7} {repeat_lower_bound(players, series):>5} "
            f"{result.max_meetings:>5} {seat_balance(result.series):>4} {ours:>7.3f} | "
            f"{count_repeats(baseline):>9} {theirs:>7.3f}"
        )


if __name__ == "__main__":
    main()
