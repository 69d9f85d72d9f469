"""Does the rating find who is strong? A simulation with hidden skills, by the pure computation
alone (``league.rating.compute``, no database).

Run: ``.venv/bin/python bench/rating_simulation.py`` (tiny: ``BENCH_TOURNAMENTS=5``).

Every player has a hidden skill (normal, spread 1). At a table of four each player's play of the
series is their skill plus luck (normal, spread ``LUCK``); the places go by it, and the small
points are zero-sum at the table (each player's play less the table's mean, times ten, rounded,
the rounding's remainder to the last). A tournament is ``SERIES`` series, each drawn at random.

- **everyone meets**: ``PLAYERS`` players all play every tournament;
- **two leagues**: two leagues of ``PLAYERS / 2`` whose skills differ by ``GAP`` on average play
  their own tournaments, and meet at one joint tournament in five.

After ``BENCH_TOURNAMENTS`` (20) tournaments it prints, per scenario, the Spearman rank
correlation with the hidden skill of the displayed rating and of each player's average small
points per series; the mean over ``BENCH_RUNS`` (10) seeded runs, and the least.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from statistics import fmean

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.rating.compute import Sitting, Table, displayed, rate_history

TOURNAMENTS = int(os.environ.get("BENCH_TOURNAMENTS", "20"))
RUNS = int(os.environ.get("BENCH_RUNS", "10"))
PLAYERS, SERIES, LUCK, GAP, JOINT_EVERY = 48, 3, 1.0, 1.5, 5


def ranks(values: list[float]) -> list[float]:
    """Each value's rank (1 the least), ties sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    found = [0.0] * len(values)
    at = 0
    while at < len(order):
        end = at
        while end + 1 < len(order) and values[order[end + 1]] == values[order[at]]:
            end += 1
        for k in range(at, end + 1):
            found[order[k]] = (at + end) / 2 + 1
        at = end + 1
    return found


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    ma, mb = fmean(ra), fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    var = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return cov / var


def table_points(players: list[int], skill: dict[int, float], rng: random.Random) -> tuple[tuple[int, int], ...]:
    play = {p: skill[p] + rng.gauss(0, LUCK) for p in players}
    mean = fmean(play.values())
    points = {p: round(10 * (play[p] - mean)) for p in players}
    points[players[-1]] -= sum(points.values())  # zero-sum at the table
    return tuple(points.items())


def tournament(key: int, field: list[int], skill: dict[int, float], rng: random.Random) -> list[Sitting]:
    sittings = []
    for number in range(SERIES):
        seated = rng.sample(field, len(field))
        tables = tuple(
            Table(t + 1, table_points(seated[4 * t : 4 * t + 4], skill, rng)) for t in range(len(seated) // 4)
        )
        sittings.append(Sitting((key, number), "baska", tables))
    return sittings


def scenario(two_leagues: bool, seed: int) -> tuple[float, float]:
    """The rating's and the average's rank correlation with the hidden skill after the tournaments."""
    rng = random.Random(seed)
    half = PLAYERS // 2
    skill = {
        p: rng.gauss(GAP / 2 if two_leagues and p < half else -GAP / 2 if two_leagues else 0, 1) for p in range(PLAYERS)
    }
    leagues = [list(range(half)), list(range(half, PLAYERS))]
    history: list[Sitting] = []
    for number in range(TOURNAMENTS):
        if not two_leagues or (number + 1) % JOINT_EVERY == 0:
            history += tournament(len(history), list(range(PLAYERS)), skill, rng)
        else:  # each league its own tournament, the same week
            for league in leagues:
                history += tournament(len(history), league, skill, rng)
    _, skills = rate_history(history)
    totals: dict[int, list[int]] = {p: [] for p in range(PLAYERS)}
    for sitting in history:
        for table in sitting.tables:
            for person, points in table.points:
                totals[person].append(points)
    people = list(range(PLAYERS))
    hidden = [skill[p] for p in people]
    rating = [displayed(skills["baska", p].mu, skills["baska", p].sigma) for p in people]
    average = [fmean(totals[p]) for p in people]
    return spearman(rating, hidden), spearman(average, hidden)


def main() -> None:
    print(f"{PLAYERS} players, {TOURNAMENTS} tournaments of {SERIES} series at tables of four, luck spread {LUCK}")
    print(f"{'scenario':<40}{'rating':>10}{'average':>10}{'rating min':>12}{'average min':>12}{'rating wins':>12}")
    for name, two in (("everyone meets", False), (f"two leagues {GAP} apart, joint every {JOINT_EVERY}th", True)):
        found = [scenario(two, seed) for seed in range(RUNS)]
        rating, average = [r for r, _ in found], [a for _, a in found]
        wins = sum(r > a for r, a in found)
        print(
            f"{name:<40}{fmean(rating):>10.3f}{fmean(average):>10.3f}{min(rating):>12.3f}{min(average):>12.3f}"
            f"{wins:>9}/{RUNS}"
        )
    print("(Spearman rank correlation with the hidden skill; the mean over the runs, and the least)")


if __name__ == "__main__":
    main()
