"""Preferans as the rooms ask for it: tables of four or three, each playing one **pulka** per
series (``scoring.preferans``); a protocol's rows are the pulka's entries, valued as their share of
the settled whists; the referee's and the phone's pulka pages, the printed pulka sheet and the
exchange file's ``game`` and ``pulka`` (docs/preferans.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import scoring
from league.exchange.format import INVALID_INPUT, ExchangeError
from league.games.base import (
    GameRecords,
    GameRules,
    GameTemplates,
    GameWords,
    RecordContract,
    SeatTally,
    SheetRows,
)
from league.games.choices import Game
from league.games.labels import pulka_contract_label, scoring_error_message
from league.games.preferans import calculator, phone, referee
from league.games.preferans.describe import PulkaEntryDescription, describe_pulka_entry
from league.games.preferans.printing import blank_pulka, filled_pulka, pulka_sheet_context
from league.games.preferans.pulka import PULKA_ROW_LIMIT, protocol_pulka, pulka_score, series_pulkas
from league.games.preferans.settings import PreferansSettings, preferans_settings, pulka_table_size
from league.results.selectors import table_players
from scoring import preferans
from scoring.fields import join, read_bool, read_list
from scoring.preferans.entry import CONTRACT_PATTERN

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse
    from django.urls import URLPattern

    from league.models import Series, Tournament
    from league.results.models import DealRow, Protocol
    from league.results.table.scorer import Scorer
    from league.tournaments.forms import TournamentForm


class Preferans(GameRules):
    key = Game.PREFERANS
    label = Game.PREFERANS.label
    table_sizes = preferans.TABLE_SIZES
    tournament_fields = ("pulka_variant", "pulka_total", "table_size")
    own_progress = True
    rules_named = True
    tools = (("pulka_calculator", gettext_lazy("Pulka settlement")),)
    form_heading = gettext_lazy("Preferans only")
    rules_fields = ("pulka_variant", "pulka_total")
    settings_class = PreferansSettings
    exchange_tournament_keys = ("pulka",)
    exchange_table_keys = ("pulka_closed",)
    exchange_places: ClassVar[Mapping[str, str]] = {"table_size": "pulka.table_size"}
    # the pulka and its columns: góra (the mountain), wisty (whists); the misère; the variants
    vocabulary = (
        r"pulk",
        r"\bg[oó]r(?:a|ę|y|ze|ą)\b",
        r"mountain",
        r"\bw(?:h)?ist",
        r"mizer|mis[eè]re",
        r"\bsochi\b|leningrad",
    )
    words = GameWords(
        small_points=gettext_lazy("Settled whists"),
        small_points_lower=gettext_lazy("settled whists"),
        small_points_unit=gettext_lazy("whists"),
        progress=gettext_lazy("Pulka"),
        progress_title=gettext_lazy("Series %(number)s: the pulkas filled at the tables"),
        rows=gettext_lazy("Entries"),
        totals_help=gettext_lazy("Type each player's total from the paper: the page checks them against the entries."),
        blank_sheet=gettext_lazy("Blank pulka sheet for a walk-in table"),
        time_up_note=gettext_lazy(
            "A pulka stopped is settled as if closed by agreement: each player writes the points still missing "
            "onto the mountain."
        ),
        badge=gettext_lazy("Preferans"),
        over=gettext_lazy("pulka full"),
        closed=gettext_lazy("pulka closed by agreement"),
        reopened=gettext_lazy("pulka opened again"),
    )
    templates = GameTemplates(
        entry="games/preferans/_entry.html",
        public_table="games/preferans/_public_table.html",
        print_protocol="games/preferans/print_sheet.html",
        print_buttons="games/preferans/_print_buttons.html",
        rules_line="games/preferans/_rules_line.html",
        series_key="games/preferans/_series_key.html",
        progress="games/preferans/_progress.html",
        hall_median="games/preferans/_hall_median.html",
    )

    def row_limit(self, tournament: Tournament) -> int:
        """A pulka ends when it is full, not by a count of deals: the most a series may hold."""
        return PULKA_ROW_LIMIT

    def settings(self, tournament: Tournament) -> PreferansSettings:
        return preferans_settings(tournament)

    def rules_name(self, tournament: Tournament) -> str:
        settings = self.settings(tournament)
        return _("Preferans, %(variant)s, pulka to %(total)s") % {
            "variant": settings.variant_label,
            "total": settings.pulka_total,
        }

    def standing_rules(self, tournament: Tournament) -> preferans.TournamentRules:
        return preferans.tournament_rules(self.settings(tournament).variant(), tournament.table_size)

    def tournament_clean(self, *, form: TournamentForm, cleaned: dict[str, Any]) -> None:
        """Preferans needs none of another game's settings (the form drops them, and the own rows of
        another game a tournament held: no own rules are locked for nothing)."""

    def score(self, *, protocol: Protocol, entries: list[dict[str, Any]]) -> preferans.TableScore:
        return pulka_score(protocol=protocol, entries=entries)

    def row_check(
        self, *, protocol: Protocol, number: int, deal: dict[str, Any], rows: Sequence[DealRow], by_table: bool
    ) -> None:
        if protocol.closed_by_agreement and number > len(rows) and "penalty" not in deal:
            raise ValidationError(
                _("The pulka was closed by agreement: no deal can be added. Open it again first."), code="pulka_closed"
            )
        if by_table and number < len(rows):
            # the pencil rule (docs/preferans.md): an entry is final once the next one is written
            raise PermissionDenied(
                _("Entry %(number)s is final: a later one was entered, so only the referee may correct it.")
                % {"number": number}
            )

    def completion_check(self, *, protocol: Protocol, entries: list[dict[str, Any]], ended_early: bool) -> None:
        played_out = pulka_score(protocol=protocol, entries=entries).sheet.finished
        if not (ended_early or protocol.closed_by_agreement or played_out):
            raise ValidationError(
                _(
                    "The pulka is not over yet: play it out or close it by agreement, "
                    "or mark the table as stopped by the time limit."
                ),
                code="incomplete",
            )

    def describe(
        self, entry: Mapping[str, Any] | None, names: Mapping[str, str] | None = None
    ) -> PulkaEntryDescription | None:
        return describe_pulka_entry(entry, names) if entry else None

    def seat_tally(self, *, entry: Mapping[str, Any], values: Mapping[str, int], seat: str) -> SeatTally | None:
        if "penalty" in entry:
            return None
        if entry.get("declarer") != seat:  # a pulka has no kontras: whists are the defenders' play
            return SeatTally()
        contract = entry["contract"]
        match = CONTRACT_PATTERN.match(contract)
        # the stored entry is valid (scoring checked it): made as scoring reads it
        deal = preferans.Deal(
            path="",
            contract=contract,
            level=int(match.group(1)) if match else None,
            declarer=seat,
            tricks=entry.get("tricks"),
            whisters=(),
            dealer="",
        )
        return SeatTally(contract=contract, made=deal.made)

    def contract_label(self, contract: str) -> str:
        return pulka_contract_label(contract)

    def records(self) -> GameRecords:
        """A series is one pulka at a table: the pulkas played, the best balance of one (its settled
        whists), and the contracts the declarer made, misères apart."""
        return GameRecords(
            best_series=gettext_lazy("Best pulka balance ever"),
            played=gettext_lazy("Most pulkas played"),
            played_counts_series=True,
            contracts=(
                RecordContract("made", gettext_lazy("Most contracts made")),
                RecordContract("misere", gettext_lazy("Most misères made"), frozenset({preferans.MISERE})),
            ),
        )

    def series_progress(self, *, series: Series, protocols: Sequence[Protocol]) -> dict[int, Any]:
        return series_pulkas(series=series, protocols=protocols)

    # --- pages ---

    def referee_page(self, request: HttpRequest, protocol: Protocol, **forms: Any) -> HttpResponse:
        seats = table_players(series=protocol.series, table=protocol.table)
        return referee.pulka_page(request, protocol, seats=seats, **forms)

    def referee_entry(self, request: HttpRequest, protocol: Protocol) -> HttpResponse:
        """A pulka's entries have their own forms: the protocol page itself takes none."""
        return self.referee_page(request, protocol)

    def referee_correction(self, request: HttpRequest, protocol: Protocol, row: DealRow) -> HttpResponse:
        return referee.pulka_correction(request, protocol, row)

    def referee_urls(self) -> list[URLPattern]:
        return referee.urls()

    def phone_page(self, request: HttpRequest, scorer: Scorer, status: int = 200, **context: Any) -> HttpResponse:
        return phone.phone_page(request, scorer, status, **context)

    def phone_entry(self, request: HttpRequest, scorer: Scorer, step: str, **kwargs: Any) -> HttpResponse:
        """The Baśka phone's deal forms answer with the pulka's page (a POST: 409, nothing stored)."""
        return phone.phone_page(request, scorer, status=409 if request.method == "POST" else 200)

    def phone_urls(self) -> list[URLPattern]:
        return phone.urls()

    def public_urls(self) -> list[URLPattern]:
        return [path("kalkulator/pulka/", calculator.pulka_calculator, name="pulka_calculator")]

    def public_table_context(self, *, protocol: Protocol, names: Mapping[str, str]) -> dict[str, Any]:
        return {"pulka": protocol_pulka(protocol=protocol), "names": dict(names)}

    def print_layout(self, *, tournament: Tournament) -> tuple[str, dict[str, Any]]:
        settings = self.settings(tournament)
        return _("Pulka sheet"), pulka_sheet_context(tournament, variant=settings.variant(), total=settings.pulka_total)

    def print_rows(self, *, tournament: Tournament) -> SheetRows:
        settings = self.settings(tournament)
        variant = settings.variant()

        def rows(protocol: Protocol | None, names: Mapping[str, str]) -> dict[str, Any]:
            titles = (_("Pulka sheet"), _("Pulka sheet: series %(series)s, table %(table)s"))
            if protocol is None:
                return {"lines": [], "totals": [], "paper": blank_pulka(), "titles": titles}
            pulka = filled_pulka(
                seats=tournament.seats,
                names=dict(names),
                variant=variant,
                total=settings.pulka_total,
                entries=[row.deal for row in protocol.rows.all()],
                closed=protocol.closed_by_agreement,
            )
            return {"lines": [], "totals": [], "paper": pulka, "titles": titles}

        return rows

    # --- the exchange file ---

    def export_settings(self, tournament: Tournament) -> dict[str, Any]:
        settings = self.settings(tournament)
        pulka = {"variant": settings.pulka_variant, "total": settings.pulka_total, "table_size": tournament.table_size}
        return {**settings.exchange(), "game": tournament.game, "pulka": pulka}

    def import_settings(self, data: Mapping[str, Any], path: str) -> dict[str, Any]:
        """The pulka's variant, the total each player plays to and the players at a table."""
        settings = PreferansSettings.from_exchange(data, path)
        return {"game_settings": settings.stored(), "table_size": pulka_table_size(data, path)}

    def export_table(self, *, protocol: Protocol | None) -> dict[str, Any]:
        return {"pulka_closed": protocol.closed_by_agreement if protocol else False}

    def import_table(self, table: Mapping[str, Any], path: str) -> dict[str, Any]:
        closed = read_bool(table.get("pulka_closed", False), join(path, "pulka_closed"), INVALID_INPUT)
        return {"closed_by_agreement": closed}

    def import_rows(
        self, *, tournament: Tournament, entries: Any, path: str, protocol_fields: Mapping[str, Any]
    ) -> preferans.TableScore:
        """The pulka's entries valued as the league stores them; an impossible entry is named in the
        user's language, as on the protocol page."""
        limit = self.row_limit(tournament)
        if isinstance(entries, list) and len(entries) > limit:
            raise ExchangeError(
                join(join(path, "deals"), limit), _("a pulka has at most %(limit)s entries") % {"limit": limit}
            )
        entries = read_list(entries, join(path, "deals"), INVALID_INPUT)
        settings = self.settings(tournament)
        try:
            return preferans.table_score(
                players=tournament.seats,
                variant=settings.variant(),
                total=settings.pulka_total,
                entries=entries,
                closed=protocol_fields["closed_by_agreement"],
            )
        except scoring.ScoringError as err:
            raise ExchangeError(join(path, err.path) if err.path else path, scoring_error_message(err)) from err


PREFERANS = Preferans()
