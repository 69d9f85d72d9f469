"""``manage.py rebuild_ratings``: every rating again, from the first series ever closed.

The standings' recompute task keeps the ratings as results change (``league.rating.services``);
this rewrites all of them, for an upgrade that changes how they are computed or to check the
rows against the deals: the same history gives the same ratings.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from league.rating.services import ratings_recompute


class Command(BaseCommand):
    help = "Rewrite every player's rating from every closed series, in time order."

    def handle(self, *args: Any, **options: Any) -> None:
        count = ratings_recompute()
        self.stdout.write(f"{count} ratings after a series written.")
