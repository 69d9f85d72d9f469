"""What an uploaded exchange file would do, shown before anything is written (podgląd pliku).

The preview runs the import's first pass (:func:`import_plan`), which checks the whole file and
matches its players with the register, and tells for each player of the file whether they are
**new** (nowy), **existing** (w rejestrze: the same licence, or the same name and club) or a
**probable duplicate** (prawdopodobnie ten sam): the import would add them, yet the register
holds somebody of the same name once letters are compared without diacritics and case ("Kąkol"
and "KAKOL"). For those the organiser chooses: use one of the candidates, or add a new player.

A file whose ``tournament_id`` names a stored tournament replaces it (ponowne wczytanie): the
preview then says what changes (series, deals, players added and removed), or that nothing does.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from league.games.labels import scoring_error_message
from league.models import Tournament
from league.tournaments.roles import is_organiser
from league.tournaments.services import tournament_free_slug
from players.models import Player, search_key
from players.names import name_key
from players.selectors import Person, players_probable_duplicates
from scoring import ScoringError

from .exporting import export_tournament
from .format import INVALID_INPUT, TABLE_FIELDS, ExchangeError
from .ids import external_ids
from .importing import ImportPlan, import_plan

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

NEW, EXISTING, DUPLICATE = "new", "existing", "duplicate"


@dataclass
class PlayerLine:
    """One player of the file and who they would be in the register."""

    ref: str  # the file's id
    name: str
    club: str
    state: str  # NEW, EXISTING or DUPLICATE
    player: Player | None = None  # the stored player matched or chosen
    candidates: list[Player] = field(default_factory=list)  # DUPLICATE: who they probably are
    chosen: int | None = None  # DUPLICATE: the candidate chosen, None for a new player


@dataclass
class SeriesLine:
    number: int
    tables: int
    deals: int


@dataclass
class Changes:
    """What a file replacing a stored tournament changes."""

    series: list[tuple[int, SeriesLine | None, SeriesLine | None]]  # number, before, after: those that differ
    players_added: list[str]
    players_removed: list[str]
    anything: bool  # False: the file is the tournament as stored
    details: list[str] = field(default_factory=list)  # the rest that changes, a line each, in words

    @property
    def nothing(self) -> bool:
        return not self.anything


@dataclass
class ExchangePreview:
    error: ExchangeError | None = None
    place: str = ""  # where the error is, in words
    message: str = ""  # what is wrong there, in words
    refusal: str = ""  # the file replaces a tournament the user may not change
    tournament: Tournament | None = None  # unsaved, as the file gives it
    series: list[SeriesLine] = field(default_factory=list)
    players: list[PlayerLine] = field(default_factory=list)
    replaces: Tournament | None = None
    changes: Changes | None = None

    @property
    def can_confirm(self) -> bool:
        return self.error is None and not self.refusal and not (self.changes and self.changes.nothing)

    @property
    def duplicates(self) -> list[PlayerLine]:
        return [line for line in self.players if line.state == DUPLICATE]


def file_tournament_id(data: Any) -> uuid.UUID | None:
    """The file's ``tournament_id`` when it is a well-formed one (the import names any other)."""
    tournament = data.get("tournament") if isinstance(data, dict) else None
    value = tournament.get("tournament_id") if isinstance(tournament, dict) else None
    try:
        return uuid.UUID(value) if isinstance(value, str) else None
    except ValueError:
        return None


def tournament_replaced(data: Any) -> Tournament | None:
    """The stored tournament the file would replace: the one of its ``tournament_id``."""
    exchange_id = file_tournament_id(data)
    return Tournament.objects.filter(exchange_id=exchange_id).first() if exchange_id else None


def same_file(first: Any, second: Any) -> bool:
    """Whether two exchange files hold the same tournament, whatever their layout."""
    return json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def with_a_free_slug(data: Any) -> Any:
    """The file with its tournament's address made free when another tournament here has it: a new
    tournament from a laptop's evening may well share its address with one of the league's own."""
    tournament = data.get("tournament") if isinstance(data, dict) else None
    slug = tournament.get("slug") if isinstance(tournament, dict) else None
    if not isinstance(slug, str) or not Tournament.objects.filter(slug=slug).exists():
        return data  # a missing or wrong address is the importer's to report
    return data | {"tournament": tournament | {"slug": tournament_free_slug(name=slug)}}


