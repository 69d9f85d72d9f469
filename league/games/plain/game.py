"""The plain-rows base a simple game extends (gra na same liczby: a game of rows of numbers).

A **plain row** is one integer per seat, as the table writes it on paper, summing to zero (or
whatever the game's one rule of a row says, :meth:`PlainRowsGame.values_check`); the protocol
adds them up row by row (``scoring.rows``). Everything a room asks of a game is answered here
from that: the row form and the referee's, correction and phone pages (``league.games.plain.pages``),
the row in words, the public and printed sheets (a grid of values and running totals), the
exchange file's rows (as stored: ``{"values": {...}}``), and the standings' rules (a preset's
places, byes and tie-breaks). A game built on it names itself (``key``, ``label``,
``form_heading``) and overrides what is its own; its optional capabilities stay those of
:class:`~league.games.base.GameRules` (its own phone script, shorthand, printed sheet, progress).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

import scoring
from league.exchange.format import INVALID_INPUT, ExchangeError
from league.games.base import DEAL_WORDS, GameRules, GameTemplates, SheetRows
from league.games.labels import scoring_error_message
from league.games.plain import pages
from league.games.plain.settings import PlainSettings
from league.printing.documents import ProtocolLine, blank_lines, row_grid
from league.results.selectors import protocol_sheet, rows_sheet, sheet_totals
from league.templatetags.points import signed
from scoring.fields import join, read_str
from scoring.rows import RowsResult, score_rows, zero_sum

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from league.models import Tournament
    from league.results.models import DealRow, Protocol
    from league.results.table.scorer import Scorer
    from league.tournaments.forms import TournamentForm

# The printed grid in mm: the row's number (wide enough for "Result"), then each seat's value and running total
# (184 mm of A4's 186).
COLUMNS_MM = (16, *(21, 21) * len(scoring.SEATS))
_TOTALS = frozenset(range(1, len(COLUMNS_MM) - 1, 2))  # of the grid's cells after the number: the totals


class PlainRowsGame(GameRules):
    """A game whose protocol is plain rows, four at a table (the seats every protocol stores), as
    many rows per series as the tournament's ``deals_per_series`` says."""

    table_sizes = (4,)
    tournament_fields = ("deals_per_series",)
    tournament_fields_required = True
    rules_fields = ("deals_per_series",)
    settings_class = PlainSettings
    # The preset whose places, byes and tie-breaks the standings rank by (big points 5-3-2-1 for
    # the places at a table); the exchange file, which names a ruleset for every tournament, names it.
    standing_preset = "gorzow"
    words = DEAL_WORDS
    templates = GameTemplates(
        entry="games/plain/_entry.html",
        public_table="games/plain/_public_table.html",
        print_protocol="games/plain/print_sheet.html",
        print_buttons="games/plain/_print_buttons.html",
        rules_line="games/plain/_rules_line.html",
        series_key="games/plain/_series_key.html",
        progress="games/plain/_progress.html",
        hall_median="games/plain/_hall_median.html",
    )

    def values_check(self, values: Mapping[str, int], path: str) -> None:
        """The game's one rule of a row's values (``ScoringError`` naming ``path``): they sum to zero."""
        zero_sum(values, path)

    # --- the table and its protocol ---

    def row_limit(self, tournament: Tournament) -> int:
        return self.settings(tournament).deals_per_series

    def standing_rules(self, tournament: Tournament) -> scoring.Ruleset:
        return scoring.load_ruleset(self.standing_preset)

    def tournament_clean(self, *, form: TournamentForm, cleaned: dict[str, Any]) -> None:
        """Four at a table."""
        if cleaned.get("table_size", form.instance.table_size) not in self.table_sizes:
            form.add_error("table_size", _("%(game)s is played by four at a table.") % {"game": self.label})

    def score(self, *, protocol: Protocol, entries: list[dict[str, Any]]) -> RowsResult:
        return score_rows(entries, protocol.series.tournament.seats, self.values_check)

    def describe(self, entry: Mapping[str, Any] | None, names: Mapping[str, str] | None = None) -> str | None:
        """The values by seat, as the paper has them: "A +3 · B −3 · C 0 · D 0"."""
        if not entry:
            return None
        return " · ".join(f"{seat} {signed(value)}" for seat, value in entry["values"].items())

    # --- pages ---

    def referee_page(self, request: HttpRequest, protocol: Protocol, **forms: Any) -> HttpResponse:
        return pages.referee_page(request, protocol, game=self, **forms)

    def referee_entry(self, request: HttpRequest, protocol: Protocol) -> HttpResponse:
        return pages.referee_entry(request, protocol, game=self)

    def referee_correction(self, request: HttpRequest, protocol: Protocol, row: DealRow) -> HttpResponse:
        return pages.referee_correction(request, protocol, row, game=self)

    def phone_page(self, request: HttpRequest, scorer: Scorer, status: int = 200, **context: Any) -> HttpResponse:
        return pages.phone_page(request, scorer, status, game=self, **context)

    def phone_entry(self, request: HttpRequest, scorer: Scorer, step: str, **kwargs: Any) -> HttpResponse:
        steps = {
            "edit": pages.phone_edit,
            "save": pages.phone_save,
            "preview": pages.phone_preview,
            "delete": pages.phone_delete,
        }
        return steps[step](request, scorer, game=self, **kwargs)

    def public_table_context(self, *, protocol: Protocol, names: Mapping[str, str]) -> dict[str, Any]:
        return {"rows": protocol_sheet(protocol=protocol)}

    def print_layout(self, *, tournament: Tournament) -> tuple[str, dict[str, Any]]:
        return _("Table protocol"), {
            "seats": tournament.seats,
            "columns": COLUMNS_MM,
            "blank_row_grid": row_grid(COLUMNS_MM[1:], shaded=_TOTALS, thick=_TOTALS),
        }

    def print_rows(self, *, tournament: Tournament) -> SheetRows:
        def rows(protocol: Protocol | None, names: Mapping[str, str]) -> dict[str, Any]:
            if protocol is None:
                return {"lines": blank_lines(self.row_limit(tournament)), "totals": [None] * len(tournament.seats)}
            sheet = rows_sheet(protocol.rows.all())
            lines = [
                ProtocolLine(row.number, cells=[(value, total) for _s, value, total in row.cells]) for row in sheet
            ]
            totals = sheet_totals(sheet)
            return {"lines": lines, "totals": [totals[seat] for seat in tournament.seats]}

        return rows

    # --- the exchange file: the game named, each table's rows as stored ---

    def export_settings(self, tournament: Tournament) -> dict[str, Any]:
        return {"ruleset": self.standing_preset, **self.settings(tournament).exchange(), "game": self.key}

    def import_settings(self, data: Mapping[str, Any], path: str) -> dict[str, Any]:
        read_str(data["ruleset"], join(path, "ruleset"), INVALID_INPUT, choices=scoring.PRESETS)
        return {"game_settings": self.settings_class.from_exchange(data, path).stored()}

    def import_rows(
        self, *, tournament: Tournament, entries: Any, path: str, protocol_fields: Mapping[str, Any]
    ) -> RowsResult:
        limit = self.row_limit(tournament)
        if isinstance(entries, list) and len(entries) > limit:
            message = _("the tournament has %(limit)s deals per series, and a table plays no more") % {"limit": limit}
            raise ExchangeError(join(join(path, "deals"), limit), message)
        try:
            return score_rows(entries, tournament.seats, self.values_check)
        except scoring.ScoringError as err:
            raise ExchangeError(join(path, err.path) if err.path else path, scoring_error_message(err)) from err
