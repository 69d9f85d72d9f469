"""``manage.py export_tournament SLUG``: the exchange file (docs/interfaces.md §4) on standard output."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from league.exchange import exchange_file_text
from league.models import Tournament


def tournament_by_slug(slug: str) -> Tournament:
    """The tournament, or a CommandError naming the slug."""
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist as err:
        raise CommandError(f"No tournament with the slug {slug!r}.") from err


class Command(BaseCommand):
    help = "Write a tournament as an exchange file (JSON) to standard output."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug", help="the tournament's short name for addresses")

    def handle(self, *args: Any, slug: str, **options: Any) -> None:
        self.stdout.write(exchange_file_text(tournament_by_slug(slug)), ending="")
