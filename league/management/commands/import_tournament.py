"""``manage.py import_tournament FILE.json``: read an exchange file (docs/interfaces.md §4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from league.exchange import ExchangeError, import_tournament, parse_exchange_file

# The largest tournament the bounds allow (512 players, 12 series of 96 deals at
# every table) exports to about 38 MiB; a file is never read beyond this.
MAX_BYTES = 64 * 2**20


class Command(BaseCommand):
    help = "Import a tournament from an exchange file; an invalid file changes nothing."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path, help="the exchange file (JSON, format baska-league/1)")

    def handle(self, *args: Any, file: Path, **options: Any) -> None:
        try:
            with file.open("rb") as content:
                data = parse_exchange_file(content, max_bytes=MAX_BYTES)
        except OSError as err:
            raise CommandError(f"{file}: cannot be read: {err}") from err
        except ExchangeError as err:
            raise CommandError(f"{file}: {err}") from err
        try:
            tournament = import_tournament(data)
        except ExchangeError as err:
            raise CommandError(str(err)) from err
        self.stdout.write(f"Imported {tournament.name} ({tournament.slug}).")
