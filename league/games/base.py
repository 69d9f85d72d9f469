"""The one interface of a card game (gra) played in the league: what every room asks of it.

A tournament plays one game (``Tournament.game``); the rooms (the referee's protocol pages, the
table's phone, the public and printed sheets, the hall, the exchange file, the standings) never
branch on which: they ask ``game_of(tournament)``, a :class:`GameRules`, and it answers for
Baśka (``league.games.baska``) or Preferans (``league.games.preferans``). docs/games.md says how a
third game is added.

A game owns:

- its **table** (stolik): how many sit at it and which seats, and how many rows its protocol holds;
- its **protocol rows**: how a row is typed (forms, shorthand), validated and valued (through
  ``scoring``, which stays the only judge), and put in words for the pages and the history;
- its **pages**: the referee's protocol page and corrections, the phone's page and forms, the public
  table page and the printed sheets (template names and the context they read);
- its **exchange file** part (docs/interfaces.md §4): the tournament's settings and a table's rows;
- its **tournament points**: the rules the standings rank by (places to big points, byes, tie-breaks).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar
from typing import Protocol as Shape

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser
    from django.forms import Field, ModelForm
    from django.http import HttpRequest, HttpResponse
    from django.urls import URLPattern, URLResolver
    from django.utils.functional import Promise

    from league.games.game_settings import GameSettings
    from league.models import Series, Tournament
    from league.results.models import DealRow, Protocol
    from scoring import ProtocolResult, Ruleset
    from scoring.preferans import TableScore, TournamentRules
    from scoring.rows import RowsResult


class PhoneScorer(Shape):
    """Who is at a table's phone, as a game's phone pages read it (``league.results.table.scorer.Scorer``:
    the protocol their PIN opened and the seat they said they sit at)."""

    protocol: Protocol

    @property
    def seat(self) -> str: ...

    @property
    def author(self) -> str: ...

    def url(self, name: str = "protocol", *args: Any) -> str: ...


SheetRows = Callable[["Protocol | None", Mapping[str, str]], dict[str, Any]]
"""A printed sheet's own part (its lines and totals, or its pulka), from a protocol or None for a blank one."""


@dataclass(frozen=True)
class SeatTally:
    """One deal as a player's statistics count it (statystyki): the contract they played on the
    declaring side (``contract``, as the deal stores it; empty when the other side played it or the
    row records only values), whether that side won it, and which of the game's own tallies
    (``GameRules.tallies``, by key) the deal adds one to for the player."""

    contract: str = ""
    made: bool = False
    counted: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TableProgress:
    """How far a table is in its series (postęp): ``done`` of ``of`` steps, and whether its game
    ended before the count: played out (``finished``) or closed by the players' agreement
    (``closed``). A game counting in rows (Baśka: the deals of the series) leaves ``unit`` empty;
    one counting its own steps names them (Preferans: the points of the pulka filled, "pulka"),
    and the pages then show the rows entered beside it."""

    done: int
    of: int
    finished: bool = False
    closed: bool = False
    unit: Promise | str = ""

    @property
    def percent(self) -> int:
        return round(100 * min(self.done, self.of) / self.of) if self.of else 0

    @property
    def over(self) -> bool:
        return self.finished or self.closed


@dataclass(frozen=True)
class RecordContract:
    """A kind of contract the records page (rekordy: the league's all-time records) keeps a list
    for: who won it most often on the declaring side. ``contracts`` are the contracts it counts, as
    deals store them (``SeatTally.contract``); empty: every contract."""

    key: str
    title: Promise  # the list's heading, "Most zolos won"
    contracts: frozenset[str] = frozenset()

    def counts(self, contract: str) -> bool:
        return bool(contract) and (not self.contracts or contract in self.contracts)


@dataclass(frozen=True)
class GameRecords:
    """What the records page lists for a game besides the tournaments won: the best series ever
    (its heading: a Preferans series is a pulka, and its figure the balance), who played the most
    (the deals, or where a series is one pulka, the series played at a table), and the contracts
    won most often (:class:`RecordContract`)."""

    best_series: Promise
    played: Promise
    played_counts_series: bool
    contracts: tuple[RecordContract, ...]


@dataclass(frozen=True)
class GameWords:
    """The words a page uses where the games differ: what a table's small points are called and
    what a protocol's progress counts (already translated, lazily)."""

    small_points: Promise  # "Small points" / "Settled whists", as a column heading
    small_points_lower: Promise  # "small points" / "settled whists", inside a sentence
    small_points_unit: Promise  # "small points" / "whists", after a number
    progress: Promise  # "Deals" / "Pulka": the heading of a table's progress
    progress_title: Promise  # the projector's page of the tables' progress, with %(number)s the series
    rows: Promise  # "Deals" / "Entries": the heading of a protocol's count of rows
    totals_help: Promise  # how the phone's scorer types the paper's totals
    blank_sheet: Promise  # the print page's button for a walk-in table's blank sheet
    time_up_note: Promise | str = ""  # what the time limit does to a table beyond stopping it
    badge: Promise | str = ""  # beside a tournament's name where the league's usual game is not played
    # the control room's states of a game with its own progress: ended before the count, closed by
    # agreement; the history's changes of a table closed by agreement and opened again say ``closed``
    # and ``reopened`` where a game has them
    over: Promise | str = ""
    closed: Promise | str = ""
    reopened: Promise | str = ""


