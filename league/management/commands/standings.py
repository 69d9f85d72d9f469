"""``manage.py standings SLUG [--json]``: the tournament's standing tables (docs/interfaces.md §4).

The JSON adds an optional ``penalties`` list (the referee's penalties the tables count) when there are any.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand

from league.exchange import file_standings
from league.exchange.standings import file_penalties

from .export_tournament import tournament_by_slug

TITLES = {"individual": "Individual", "women": "Women", "men": "Men", "teams": "Teams"}


class Command(BaseCommand):
    help = "Print a tournament's individual, women's, men's and team standings."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug", help="the tournament's short name for addresses")
        parser.add_argument("--json", action="store_true", help="print the JSON of docs/interfaces.md §4")

    def handle(self, *args: Any, slug: str, **options: Any) -> None:
        tournament = tournament_by_slug(slug)
        standings = file_standings(tournament)
        if options["json"]:
            penalties = file_penalties(tournament)
            printed = {**standings, "penalties": penalties} if penalties else standings
            self.stdout.write(json.dumps(printed, ensure_ascii=False, indent=2))
            return
        for key, rows in standings.items():
            self.stdout.write(f"\n{TITLES[key]}")
            for row in rows:
                place, name = f"{row['place']}.", row["name"]
                self.stdout.write(f"{place:>5} {name:<32} {row['big_points']:>7} {row['small_points']:>7}")
