"""``manage.py import_tournament FILE.json``: read an exchange file (docs/interfaces.md §4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from league.exchange import ExchangeError, import_tournament


class Command(BaseCommand):
    help = "Import a tournament from an exchange file; an invalid file changes nothing."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path, help="the exchange file (JSON, format baska-league/1)")

    def handle(self, *args: Any, file: Path, **options: Any) -> None:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as err:
            raise CommandError(f"{file}: cannot be read: {err}") from err
        except json.JSONDecodeError as err:
            raise CommandError(f"{file}: not valid JSON: {err}") from err
        except RecursionError as err:
            raise CommandError(f"{file}: nested too deeply to be an exchange file") from err
        try:
            tournament = import_tournament(data)
        except ExchangeError as err:
            raise CommandError(str(err)) from err
        self.stdout.write(f"Imported {tournament.name} ({tournament.slug}).")
