"""Benchmark of printing: a 256-player tournament (64 tables, 5 series × 40 deals).

Run: ``.venv/bin/python bench/printing.py``. It builds the tournament in a
temporary SQLite database, then times the batch job that prints the 64 protocols
of one series (goal < 15 s), the same with the entered deals filled in (the
archive copy), and the results sheets with the standings computed (goal < 5 s).
The goals are for the full size; ``BENCH_TABLES`` (64, 4 players each),
``BENCH_SERIES`` (5) and ``BENCH_DEALS`` (40) make it smaller. A tiny run
(tests/bench): ``BENCH_TABLES=2 BENCH_SERIES=1 BENCH_DEALS=4``.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

WORKDIR = Path(tempfile.mkdtemp(prefix="baska-bench-printing-"))
os.environ["DATABASE_URL"] = f"sqlite:///{WORKDIR / 'bench.sqlite3'}"
os.environ["DJANGO_MEDIA_ROOT"] = str(WORKDIR / "media")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
os.environ.pop("CELERY_BROKER_URL", None)  # the task runs in this process
os.environ.pop("CACHE_URL", None)  # the standings are computed here, not read from a shared cache

import django

django.setup()

from django.core.management import call_command

from league.games.baska.settings import BaskaSettings
from league.models import Registration, Series, TableAssignment, Tournament
from league.printing import documents
from league.printing.models import PrintJob
from league.printing.tasks import print_series_protocols
from league.results.models import DealRow, Protocol
from league.standings.cache import tournament_rankings
from players.models import Club, Gender, Player, Team, TeamMember

SEED = 2026
TEAMS = int(os.environ.get("BENCH_TABLES", "64"))  # a team of four per table
SERIES = int(os.environ.get("BENCH_SERIES", "5"))
DEALS = int(os.environ.get("BENCH_DEALS", "40"))
FIRST_NAMES = ["Żaneta", "Łucja", "Grzegorz", "Józef", "Małgorzata", "Ścibor", "Agnieszka", "Kazimierz"]
LAST_NAMES = ["Wójcik-Łęcka", "Kościerski", "Szczęsny", "Gdański", "Żmuda", "Ślęzak", "Bączek", "Ćwikła"]


def build() -> Tournament:
    """Players, teams, the draw of every series and 40 entered deals per table, in bulk."""
    rng = random.Random(SEED)
    tournament = Tournament.objects.create(
        name="Mistrzostwa Kaszub w Baśce",
        slug="mistrzostwa-kaszub",
        date=date(2026, 6, 20),
        venue="Kościerzyna",
        organiser_name="Kaszubski Klub Baśki „Gdańsk”",
        series_count=SERIES,
        game="baska",
        game_settings=BaskaSettings(ruleset_preset="puck", deals_per_series=DEALS).stored(),
    )
    clubs = Club.objects.bulk_create(Club(name=f"Klub Baśki nr {k}", city="Gdańsk") for k in range(16))
    players = Player.objects.bulk_create(
        Player(
            first_name=FIRST_NAMES[k % 8],
            last_name=f"{LAST_NAMES[(k // 8) % 8]} {k}",
            gender=Gender.WOMAN if k % 3 == 0 else Gender.MAN,
            club=clubs[k % 16],
        )
        for k in range(TEAMS * 4)
    )
    teams = Team.objects.bulk_create(Team(name=f"Drużyna Zażółć {t}", club=clubs[t % 16]) for t in range(TEAMS))
    TeamMember.objects.bulk_create(TeamMember(team=teams[k // 4], player=p) for k, p in enumerate(players))
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, team=teams[k // 4], checked_in=True)
        for k, p in enumerate(players)
    )
    for number in range(1, SERIES + 1):
        series = Series.objects.create(
            tournament=tournament,
            number=number,
            status=Series.Status.CLOSED,
            seed=rng.getrandbits(48),
            algorithm="bench",
            results_entered=True,
        )
        # Team-mates k, k+1, k+2, k+3 sit at four different tables (teams spread with a stride).
        order = sorted(range(len(players)), key=lambda k: (k % 4, k // 4))
        rng.shuffle(order)
        TableAssignment.objects.bulk_create(
            TableAssignment(series=series, table=i // 4 + 1, seat="ABCD"[i % 4], player=players[k])
            for i, k in enumerate(order)
        )
        protocols = Protocol.objects.bulk_create(Protocol(series=series, table=t) for t in range(1, TEAMS + 1))
        rows = []
        for protocol in protocols:
            for deal in range(1, DEALS + 1):
                old = rng.choice("ABCD")
                stake = rng.choice([1, 2, 3, 4, 6, 8])
                values = {seat: (3 * stake if seat == old else -stake) for seat in "ABCD"}
                if rng.random() < 0.5:
                    values = {seat: -value for seat, value in values.items()}
                rows.append(
                    DealRow(
                        protocol=protocol,
                        number=deal,
                        deal={"contract": "zolo", "values": values},
                        value_a=values["A"],
                        value_b=values["B"],
                        value_c=values["C"],
                        value_d=values["D"],
                    )
                )
        DealRow.objects.bulk_create(rows)
    return tournament


def timed(label: str, goal: float, work: Callable[[], str]) -> None:
    """Wall time against the goal, and the CPU time beside it: on a shared machine
    the wall time also counts other processes' turns."""
    start, start_cpu = time.perf_counter(), time.process_time()
    detail = work()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    verdict = "ok" if elapsed < goal else "SLOW"
    print(f"{label:44} {elapsed:6.2f} s wall, {cpu:6.2f} s CPU  (goal < {goal:.0f} s: {verdict})  {detail}")


def main() -> None:
    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    tournament = build()
    print(
        f"built {TEAMS * 4} players, {SERIES} series × {TEAMS} tables × {DEALS} deals "
        f"in {time.perf_counter() - start:.1f} s"
    )
    series = tournament.series.get(number=1)

    def batch(kind: str):
        def run() -> str:
            job = PrintJob.objects.create(series=series, kind=kind)
            print_series_protocols(job.pk, "https://liga.example.org/")
            job.refresh_from_db()
            assert job.status == PrintJob.Status.DONE, job.error
            return f"{job.progress}/{job.total} tables, {job.file.size / 1e6:.1f} MB"

        return run

    def results() -> str:
        tournament.publish_women = tournament.publish_men = True
        # as the results view does: the public lists, after the published series
        standings = tournament_rankings(tournament)
        context = documents.results_context(tournament, standings, series=documents.published_series_count(tournament))
        content = documents.render_pdf("printing/results.html", context)
        return f"{len(content) / 1e3:.0f} kB"

    # the first batch of a worker also starts its layout processes; later ones find them ready
    timed(f"{TEAMS} protocols of a series (to play with), first", 15, batch(PrintJob.Kind.PROTOCOLS))
    timed(f"{TEAMS} protocols of a series (to play with), again", 15, batch(PrintJob.Kind.PROTOCOLS))
    timed(f"{TEAMS} protocols of a series (archive, filled)", 15, batch(PrintJob.Kind.ARCHIVE))
    timed(f"results sheets (4 rankings, {TEAMS * 4} players)", 5, results)
    print(f"files in {WORKDIR}")


if __name__ == "__main__":
    main()