DEAL_WORDS = GameWords(
    small_points=gettext_lazy("Small points"),
    small_points_lower=gettext_lazy("small points"),
    small_points_unit=gettext_lazy("small points"),
    progress=gettext_lazy("Deals"),
    progress_title=gettext_lazy("Series %(number)s: progress of the tables"),
    rows=gettext_lazy("Deals"),
    totals_help=gettext_lazy("Type the four totals from the paper's last line: the page checks them against the rows."),
    blank_sheet=gettext_lazy("Blank protocol for a walk-in table"),
)
"""The words of a game whose tables count small points deal by deal (Baśka, a game of plain rows)."""


@dataclass(frozen=True)
class GameTemplates:
    """The templates of a game's pages and sheets, and the includes the shared pages take from it."""

    entry: str  # include: one row in words (``d``: what ``describe`` gave), as the history shows it
    public_table: str  # include: a closed table's rows on the public table page
    print_protocol: str  # the printed protocol (blank or pre-filled) of a table
    print_buttons: str  # include: the print page's buttons for a series' sheets
    rules_line: str  # include: the rules as the tournament's page names them
    series_key: str  # include: what the public series page shows at each table
    hall_median: str  # include: the control room's median progress
    progress: str  # include: a table's progress in words (``progress``: a TableProgress), with its state