def exchange_preview(*, data: Any, user: AbstractBaseUser, choices: Mapping[str, int] | None = None) -> ExchangePreview:
    """The preview of the parsed file ``data`` for ``user``, with the probable duplicates resolved
    as ``choices`` says (file id → the chosen stored player's pk; any other is a new player), or
    as first offered (:func:`_offered_choices`) without ``choices``."""
    replaces = tournament_replaced(data)
    if replaces is not None and not is_organiser(user, replaces):
        refusal = _(
            "This file is the tournament “%(name)s”, which is already here and which you do not organise: "
            "ask its organisers to upload it."
        ) % {"name": replaces.name}
        return ExchangePreview(refusal=refusal, replaces=replaces)
    if replaces is None:
        data = with_a_free_slug(data)
    try:
        plan = import_plan(data, players=choices or {}, replacing=replaces)
        if choices is None and (choices := _offered_choices(plan, replaces)):
            plan = import_plan(data, players=choices, replacing=replaces)
    except ExchangeError as error:
        return ExchangePreview(
            error=error, place=error_place(data, error.path), message=error_message(error), replaces=replaces
        )
    return ExchangePreview(
        tournament=plan.tournament,
        series=_series_lines(plan),
        players=_player_lines(plan, data["players"], choices or {}),
        replaces=replaces,
        changes=replacement_changes(stored=replaces, plan=plan, data=data) if replaces else None,
    )


def _offered_choices(plan: ImportPlan, replaces: Tournament | None) -> dict[str, int]:
    """Who each probable duplicate is until the organiser says otherwise: the player the replaced
    tournament had under the same id, else the first candidate (the register already has them)
    that no other player of the file is already."""
    unmatched = {r.external_id: r.player for r in plan.registrations if r.player.pk is None}
    namesakes = probable_duplicates(names=[(p.first_name, p.last_name) for p in unmatched.values()])
    before = {ref: pk for pk, ref in external_ids(replaces)[0].items()} if replaces else {}
    taken = {r.player.pk for r in plan.registrations if r.player.pk is not None}
    offered = {}
    for ref, player in unmatched.items():
        free = [c.pk for c in namesakes.get(search_key(player.full_name), []) if c.pk not in taken]
        if free:
            offered[ref] = before[ref] if before.get(ref) in free else free[0]
            taken.add(offered[ref])
    return offered


def _series_lines(plan: ImportPlan) -> list[SeriesLine]:
    return sorted(
        (SeriesLine(s.number, len(s.tables), sum(len(t.deals) for t in s.tables)) for s in plan.series),
        key=lambda line: line.number,
    )


def _player_lines(plan: ImportPlan, entries: list[dict[str, Any]], choices: Mapping[str, int]) -> list[PlayerLine]:
    """The file's players (their names and clubs as the file gives them) in Polish order of names,
    each matched, chosen or new."""
    names = {entry["id"]: (entry["first_name"].strip(), entry["last_name"].strip()) for entry in entries}
    clubs = {entry["id"]: (entry.get("club") or "").strip() for entry in entries}
    unmatched = [r for r in plan.registrations if r.external_id in choices or r.player.pk is None]
    namesakes = probable_duplicates(names=[names[r.external_id] for r in unmatched])
    lines = []
    for registration in plan.registrations:
        ref, player = registration.external_id, registration.player
        first, last = names[ref]
        club = clubs[ref]
        candidates = namesakes.get(search_key(f"{first} {last}"), [])
        if ref in choices:
            lines.append(PlayerLine(ref, f"{first} {last}", club, DUPLICATE, player, candidates, choices[ref]))
        elif player.pk is not None:
            lines.append(PlayerLine(ref, f"{first} {last}", club, EXISTING, player))
        else:
            lines.append(PlayerLine(ref, f"{first} {last}", club, DUPLICATE if candidates else NEW, None, candidates))
    return sorted(lines, key=lambda line: (name_key(names[line.ref][1]), name_key(names[line.ref][0])))


