"""Baśka (Kashubian baśka) as the rooms ask for it: four at a table, a protocol of deals valued by
the tournament's ruleset (``scoring``), the deal in words, the referee's and the phone's pages,
the printed protocol and the exchange file's deals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.db.models import Q
from django.urls import include, path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import scoring
from league.exchange.format import INVALID_INPUT, ExchangeError
from league.games.base import (
    DEAL_WORDS,
    GameRecords,
    GameRules,
    GameTemplates,
    RecordContract,
    SeatTally,
    SheetRows,
)
from league.games.baska import calculator, phone, referee
from league.games.baska.describe import DealDescription, describe_deal, protocol_lines
from league.games.baska.printing import blank_row_grid, filled_lines
from league.games.baska.rulesets.models import OwnRuleset
from league.games.baska.settings import (
    OWN_RULESET_RELATED,
    BaskaSettings,
    baska_settings,
    own_ruleset_hold,
    own_ruleset_of,
    own_ruleset_set,
    tournament_ruleset,
)
from league.games.choices import Game
from league.games.labels import CONTRACT_LABELS
from league.printing.documents import PROTOCOL_COLUMNS_MM, blank_lines
from scoring.fields import join, read_bool
from scoring.ruleset import deals_per_series_check

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser
    from django.http import HttpRequest, HttpResponse
    from django.urls import URLPattern, URLResolver

    from league.models import Tournament
    from league.results.models import DealRow, Protocol
    from league.results.table.scorer import Scorer
    from league.tournaments.forms import TournamentForm


class Baska(GameRules):
    key = Game.BASKA
    label = Game.BASKA.label
    table_sizes = (4,)
    offline_queue = True
    small_points_by_rules = True
    tools = (("calculator", gettext_lazy("Deal calculator")),)
    tournament_fields = ("ruleset_preset", "own_ruleset", "deals_per_series")
    tournament_fields_required = True
    form_heading = gettext_lazy("Baśka only")
    rules_fields = tournament_fields
    settings_class = BaskaSettings
    # the own rules made in "Własne zasady": a row of Baśka's table, which the database keeps them by
    linked_fields = ("own_ruleset",)
    linked_related = (OWN_RULESET_RELATED,)
    words = DEAL_WORDS
    # kontra (a double), cicha (ciche wesele), bok (a bok round), zolo, gran, "na dobiciu"
    # the kontras (doublings) a player's side gave and received, under the keys the kept tallies have
    tallies = (("given", gettext_lazy("Kontras given")), ("received", gettext_lazy("Kontras received")))
    vocabulary = (r"kontr", r"\bcich", r"\bbok", r"\bzolo", r"\bgran(?![td])", r"na[_ ]dobiciu")
    templates = GameTemplates(
        entry="games/baska/_deal.html",
        public_table="games/baska/_public_table.html",
        print_protocol="games/baska/print_sheet.html",
        print_buttons="games/plain/_print_buttons.html",
        rules_line="games/plain/_rules_line.html",
        series_key="games/plain/_series_key.html",
        progress="games/plain/_progress.html",
        hall_median="games/plain/_hall_median.html",
    )

    def settings(self, tournament: Tournament) -> BaskaSettings:
        return baska_settings(tournament)

    def linked_form_fields(
        self, *, tournament: Tournament, user: AbstractBaseUser | None
    ) -> dict[str, forms.ModelChoiceField]:
        """The own rules: ``user``'s, and those the tournament plays by (anyone's for the admin)."""
        field = forms.ModelChoiceField(
            queryset=OwnRuleset.objects.all(),
            required=False,
            label=_("Own rules"),
            help_text=_("Rules made in “Własne zasady”; they replace the preset."),
        )
        if user is not None:
            chosen = own_ruleset_of(tournament)
            field.queryset = OwnRuleset.objects.filter(Q(owner=user) | (Q(pk=chosen.pk) if chosen else Q(pk__in=[])))
            field.empty_label = _("— none: the rules above —")
        return {"own_ruleset": field}

    def linked_read(self, tournament: Tournament) -> dict[str, Any]:
        return {"own_ruleset": own_ruleset_of(tournament)}

    def linked_save(self, *, tournament: Tournament, values: Mapping[str, Any]) -> None:
        if "own_ruleset" in values:
            own_ruleset_set(tournament=tournament, ruleset=values["own_ruleset"])

    def linked_hold(self, tournament: Tournament, values: Mapping[str, Any]) -> None:
        if "own_ruleset" in values:
            own_ruleset_hold(tournament=tournament, ruleset=values["own_ruleset"])

    def row_limit(self, tournament: Tournament) -> int:
        return self.settings(tournament).deals_per_series

    def rules_name(self, tournament: Tournament) -> str:
        """The own ruleset's name, else the preset's."""
        own = own_ruleset_of(tournament)
        return own.name if own is not None else self.settings(tournament).preset_name()

    def standing_rules(self, tournament: Tournament) -> scoring.Ruleset:
        return tournament_ruleset(tournament)

    def tournament_clean(self, *, form: TournamentForm, cleaned: dict[str, Any]) -> None:
        """Own rules set the preset to the one they are based on; the deals per series must suit the
        rules; Baśka is played by four."""
        if cleaned.get("table_size", form.instance.table_size) not in self.table_sizes:
            form.add_error("table_size", _("Tables of three are for Preferans only: Baśka is played by four."))
        own = cleaned.get("own_ruleset")
        if own:
            cleaned["ruleset_preset"] = own.based_on
        elif not cleaned.get("ruleset_preset") and "ruleset_preset" not in form.errors:
            form.add_error("ruleset_preset", _("Choose the rules: a preset or your own."))
        deals = cleaned.get("deals_per_series")
        if deals and cleaned.get("ruleset_preset"):
            ruleset = own.ruleset() if own else scoring.load_ruleset(cleaned["ruleset_preset"])
            try:
                deals_per_series_check(ruleset=ruleset, deals=deals)
            except scoring.ScoringError:
                form.add_error(
                    "deals_per_series",
                    _("Under these rules the number of deals per series must be a multiple of %(multiple)s.")
                    % {"multiple": ruleset.deals_multiple},
                )

    def row_check(
        self, *, protocol: Protocol, number: int, deal: dict[str, Any], rows: Sequence[DealRow], by_table: bool
    ) -> None:
        """A Baśka protocol has no rules of its own beyond every protocol's: the next row, in order."""

    def score(self, *, protocol: Protocol, entries: list[dict[str, Any]]) -> scoring.ProtocolResult:
        return scoring.score_protocol(entries, tournament_ruleset(protocol.series.tournament))

    def describe(
        self, entry: Mapping[str, Any] | None, names: Mapping[str, str] | None = None
    ) -> DealDescription | None:
        return describe_deal(entry)

    def seat_tally(self, *, entry: Mapping[str, Any], values: Mapping[str, int], seat: str) -> SeatTally:
        # the old side (starzy) plays the contract: the declarer, or the pair of the queens of clubs
        old = entry.get("old") or []
        if not old:  # a deal recorded by its values alone says nobody's contract
            return SeatTally()
        mine, theirs = ("old", "young") if seat in old else ("young", "old")
        kontras = set(entry.get("kontras") or [])
        return SeatTally(
            contract=entry.get("contract", "") if mine == "old" else "",
            made=mine == "old" and values[seat] > 0,
            counted=frozenset(key for key, side in (("given", mine), ("received", theirs)) if side in kontras),
        )

    def contract_label(self, contract: str) -> str:
        return str(CONTRACT_LABELS.get(contract, contract))

    def records(self) -> GameRecords:
        """The deals played, and the solo contracts people remember a night for: zolo, gran and the
        du (the declarer takes every trick)."""
        return GameRecords(
            best_series=gettext_lazy("Best series ever"),
            played=gettext_lazy("Most deals played"),
            played_counts_series=False,
            contracts=(
                RecordContract("zolo", gettext_lazy("Most zolos won"), frozenset({"zolo"})),
                RecordContract("gran", gettext_lazy("Most grans won"), frozenset({"gran"})),
                RecordContract("du", gettext_lazy("Most du won (zolo-du, gran-du)"), frozenset({"zolo_du", "gran_du"})),
            ),
        )

    # --- pages ---

    def referee_page(self, request: HttpRequest, protocol: Protocol, **forms: Any) -> HttpResponse:
        return referee.protocol_page(request, protocol, **forms)

    def referee_entry(self, request: HttpRequest, protocol: Protocol) -> HttpResponse:
        return referee.deal_entry(request, protocol)

    def referee_correction(self, request: HttpRequest, protocol: Protocol, row: DealRow) -> HttpResponse:
        return referee.deal_correction(request, protocol, row)

    def referee_urls(self) -> list[URLPattern]:
        return referee.urls()

    def public_urls(self) -> list[URLPattern | URLResolver]:
        """The deal calculator, and the organisers' own rules ("Własne zasady") under ``zasady/``."""
        return [
            path("kalkulator/", calculator.calculator, name="calculator"),
            path("zasady/", include("league.games.baska.rulesets.urls")),
        ]

    def phone_page(self, request: HttpRequest, scorer: Scorer, status: int = 200, **context: Any) -> HttpResponse:
        return phone.phone_page(request, scorer, status, **context)

    def phone_entry(self, request: HttpRequest, scorer: Scorer, step: str, **kwargs: Any) -> HttpResponse:
        return phone.STEPS[step](request, scorer, **kwargs)

    def public_table_context(self, *, protocol: Protocol, names: Mapping[str, str]) -> dict[str, Any]:
        return {"rows": protocol_lines(protocol)}

    def print_layout(self, *, tournament: Tournament) -> tuple[str, dict[str, Any]]:
        return _("Table protocol"), {
            "seats": scoring.SEATS,
            "columns": PROTOCOL_COLUMNS_MM,
            "blank_row_grid": blank_row_grid(),
        }

    def print_rows(self, *, tournament: Tournament) -> SheetRows:
        ruleset = tournament_ruleset(tournament)
        deals = self.row_limit(tournament)

        def rows(protocol: Protocol | None, names: Mapping[str, str]) -> dict[str, Any]:
            if protocol is None:
                return {"lines": blank_lines(deals), "totals": [None] * len(scoring.SEATS)}
            lines, totals = filled_lines(protocol.rows.all(), ruleset)
            return {"lines": lines, "totals": totals}

        return rows

    # --- the exchange file ---

    def export_settings(self, tournament: Tournament) -> dict[str, Any]:
        """The rules and deals per series; a Baśka file names no game, as before there were others."""
        exported = self.settings(tournament).exchange()
        own = own_ruleset_of(tournament)
        if own is not None:  # the file carries the own rules' data, so the import values the deals alike
            exported["ruleset_data"] = own.data
        return exported

    def import_settings(self, data: Mapping[str, Any], path: str) -> dict[str, Any]:
        if "pulka" in data:
            raise ExchangeError(join(path, "pulka"), _('only a tournament of "game": "preferans" has a pulka'))
        return {"game_settings": BaskaSettings.from_exchange(data, path).stored()}

    def export_table(self, *, protocol: Protocol | None) -> dict[str, Any]:
        return {}

    def import_table(self, table: Mapping[str, Any], path: str) -> dict[str, Any]:
        if read_bool(table.get("pulka_closed", False), join(path, "pulka_closed"), INVALID_INPUT):
            raise ExchangeError(join(path, "pulka_closed"), _("only a Preferans table has a pulka to close"))
        return {}

    def import_rows(
        self, *, tournament: Tournament, entries: Any, path: str, protocol_fields: Mapping[str, Any]
    ) -> scoring.ProtocolResult:
        limit = self.row_limit(tournament)
        if isinstance(entries, list) and len(entries) > limit:
            message = _("the tournament has %(limit)s deals per series, and a table plays no more") % {"limit": limit}
            raise ExchangeError(join(join(path, "deals"), limit), message)
        try:
            return scoring.score_protocol(entries, tournament_ruleset(tournament))
        except scoring.ScoringError as err:
            raise ExchangeError(f"{path}.{err.path}" if err.path else path, err.message) from err


BASKA = Baska()
