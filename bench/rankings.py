"""Benchmark of the standings: one tournament (goal < 0.5 s), a season (goal < 3 s)
and the queries of the standings page.

Run: ``.venv/bin/python bench/rankings.py``. It builds a throwaway SQLite
database ``bench-rankings.sqlite3`` in ``$BASKA_VAR_DIR`` (default
/tmp/bench-rankings; never the database ``DATABASE_URL`` names), with this
process's own memory cache: 4 × ``BENCH_TEAMS`` (64) players in teams of four,
a season of ``BENCH_TOURNAMENTS`` (10) tournaments of ``BENCH_SERIES`` (5)
series × ``BENCH_DEALS`` (40) deals, rows written with bulk_create. Timings are
cold (cache cleared) computations. A tiny run (tests/bench):
``BENCH_TEAMS=4 BENCH_TOURNAMENTS=2 BENCH_SERIES=2 BENCH_DEALS=4``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
VAR_DIR = Path(os.environ.setdefault("BASKA_VAR_DIR", "/tmp/bench-rankings"))
DATABASE = VAR_DIR / "bench-rankings.sqlite3"  # never the database the shell points at
DATABASE.unlink(missing_ok=True)
VAR_DIR.mkdir(parents=True, exist_ok=True)
os.environ["DATABASE_URL"] = f"sqlite:///{DATABASE}"
os.environ.pop("CACHE_URL", None)  # the cache it clears is its own
os.environ.pop("CELERY_BROKER_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django

django.setup()

import filler
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import include, path

from league.games.baska.settings import BaskaSettings
from league.models import Registration, Season, Series, Tournament
from league.results.models import DealRow
from league.standings.cache import season_rankings, tournament_rankings
from league.urls import urlpatterns as project_urls
from players.models import Gender, Player, Team, TeamMember

SEED = 2026
TEAM_SIZE = 4
TEAMS = int(os.environ.get("BENCH_TEAMS", "64"))
TOURNAMENTS = int(os.environ.get("BENCH_TOURNAMENTS", "10"))
SERIES = int(os.environ.get("BENCH_SERIES", "5"))
DEALS = int(os.environ.get("BENCH_DEALS", "40"))
urlpatterns = [*project_urls, path("", include("league.public.urls"))]


def build() -> Season:
    rng = random.Random(SEED)
    call_command("migrate", verbosity=0)
    players = Player.objects.bulk_create(
        Player(first_name=f"Imię{i}", last_name=f"Nazwisko{i}", gender=rng.choice(Gender.values))
        for i in range(TEAMS * TEAM_SIZE)
    )
    teams = Team.objects.bulk_create(Team(name=f"Drużyna {t}") for t in range(TEAMS))
    TeamMember.objects.bulk_create(
        TeamMember(team=teams[i // TEAM_SIZE], player=p, team_active=True) for i, p in enumerate(players)
    )
    season = Season.objects.create(name="Liga", slug="liga", year=2026, best_of=7)
    for n in range(TOURNAMENTS):
        tournament = Tournament.objects.create(
            name=f"Turniej {n}",
            slug=f"turniej-{n}",
            date=date(2026, 1, 1) + timedelta(weeks=n),
            season=season,
            series_count=SERIES,
            game="baska",
            game_settings=BaskaSettings(ruleset_preset="puck", deals_per_series=DEALS).stored(),
            draw_published=True,
        )
        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=p, team=teams[i // TEAM_SIZE], checked_in=True)
            for i, p in enumerate(players)
        )
        for number in range(1, SERIES + 1):
            series = Series.objects.create(tournament=tournament, number=number, status=Series.Status.CLOSED)
            filler.seat_and_fill(series, players, rng, deals=DEALS, played=True)
    return season


def timed(label: str, goal: float, action) -> None:
    cache.clear()
    start = time.perf_counter()
    action()
    elapsed = time.perf_counter() - start
    print(f"{label:<42} {elapsed:7.3f} s   (goal < {goal} s)")


@override_settings(ROOT_URLCONF=__name__)
def page_queries(slug: str) -> tuple[int, int]:
    """Queries of the standings page, computing (cold) and from the cache (warm)."""
    client = Client()
    counts = []
    cache.clear()
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/t/{slug}/klasyfikacja/").status_code == 200
        counts.append(len(queries))
    return counts[0], counts[1]


def main() -> None:
    start = time.perf_counter()
    season = build()
    print(f"built {DealRow.objects.count()} deal rows in {time.perf_counter() - start:.1f} s")
    tournament = Tournament.objects.get(slug="turniej-0")
    timed(f"one tournament's standings ({TEAMS * TEAM_SIZE} players)", 0.5, lambda: tournament_rankings(tournament))
    timed(f"season of {TOURNAMENTS} tournaments, best {season.best_of}", 3, lambda: season_rankings(season))
    cold, warm = page_queries(tournament.slug)
    print(f"queries per standings page: {cold} computing, {warm} from the cache")


if __name__ == "__main__":
    main()
