"""``manage.py rebuild_statistics``: every player's kept results and deal statistics again, from the deals.

The standings' recompute task keeps each tournament's players' results
(``league.standings.summaries``: place, points, series, places after each series, deal
tallies) as results change; this rewrites all of them, tournament by tournament, and drops
those of tournaments no longer published. Run it once after an upgrade that adds or changes
what the rows keep, or whenever the rows should be checked against the deals.

``--stale`` rewrites only the tournaments whose rows are missing or behind their standings'
stamp: the Docker image's entrypoint runs it after ``migrate``, so an upgrade that brings the
rows fills them before the first visitor, and a restart costs one stamp read per tournament.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from league.standings.summaries import player_results_rebuild


class Command(BaseCommand):
    help = "Rewrite every player's results and deal statistics in every published tournament, from the deals."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--stale",
            action="store_true",
            help="Only the tournaments whose results are missing or behind their standings.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["stale"]:
            count = player_results_rebuild(stale_only=True)
            self.stdout.write(f"{count} tournaments' results checked.")
        else:
            count = player_results_rebuild()
            self.stdout.write(f"{count} tournaments' results rebuilt.")
