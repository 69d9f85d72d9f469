"""``manage.py rebuild_ratings``: every rating again, from the first series ever closed.

The standings' recompute task keeps the ratings as results change (``league.rating.services``);
this rewrites all of them, for an upgrade that changes how they are computed or to check the
rows against the deals: the same history gives the same ratings. ``--stale`` rates again only from
the first tournament whose matches the ratings have not read (an installation upgraded to the
rating, docker/entrypoint.sh): a few milliseconds a tournament when nothing changed.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from league.models import Tournament
from league.rating.services import ratings_recompute, ratings_refresh


class Command(BaseCommand):
    help = "Rewrite every player's rating from every closed series, in time order."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--stale", action="store_true", help="Only from the first tournament not yet rated.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["stale"]:
            # in time order: the first stale tournament rates everything after it, so the rest find
            # their matches read and write nothing
            days = Tournament.objects.order_by("date", "pk").values_list("pk", flat=True)
            rated = sum(ratings_refresh(tournament_id=pk) for pk in days)
            self.stdout.write(f"{rated} tournaments rated again.")
            return
        count = ratings_recompute()
        self.stdout.write(f"{count} ratings after a series written.")