def probable_duplicates(*, names: list[tuple[str, str]]) -> dict[str, list[Player]]:
    """The register's probable duplicates (``players.selectors.players_probable_duplicates``) of
    each (first, last) name of the file, by the name's ``search_key``."""
    people = [Person(first, last) for first, last in names]
    found = players_probable_duplicates(people=people)
    return {
        search_key(f"{person.first_name} {person.last_name}"): players
        for person, players in zip(people, found, strict=True)
    }


def replacement_changes(*, stored: Tournament, plan: ImportPlan, data: dict[str, Any]) -> Changes:
    """What replacing ``stored`` by the file ``data`` (read into ``plan``) changes: its series,
    the players by their ids in the file, and whether anything changes at all.

    Nothing changes when each id stands for the same stored player as before and the rest of
    the file is the stored tournament's export. A player's name, gender, club and licence in the
    file are left out of that: the import matches a stored player and never rewrites them, so the
    file of a player the organiser matched to a namesake spelt otherwise changes nothing."""
    before = export_tournament(stored)
    old, new = _series_summary(before), _series_summary(data)
    series = [(n, old.get(n), new.get(n)) for n in sorted(old.keys() | new.keys()) if old.get(n) != new.get(n)]
    old_players, new_players = _player_names(before), _player_names(data)
    people_before = {ref: pk for pk, ref in external_ids(stored)[0].items()}
    people_after = {registration.external_id: registration.player.pk for registration in plan.registrations}
    return Changes(
        series=series,
        players_added=[new_players[ref] for ref in new_players.keys() - old_players.keys()],
        players_removed=[old_players[ref] for ref in old_players.keys() - new_players.keys()],
        anything=people_before != people_after or not same_file(_without_people(before), _without_people(data)),
        details=change_lines(_without_people(before), _without_people(data)),
    )


# The tournament's settings in the file, as the organiser's form names them; any other (a game's
# own setting) is "another setting", never its key. The file writes some as codes (a ruleset's
# key, "best3"): of those only the change is said, never the code.
_SETTINGS = {
    "name": gettext_lazy("name"),
    "date": gettext_lazy("date"),
    "venue": gettext_lazy("venue"),
    "organiser": gettext_lazy("organiser"),
    "series_count": gettext_lazy("number of series"),
    "deals_per_series": gettext_lazy("deals per series"),
    "uses_big_points": gettext_lazy("big points"),
}
_CODED_SETTINGS = {
    "ruleset": gettext_lazy("rules"),
    "ruleset_data": gettext_lazy("own rules"),
    "team_ranking": gettext_lazy("team ranking"),
}


def _shown(key: str, value: Any) -> str:
    if value in (None, ""):
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key == "date":
        return date_format(date.fromisoformat(value), "SHORT_DATE_FORMAT")
    return str(value)


