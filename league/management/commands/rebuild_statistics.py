"""``manage.py rebuild_statistics``: tally every player's deals again, tournament by tournament.

The standings' recompute task keeps the tallies (``league.standings.statistics``) as results
change; this rebuilds all of them from the deals, for a cache that was emptied (a Redis
restarted) or after an upgrade that counts something new, so no player waits for theirs.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from league.models import Tournament
from league.standings.cache import stamps
from league.standings.statistics import statistics_refresh


class Command(BaseCommand):
    help = "Tally every player's deals in every published tournament again, from the deals."

    def handle(self, *args: Any, **options: Any) -> None:
        tournaments = Tournament.objects.filter(published=True).order_by("date", "pk")
        current = stamps(tournaments)
        for tournament in tournaments.iterator():
            statistics_refresh(tournament, current[tournament.pk])
        self.stdout.write(f"{len(current)} tournaments tallied.")