class GameRules(ABC):
    """A game as the rooms see it; one instance per game, registered in ``settings.BASKA_GAMES``."""

    key: str  # the value of Tournament.game
    label: Promise
    table_sizes: tuple[int, ...]  # players at a table the game allows, the usual one first
    words: GameWords
    templates: GameTemplates
    settings_class: type[GameSettings]  # the game's own settings of a tournament (``Tournament.game_settings``)
    # The tournament form's fields only this game reads, shown under its heading (``form_heading``);
    # optional unless required (a form posted without them keeps what the tournament has).
    tournament_fields: tuple[str, ...] = ()
    tournament_fields_required: bool = False
    form_heading: Promise
    # Of those, the ones that can no longer change once a deal is played.
    rules_fields: tuple[str, ...] = ()
    # Whether the phone's offline queue (deals valued on the phone from the value table) serves it.
    offline_queue: bool = False
    # Whether a table's progress is the game's own reading (``series_progress``), not its count of rows.
    own_progress: bool = False
    # Whether ``rules_name`` names the game with its rules, so pages show it beside the tournament.
    rules_named: bool = False
    # Whether the same deal earns different small points under the game's different rules, so a
    # season adding up small points of its tournaments under several rules is warned.
    small_points_by_rules: bool = False
    # The exchange file's keys of the game's own (docs/interfaces.md), which the shared format allows
    # after every file's: in the ``tournament`` object and at each table of a series; and where the
    # file holds a field every tournament has in a place of the game's own, so a refusal names it.
    exchange_tournament_keys: tuple[str, ...] = ()
    exchange_table_keys: tuple[str, ...] = ()
    exchange_places: ClassVar[Mapping[str, str]] = {}
    # The game's own public pages the site's menu links to: (URL name, label), from ``public_urls``.
    tools: tuple[tuple[str, Promise], ...] = ()
    # The game's own words (its vocabulary, słownictwo): regular expressions of their stems, Polish and
    # English, matched ignoring case. No line outside the game's package uses them: the rooms say what
    # every game shares (table, seat, deal, series, points) and ask the game for the rest; the
    # architecture test reads them from the game's ``rules.py`` as written, so a plain literal.
    vocabulary: tuple[str, ...] = ()
    # What else the game tallies of a player's deals (``SeatTally.counted``), as (key, label): the
    # player's page shows each beside the deals played, in this order, when any is counted.
    tallies: tuple[tuple[str, Promise], ...] = ()
    # The tournament's settings this game keeps in rows of its own rather than in ``game_settings``
    # (Baśka's own rules, which the database refuses to delete while a tournament plays by them): the
    # form's fields of them (``linked_form_fields``), read by ``linked_read`` and written by
    # ``linked_save``; ``linked_related``: the lookups that read them with a list of tournaments.
    linked_fields: tuple[str, ...] = ()
    linked_related: tuple[str, ...] = ()

    def __str__(self) -> str:
        return str(self.label)

    def settings(self, tournament: Tournament) -> GameSettings:
        """``tournament``'s settings of this game, as its ``game_settings`` holds them."""
        return self.settings_class.from_stored(tournament.game_settings)

    def tournament_check(self, tournament: Tournament, settings: GameSettings) -> None:
        """Refuse (``ValidationError`` by field) ``settings`` out of bounds or a table size this game
        is not played at: every writer of a tournament asks it (the services, the exchange file)."""
        settings.check()
        if tournament.table_size not in self.table_sizes:
            raise ValidationError(
                {
                    "table_size": _("%(game)s is not played at tables of %(size)s.")
                    % {"game": self.label, "size": tournament.table_size}
                }
            )

    def settings_with(self, tournament: Tournament, values: Mapping[str, Any]) -> GameSettings:
        """``tournament``'s settings of this game with ``values`` (by setting name) put in; a
        tournament that played another game starts from this game's defaults."""
        stored = tournament.game_settings if tournament.game == self.key else {}
        return self.settings_class.from_stored(stored).changed(values)

    def linked_form_fields(self, *, tournament: Tournament, user: AbstractBaseUser | None) -> dict[str, Field]:
        """The tournament form's fields of ``linked_fields`` for ``user`` (None: the admin's, every choice)."""
        return {}

    def linked_read(self, tournament: Tournament) -> dict[str, Any]:
        """What ``tournament`` holds of ``linked_fields``, by name."""
        return {}

    def linked_save(self, *, tournament: Tournament, values: Mapping[str, Any]) -> None:
        """Write ``values`` (by name of ``linked_fields``; None: none) for ``tournament``, a stored one."""
        return None

    def linked_hold(self, tournament: Tournament, values: Mapping[str, Any]) -> None:
        """Read ``tournament`` as holding ``values`` (by name of ``linked_fields``; None: none) without
        writing them: a form's checks of what it would save, or an exchange file's tournament replacing
        the stored one of its id, which brings what it plays by in the file."""
        return None

    # --- the table and its protocol -------------------------------------------------------

    @abstractmethod
    def row_limit(self, tournament: Tournament) -> int:
        """The most rows a protocol of ``tournament`` may hold."""

    def rules_name(self, tournament: Tournament) -> str:
        """The rules played, as pages name them: by default the game's name."""
        return str(self.label)

    @abstractmethod
    def standing_rules(self, tournament: Tournament) -> Ruleset | TournamentRules:
        """What the standings rank by: places to big points, byes, tie-breaks."""

    @abstractmethod
    def tournament_clean(self, *, form: ModelForm, cleaned: dict[str, Any]) -> None:
        """Check and complete the tournament form's settings when this game is chosen, adding the
        form's errors (``form.add_error``) where they are wrong."""

    @abstractmethod
    def score(self, *, protocol: Protocol, entries: list[dict[str, Any]]) -> ProtocolResult | TableScore | RowsResult:
        """``entries`` as the protocol's rows, valued by ``scoring``; raises ``ScoringError`` as the engine does."""

    def row_check(
        self, *, protocol: Protocol, number: int, deal: dict[str, Any], rows: Sequence[DealRow], by_table: bool
    ) -> None:
        """Refuse writing ``deal`` as row ``number`` where the game's own rules forbid it, beyond what
        every protocol checks: ``ValidationError``, or ``PermissionDenied`` for the table's phone
        (``by_table``) where only the referee may. By default a game has no such rule."""
        return  # every protocol's own checks (the next row, in order) are the rooms'

    def completion_check(self, *, protocol: Protocol, entries: list[dict[str, Any]], ended_early: bool) -> None:
        """Refuse (``ValidationError``) marking the protocol complete while the game says it is not over:
        by default while it holds fewer rows than the row limit, unless the time limit stopped the table."""
        limit = self.row_limit(protocol.series.tournament)
        if len(entries) < limit and not ended_early:
            raise ValidationError(
                _(
                    "Only %(count)s of %(limit)s deals are entered; "
                    "mark the table as stopped by the time limit if it did not finish."
                ),
                code="incomplete",
                params={"count": len(entries), "limit": limit},
            )

    @abstractmethod
    def describe(self, entry: Mapping[str, Any] | None, names: Mapping[str, str] | None = None) -> Any:
        """A stored row in words (None for no row); ``names`` by seat where the page knows them."""

    def seat_tally(self, *, entry: Mapping[str, Any], values: Mapping[str, int], seat: str) -> SeatTally | None:
        """What a stored row (the deal as entered, its values by seat) counts for the player at
        ``seat`` in their statistics; None for a row that is no deal (a referee's penalty). By
        default a deal played and nothing more: a row of values says nobody's contract."""
        return SeatTally()

    def contract_label(self, contract: str) -> str:
        """A contract as a deal stores it (``SeatTally.contract``), in the reader's language; by
        default as stored."""
        return contract

    def records(self) -> GameRecords:
        """The lists the records page keeps of this game (``league.standings.records``): by default
        the best series and the most deals played, no contracts."""
        return GameRecords(
            best_series=gettext_lazy("Best series ever"),
            played=gettext_lazy("Most deals played"),
            played_counts_series=False,
            contracts=(),
        )

    def series_progress(self, *, series: Series, protocols: Sequence[Protocol]) -> dict[int, TableProgress]:
        """Each table's progress by protocol id, in a fixed number of queries: by default its rows
        (``protocol.deal_count``, as the series' summary counts them) of the row limit; a game whose
        count of rows does not say it (a pulka's points filled) reads its own."""
        limit = self.row_limit(series.tournament)
        return {protocol.pk: TableProgress(protocol.deal_count, limit) for protocol in protocols}

    # --- the rooms' pages -----------------------------------------------------------------

    @abstractmethod
    def referee_page(self, request: HttpRequest, protocol: Protocol, **forms: Any) -> HttpResponse:
        """The referee's protocol page of a table, with any forms a refusal sends back."""

    @abstractmethod
    def referee_entry(self, request: HttpRequest, protocol: Protocol) -> HttpResponse:
        """A POST to the referee's protocol page: the next row typed there."""

    @abstractmethod
    def referee_correction(self, request: HttpRequest, protocol: Protocol, row: DealRow) -> HttpResponse:
        """The referee's page that corrects (or deletes) a saved row."""

    @abstractmethod
    def phone_page(self, request: HttpRequest, scorer: PhoneScorer, status: int = 200, **context: Any) -> HttpResponse:
        """The table phone's page."""

    @abstractmethod
    def phone_entry(self, request: HttpRequest, scorer: PhoneScorer, step: str, **kwargs: Any) -> HttpResponse:
        """The phone's deal entry: ``step`` is "save", "preview", "edit" or "delete"."""

    def referee_urls(self) -> list[URLPattern]:
        """The game's own forms on the referee's pages (named in the ``results`` namespace)."""
        return []

    def phone_urls(self) -> list[URLPattern]:
        """The game's own forms on the table's phone (named in the ``table`` namespace)."""
        return []

    def public_urls(self) -> list[URLPattern | URLResolver]:
        """The game's own pages at the site's root: its public tools (a calculator), linked from the
        site's menu as ``tools`` names them, and any organisers' pages of its own (Baśka's own rules)."""
        return []

    @abstractmethod
    def public_table_context(self, *, protocol: Protocol, names: Mapping[str, str]) -> dict[str, Any]:
        """What the public table page's include (``templates.public_table``) reads."""

    @abstractmethod
    def print_layout(self, *, tournament: Tournament) -> tuple[str, dict[str, Any]]:
        """The printed protocol's default title and what every table's sheet of ``tournament`` shares
        (columns, the blank line's grid, a key of the rules)."""

    @abstractmethod
    def print_rows(self, *, tournament: Tournament) -> SheetRows:
        """What fills each printed sheet of ``tournament``, made once per document (its rules read
        once): called with a protocol (its rows prefetched, in order) and its players' names by seat,
        or with None for a walk-in table's blank sheet."""

    # --- the exchange file (docs/interfaces.md §4) -------------------------------------------

    @abstractmethod
    def export_settings(self, tournament: Tournament) -> dict[str, Any]:
        """The tournament's settings of this game as the file's ``tournament`` object holds them (the
        ``ruleset`` and ``deals_per_series`` every file names, its ``game`` where not Baśka …), from
        its settings class (``GameSettings.exchange``)."""

    @abstractmethod
    def import_settings(self, data: Mapping[str, Any], path: str) -> dict[str, Any]:
        """The tournament's fields this game reads from the file's ``tournament`` object at ``path``:
        its ``game_settings`` (``GameSettings.from_exchange``) and any column the file gives with
        them; raises ``ExchangeError`` (or the field readers' ``ScoringError``) naming the place."""

    def export_table(self, *, protocol: Protocol | None) -> dict[str, Any]:
        """A table's own fields in the file besides its number, seats, deals and early end (its
        ``exchange_table_keys``): by default none."""
        return {}

    def import_table(self, table: Mapping[str, Any], path: str) -> dict[str, Any]:
        """The protocol's own fields read from a table of the file (what ``export_table`` wrote): by
        default none."""
        return {}

    @abstractmethod
    def import_rows(
        self, *, tournament: Tournament, entries: Any, path: str, protocol_fields: Mapping[str, Any]
    ) -> ProtocolResult | TableScore | RowsResult:
        """A table's ``deals`` valued as the protocol stores them; raises ``ExchangeError`` naming the place."""