def change_lines(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What else a file changes, a line each, in the organiser's words: the settings with their
    values before and after, and per series and table the seats, the deals by number, a table
    ended early, the byes and the penalties (the series' and players' counts are said apart)."""
    lines = []
    old_settings, new_settings = before["tournament"], after["tournament"]
    others = False
    for key in sorted(old_settings.keys() | new_settings.keys()):
        if key in ("slug", "tournament_id") or old_settings.get(key) == new_settings.get(key):
            continue
        if key in _CODED_SETTINGS:
            lines.append(_("Changed: %(setting)s.") % {"setting": _CODED_SETTINGS[key]})
        elif key in _SETTINGS:
            old, new = _shown(key, old_settings.get(key)), _shown(key, new_settings.get(key))
            setting = capfirst(str(_SETTINGS[key]))
            lines.append(_("%(setting)s: %(old)s → %(new)s") % {"setting": setting, "old": old, "new": new})
        else:
            others = True
    if others:
        lines.append(_("Another setting of the game changes."))
    if before["teams"] != after["teams"] or before["players"] != after["players"]:
        lines.append(_("The teams, or who plays in which team, change."))
    old_series = {s["number"]: s for s in before["series"]}
    for new in after["series"]:
        old = old_series.get(new["number"])
        if old is not None:
            lines += _series_change_lines(new["number"], old, new)
    return lines


def _series_change_lines(number: int, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    lines = []
    old_tables = {t["number"]: t for t in old["tables"]}
    for table in new["tables"]:
        was = old_tables.get(table["number"])
        if was is None:
            continue
        where = {"series": number, "table": table["number"]}
        if was["seats"] != table["seats"]:
            lines.append(_("Series %(series)s, table %(table)s: the seats change.") % where)
        deals = [
            n
            for n in range(1, max(len(was["deals"]), len(table["deals"])) + 1)
            if was["deals"][n - 1 : n] != table["deals"][n - 1 : n]
        ]
        if deals:
            shown = ", ".join(str(n) for n in deals)
            lines.append(
                ngettext(
                    "Series %(series)s, table %(table)s: deal %(deals)s changes.",
                    "Series %(series)s, table %(table)s: deals %(deals)s change.",
                    len(deals),
                )
                % (where | {"deals": shown})
            )
        if was.get("ended_early") != table.get("ended_early"):
            lines.append(_("Series %(series)s, table %(table)s: whether the table ended early changes.") % where)
        if _sheet_of(table) != _sheet_of(was):
            lines.append(_("Series %(series)s, table %(table)s: the table's sheet changes.") % where)
    if old["byes"] != new["byes"]:
        lines.append(_("Series %(series)s: the byes change.") % {"series": number})
    if old["penalties"] != new["penalties"]:
        lines.append(_("Series %(series)s: the penalties change.") % {"series": number})
    return lines


# The defaults of the optional fields (docs/interfaces.md §4), which a file may leave out.
_TOURNAMENT_DEFAULTS = {"venue": "", "organiser": "", "uses_big_points": True, "team_ranking": "sum"}
_TABLE_DEFAULTS = {"deals": [], "ended_early": False}


def _without_people(data: dict[str, Any]) -> dict[str, Any]:
    """The file in one canonical form, whatever wrote it: optional fields with their defaults,
    lists of things with ids or numbers in their order, and each player reduced to the id and
    the team (who the id is, the register says)."""

    def table(entry: dict[str, Any]) -> dict[str, Any]:
        return _TABLE_DEFAULTS | entry

    def series(entry: dict[str, Any]) -> dict[str, Any]:
        tables = sorted((table(t) for t in entry.get("tables", [])), key=lambda t: t["number"])
        return {"penalties": [], **entry, "tables": tables, "byes": sorted(entry.get("byes", []))}

    return {
        **data,
        "tournament": _TOURNAMENT_DEFAULTS | data["tournament"],
        "teams": sorted(({"club": None} | t for t in data.get("teams", [])), key=lambda t: t["id"]),
        "players": sorted(({"id": p["id"], "team": p.get("team")} for p in data["players"]), key=lambda p: p["id"]),
        "series": sorted((series(s) for s in data.get("series", [])), key=lambda s: s["number"]),
    }


def _series_summary(data: dict[str, Any]) -> dict[int, SeriesLine]:
    summary = {}
    for series in data.get("series", []):
        tables = series.get("tables", [])
        summary[series["number"]] = SeriesLine(
            series["number"], len(tables), sum(len(t.get("deals", [])) for t in tables)
        )
    return summary


def _player_names(data: dict[str, Any]) -> dict[str, str]:
    """Each player's name by their id in the file."""
    return {p["id"]: f"{p['first_name'].strip()} {p['last_name'].strip()}" for p in data["players"]}


def error_message(error: ExchangeError) -> str:
    """What is wrong at the error's place, in the user's language: the import's own messages are
    translated where they are made; a value the scoring engine refused is told from its code."""
    cause = error.__cause__
    if not isinstance(cause, ScoringError):
        return error.message
    if cause.code == INVALID_INPUT:  # its field is the place, shown beside it
        return _("expected %(expected)s") % {"expected": expected_words(str(cause.params.get("expected", "")))}
    return scoring_error_message(cause)


# What scoring.fields says a value should be, as the organiser reads it (the engine stays English).
_EXPECTED = [
    (re.compile(r"an integer from (?P<min>\S+) to (?P<max>\S+)"), gettext_lazy("an integer from %(min)s to %(max)s")),
    (re.compile(r"an integer of at least (?P<min>\S+)"), gettext_lazy("an integer of at least %(min)s")),
    (re.compile(r"a number from (?P<min>\S+) to (?P<max>\S+)"), gettext_lazy("a number from %(min)s to %(max)s")),
    (re.compile(r"a number of at least (?P<min>\S+)"), gettext_lazy("a number of at least %(min)s")),
    (re.compile(r"a text of at most (?P<max>\d+) characters"), gettext_lazy("a text of at most %(max)s characters")),
    (re.compile(r"a list of at most (?P<max>\d+) items"), gettext_lazy("a list of at most %(max)s items")),
    (re.compile(r"one of (?P<choices>.*)"), gettext_lazy("one of %(choices)s")),
    (re.compile(r"an integer"), gettext_lazy("an integer")),
    (re.compile(r"a string"), gettext_lazy("a text")),
    (re.compile(r"a list"), gettext_lazy("a list")),
    (re.compile(r"an object"), gettext_lazy("an object { … }")),
    (re.compile(r"true or false"), gettext_lazy("true or false")),
    (re.compile(r"absent \(not a known field\)"), gettext_lazy("absent: the format has no such field")),
    (re.compile(r"given"), gettext_lazy("given: the field is required")),
]


def expected_words(expected: str) -> str:
    """``expected`` of an ``invalid_input`` error in the user's language; as it is when unknown."""
    for pattern, words in _EXPECTED:
        if match := pattern.fullmatch(expected):
            return str(words) % match.groupdict()
    return expected


_STEP = re.compile(r"([^.\[]+)((?:\[\d+\])*)")


def error_place(data: Any, path: str) -> str:
    """The place ``path`` (``series[1].tables[0].deals[7]``) names, in the organiser's words:
    "series 2, table 1, deal 8", with the player's or the team's name where the file gives it."""
    if not path:
        return _("the whole file")
    words = []
    node = data
    for name, indexes in _STEP.findall(path):
        node = node.get(name) if isinstance(node, dict) else None
        numbers = [int(i) for i in re.findall(r"\d+", indexes)]
        if numbers:
            index = numbers[0]
            node = node[index] if isinstance(node, list) and index < len(node) else None
            words.append(_entry_words(name, index, node))
        elif not words and name == "tournament":
            words.append(_("the tournament"))
        else:
            words.append(_("field “%(name)s”") % {"name": name})
    return ", ".join(words)


def _entry_words(name: str, index: int, node: Any) -> str:
    entry = node if isinstance(node, dict) else {}
    number = entry.get("number") if isinstance(entry.get("number"), int) else index + 1
    if name == "players":
        who = " ".join(str(entry.get(key, "")) for key in ("first_name", "last_name")).strip()
        # the name as the file has it, which may be what is wrong with it (a lone surrogate cannot be sent)
        who = who.encode("utf-8", "replace").decode("utf-8")
        return (
            _("player %(number)s (%(name)s)") % {"number": index + 1, "name": who}
            if who
            else _("player %(number)s") % {"number": index + 1}
        )
    if name == "teams":
        return _("team %(number)s") % {"number": index + 1}
    if name == "series":
        return _("series %(number)s") % {"number": number}
    if name == "tables":
        return _("table %(number)s") % {"number": number}
    if name == "deals":
        return _("deal %(number)s") % {"number": index + 1}
    if name == "byes":
        return _("bye %(number)s") % {"number": index + 1}
    if name == "penalties":
        return _("penalty %(number)s") % {"number": index + 1}
    return f"{name} {index + 1}"


def _sheet_of(table: dict[str, Any]) -> dict[str, Any]:
    """A table's fields of the game's own, as the file has them."""
    return {key: value for key, value in table.items() if key not in TABLE_FIELDS}
