"""Import of a player list (CSV or XLSX) in two steps: preview, then confirm.

``read_rows`` turns an uploaded file into plain rows (``SheetRow``); a list that
can be confirmed waits for it as a ``PendingImport``. ``build_preview`` checks
every row against the file, the register's field limits, the database and the
user's rights and says what confirming would do; ``player_import`` does it in
one transaction. Nothing here needs a request.

A file is read lazily, a row at a time, and given up as soon as it breaks a
limit: ``MAX_ROWS`` players, ``MAX_COLUMNS`` columns looked at, ``MAX_CELL_CHARS``
characters in a cell, and for XLSX (a zip archive) ``MAX_XLSX_UNPACKED_BYTES``
unpacked. So whatever a file declares (a sheet "A1:XFD1048576", a cell of 50 MB)
costs at most the work of those limits. The upload's size is capped by the form.

Blank rows are skipped; blank cells never overwrite what an existing player
already has.
"""

from __future__ import annotations

import csv
import io
import itertools
import unicodedata
import zipfile
from collections import Counter, defaultdict
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import IO, TYPE_CHECKING

import openpyxl
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from . import selectors, services
from .models import Club, Gender, PendingImport, Player, Team, TeamMember, refuse_control_characters, search_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

MAX_ROWS = 2000
# Only the first columns are read: the named ones are expected among them.
MAX_COLUMNS = 30
# Longer than any field of the register (the longest takes 120): a cell past it is no name but an attack.
MAX_CELL_CHARS = 200
# A list of 2,000 players unpacks to about 1 MB, a zip bomb to gigabytes; 8 MB of sheet parse in about 2 s.
MAX_XLSX_UNPACKED_BYTES = 8 * 1024 * 1024
# openpyxl reads the sheet lazily but every other part whole, and some far slower than a sheet: 8 MB of
# styles took 74 s and 1.2 GB, 8 MB of shared strings 8.5 s. A player list's styles are a few KB and its
# shared strings some 200 KB, so a part past these caps is refused before openpyxl sees it.
MAX_XLSX_SHARED_STRINGS_BYTES = 2 * 1024 * 1024
MAX_XLSX_OTHER_PART_BYTES = 128 * 1024
# How much of the header line tells the CSV delimiter.
SNIFF_CHARS = 4096
# A list left unconfirmed this long is forgotten at the next upload of anybody's.
PENDING_IMPORT_HOURS = 24

# Header spellings accepted, after lower-casing and dropping accents, spaces,
# dots, dashes and underscores.
HEADERS = {
    "first_name": {"imie", "firstname", "givenname"},
    "last_name": {"nazwisko", "lastname", "surname", "familyname"},
    "gender": {"plec", "gender", "sex"},
    "club": {"klub", "club"},
    "licence": {"licencja", "nrlicencji", "licence", "license", "licencenumber", "licensenumber"},
    "team": {"druzyna", "zespol", "team"},
}
# The register's field each column is stored in: its length and characters are checked in the preview.
STORED_IN = {
    "first_name": Player._meta.get_field("first_name"),
    "last_name": Player._meta.get_field("last_name"),
    "club": Club._meta.get_field("name"),
    "licence": Player._meta.get_field("licence"),
    "team": Team._meta.get_field("name"),
}
COLUMN_LABELS = {
    "first_name": gettext_lazy("first name"),
    "last_name": gettext_lazy("last name"),
    "gender": gettext_lazy("gender"),
    "club": gettext_lazy("club"),
    "licence": gettext_lazy("licence number"),
    "team": gettext_lazy("team"),
}
GENDER_VALUES = {
    "k": Gender.WOMAN,
    "kobieta": Gender.WOMAN,
    "f": Gender.WOMAN,
    "female": Gender.WOMAN,
    "woman": Gender.WOMAN,
    "w": Gender.WOMAN,
    "m": Gender.MAN,
    "mezczyzna": Gender.MAN,
    "male": Gender.MAN,
    "man": Gender.MAN,
}


class ImportFileError(Exception):
    """The file as a whole cannot be read (format, headers, size)."""


class Action(models.TextChoices):
    CREATE = "create", gettext_lazy("will add")
    UPDATE = "update", gettext_lazy("will update")
    UNCHANGED = "unchanged", gettext_lazy("no changes")
    SKIP = "skip", gettext_lazy("skip")
    ERROR = "error", gettext_lazy("error")


@dataclass(frozen=True)
class SheetRow:
    """One non-blank row of the file: its line in the spreadsheet (the header
    being line 1) and its cells keyed by field name."""

    line: int
    values: dict[str, str]

    def as_list(self) -> list:
        """The row as the session keeps it: the line, then the cells in ``HEADERS`` order."""
        return [self.line, *(self.values[key] for key in HEADERS)]

    @classmethod
    def from_list(cls, data: Sequence) -> SheetRow:
        return cls(line=data[0], values=dict(zip(HEADERS, data[1:], strict=True)))


@dataclass
class PreviewRow:
    number: int  # the line in the spreadsheet, header being line 1
    values: dict[str, str]
    gender: str = ""
    player: Player | None = None
    action: Action = Action.CREATE
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # players of the register who are probably this row's person (``_find_duplicates``)
    duplicates: list[Player] = field(default_factory=list)
    different_person: bool = False  # the organiser said the row is none of ``duplicates``

    @property
    def undecided(self) -> bool:
        """Probable duplicates found, and neither one of them picked nor a new player confirmed."""
        return bool(self.duplicates) and self.player is None and not self.different_person

    @property
    def full_name(self) -> str:
        return f"{self.values['first_name']} {self.values['last_name']}".strip()


@dataclass
class Preview:
    rows: list[PreviewRow]

    @property
    def error_count(self) -> int:
        return sum(1 for row in self.rows if row.errors)

    @property
    def can_confirm(self) -> bool:
        return bool(self.rows) and not self.error_count

    @property
    def can_import_rest(self) -> bool:
        """Some rows have errors and the others can be imported without them ("import the rest")."""
        return 0 < self.error_count < len(self.rows)

    @property
    def undecided_count(self) -> int:
        """Rows waiting for the organiser to pick an existing player or confirm a new one."""
        return sum(1 for row in self.rows if row.undecided)


def _simplify(text: str) -> str:
    text = text.strip().lower().replace("ł", "l")
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if ch.isalnum() and not unicodedata.combining(ch))


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        # Spreadsheets store a typed-in licence number 1234 as 1234.0.
        value = int(value)
    return str(value).strip()


def read_rows(upload: IO[bytes], filename: str) -> list[SheetRow]:
    """Read a CSV or XLSX file into its non-blank rows, cells keyed by field name
    (``first_name``, ``last_name``, ``gender``, ``club``, ``licence``, ``team``);
    unknown columns are ignored. Raises ``ImportFileError``."""
    name = filename.lower()
    if name.endswith(".xlsx"):
        return _rows(_xlsx_lines(upload))
    if name.endswith((".csv", ".txt")):
        # Polish Excel saves "CSV" in Windows-1250: a file that is not UTF-8 is read again as that.
        for encoding, errors in (("utf-8-sig", "strict"), ("cp1250", "replace")):
            upload.seek(0)
            text = io.TextIOWrapper(upload, encoding=encoding, errors=errors, newline="")
            try:
                return _rows(_csv_lines(text))
            except UnicodeDecodeError:
                continue
            finally:
                text.detach()  # the upload stays open for its owner
    raise ImportFileError(_("Upload a .csv or .xlsx file."))


def _rows(lines: Generator[tuple[int, Sequence[object]], None, None]) -> list[SheetRow]:
    """The rows under the header line, read one by one until a limit is broken."""
    try:
        header = next(lines, (1, ()))[1]
        columns: dict[str, int] = {}
        for index, title in enumerate(header[:MAX_COLUMNS]):
            key = next((k for k, names in HEADERS.items() if _simplify(_cell(title)) in names), None)
            if key and key not in columns:
                columns[key] = index
        if any(key not in columns for key in ("first_name", "last_name")):
            raise ImportFileError(
                _(
                    "The first row must name the columns; at least “imię” and “nazwisko” (first name, last name) "
                    "are needed."
                )
            )
        rows = []
        for line, cells in lines:
            if not any(cells):  # the quick way past the empty rows a sheet may declare by the million
                continue
            values = {key: _cell(cells[columns[key]]) if key in columns else "" for key in HEADERS}
            for key, value in values.items():
                if len(value) > MAX_CELL_CHARS:
                    raise ImportFileError(
                        _("Row %(row)d, column “%(column)s”: a cell may hold at most %(max)d characters.")
                        % {"row": line, "column": _cell(header[columns[key]]), "max": MAX_CELL_CHARS}
                    )
            if not any(values.values()):
                continue
            if len(rows) == MAX_ROWS:
                raise ImportFileError(_("At most %(max)d players per file.") % {"max": MAX_ROWS})
            rows.append(SheetRow(line=line, values=values))
        return rows
    finally:
        lines.close()


def _csv_lines(text: io.TextIOWrapper) -> Generator[tuple[int, list[str]], None, None]:
    first = text.readline()
    try:
        delimiter = csv.Sniffer().sniff(first[:SNIFF_CHARS], delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(itertools.chain([first], text), delimiter=delimiter)
    try:
        for cells in reader:
            # as many cells as a sheet's row has, whatever the line holds
            yield reader.line_num, (cells + [""] * MAX_COLUMNS)[:MAX_COLUMNS]
    except csv.Error as exc:
        # The csv module's own cap (128 KiB a field) stops a giant cell before it is read in full.
        if "field larger than field limit" in str(exc):
            raise ImportFileError(
                _("Row %(row)d: a cell may hold at most %(max)d characters.")
                % {"row": reader.line_num, "max": MAX_CELL_CHARS}
            ) from exc
        raise ImportFileError(_("This CSV file cannot be read.")) from exc


def _xlsx_part_cap(name: str) -> int:
    """How large one part of an XLSX archive may unpack: sheets are bounded by the whole."""
    if name.startswith("xl/worksheets/"):
        return MAX_XLSX_UNPACKED_BYTES
    if name == "xl/sharedStrings.xml":
        return MAX_XLSX_SHARED_STRINGS_BYTES
    return MAX_XLSX_OTHER_PART_BYTES


def _xlsx_lines(upload: IO[bytes]) -> Generator[tuple[int, tuple[object, ...]], None, None]:
    unreadable = _("This is not a readable XLSX file.")
    try:
        with zipfile.ZipFile(upload) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise ImportFileError(unreadable) from exc
    if sum(member.file_size for member in members) > MAX_XLSX_UNPACKED_BYTES or any(
        member.file_size > _xlsx_part_cap(member.filename) for member in members
    ):
        raise ImportFileError(
            _("This XLSX file holds much more than a list of players; save the list alone in a new file.")
        )
    upload.seek(0)
    try:
        workbook = openpyxl.load_workbook(upload, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many unrelated types for a bad file
        raise ImportFileError(unreadable) from exc
    try:
        sheet = workbook.active
        # What the file says its size is ("A1:XFD1048576") is not believed: rows are read as they come.
        sheet.reset_dimensions()
        yield from enumerate(sheet.iter_rows(max_col=MAX_COLUMNS, values_only=True), start=1)
    except Exception as exc:  # as above, also for a sheet that goes bad halfway
        raise ImportFileError(unreadable) from exc
    finally:
        workbook.close()


def build_preview(
    rows: list[SheetRow],
    *,
    user: AbstractBaseUser,
    update_existing: bool = True,
    choices: Mapping[int, int | None] | None = None,
) -> Preview:
    """Say, row by row, what confirming the import would do for ``user`` and what stops it.

    Whatever passes here the confirm saves: every cell is checked against the field of
    the register it goes to (length, characters), and a row may change only players and
    teams the user may change (``players.services``). The register is read in a few
    queries for the whole file, not a few per row. A row that would add a player the
    register probably holds already lists them and waits for ``choices`` (``_find_duplicates``)."""
    preview = Preview(rows=[PreviewRow(number=row.line, values=dict(row.values)) for row in rows])
    # A cell the register cannot take is not looked up either (PostgreSQL refuses a NUL even there).
    readable = []
    for row in preview.rows:
        row.errors.extend(_cell_errors(row.values))
        if not row.errors:
            readable.append(row)
    register = _Register.read(readable)
    seen: dict[tuple[str, str], int] = {}
    for row in readable:
        values = row.values
        if not values["first_name"] or not values["last_name"]:
            row.errors.append(_("First name and last name are required."))
        if values["gender"]:
            row.gender = GENDER_VALUES.get(_simplify(values["gender"]), "")
            if not row.gender:
                row.errors.append(_("Unknown gender “%(value)s”; use K or M.") % {"value": values["gender"]})
        for key in (("licence", values["licence"].lower()), ("name", row.full_name.lower())):
            if key[1] and key in seen:
                row.errors.append(_("Duplicate of row %(row)d.") % {"row": seen[key]})
                break
            seen.setdefault(key, row.number)
        _match_player(row, update_existing, register)
    _find_duplicates(readable, update_existing, choices or {})
    for row in readable:
        # an unknown gender has been said already; "required" would repeat it
        if not row.player and row.values["first_name"] and not row.values["gender"] and not row.undecided:
            row.errors.append(_("Gender is required for a new player."))
    _check_rights(readable, user)
    _check_clubs(readable)
    _check_teams(readable, user, register)
    for row in preview.rows:
        if row.errors:
            row.action = Action.ERROR
    return preview


def _cell_errors(values: dict[str, str]) -> list[str]:
    """What the register's fields would refuse of these cells, each naming its column."""
    errors = []
    for key, value in values.items():
        if not value:
            continue
        try:
            if key in STORED_IN:
                STORED_IN[key].run_validators(value)
            else:
                refuse_control_characters(value)
        except ValidationError as error:
            errors += [f"{capfirst(COLUMN_LABELS[key])}: {message}" for message in error.messages]
    return errors


@dataclass
class _Register:
    """The players and teams of the register that a file's rows may name, keyed by
    lower-cased licence, case-folded full name and team name, fetched in a few queries
    (``selectors.matching``). Names are looked up by their folded ``search_name`` and compared
    in Python: the database's ``LOWER()`` leaves Ż, Ś and Ł as they are on SQLite, so "ŻAK"
    would miss Żak; a name that differs in more than case (Zak) is no match but a probable
    duplicate (``_find_duplicates``)."""

    by_licence: dict[str, dict[int, Player]]
    by_name: dict[tuple[str, str], dict[int, Player]]
    teams: dict[str, Team]
    members: dict[int, set[int]]  # team → its players

    @classmethod
    def read(cls, rows: list[PreviewRow]) -> _Register:
        players = Player.objects.select_related("club")
        licences = {row.values["licence"] for row in rows if row.values["licence"]}
        names = {(row.values["first_name"], row.values["last_name"]) for row in rows if row.values["last_name"]}
        register = cls(by_licence=defaultdict(dict), by_name=defaultdict(dict), teams={}, members=defaultdict(set))
        for player in selectors.matching(queryset=players, lookups=[Q(licence__iexact=lic) for lic in licences]):
            register.by_licence[player.licence.lower()][player.pk] = player
        lookups = [Q(search_name=search_key(f"{first} {last}")) for first, last in names]
        for player in selectors.matching(queryset=players, lookups=lookups):
            register.by_name[_name(player.first_name, player.last_name)][player.pk] = player
        lookups = [Q(name__iexact=name) for name in {row.values["team"] for row in rows if row.values["team"]}]
        register.teams = {
            team.name.lower(): team for team in selectors.matching(queryset=Team.objects.all(), lookups=lookups)
        }
        for team, player in TeamMember.objects.filter(team__in=register.teams.values()).values_list("team", "player"):
            register.members[team].add(player)
        return register


def _match_player(row: PreviewRow, update_existing: bool, register: _Register) -> None:
    """Find the player a row is about: by licence, else by full name."""
    values = row.values
    if values["licence"]:
        row.player = next(iter(register.by_licence[values["licence"].lower()].values()), None)
    if row.player is None and values["first_name"] and values["last_name"]:
        namesakes = list(register.by_name[_name(values["first_name"], values["last_name"])].values())
        if len(namesakes) > 1:
            row.errors.append(
                _("Several players are called %(name)s; add the licence number to tell them apart.")
                % {"name": row.full_name}
            )
        elif namesakes and not (namesakes[0].licence and values["licence"]):
            row.player = namesakes[0]
    _set_action(row, update_existing)


def _name(first_name: str, last_name: str) -> tuple[str, str]:
    """A full name as the importer matches it: ignoring case (in Python, which folds Ż as well as Z)."""
    return (first_name.casefold(), last_name.casefold())


def _set_action(row: PreviewRow, update_existing: bool) -> None:
    if row.player is None:
        row.action = Action.CREATE
    elif not update_existing:
        row.action = Action.SKIP
    else:
        row.action = Action.UPDATE if _changes(row) else Action.UNCHANGED


def _find_duplicates(rows: list[PreviewRow], update_existing: bool, choices: Mapping[int, int | None]) -> None:
    """Rows that would add a player the register probably holds already
    (``selectors.players_probable_duplicates``) get the candidates in ``duplicates`` and wait
    for the organiser's choice (``choices``: row number → a candidate's primary key, or None for
    "a different person"). A candidate chosen is the row's player, under the name the register
    has for them: the file's other spelling is what made them look like someone else."""
    new = [row for row in rows if row.action is Action.CREATE and not row.errors and row.values["last_name"]]
    clubs = {club.name.lower(): club for club in selectors.clubs_named(names={r.values["club"] for r in new})}
    people = [
        selectors.Person(row.values["first_name"], row.values["last_name"], clubs.get(row.values["club"].lower()))
        for row in new
    ]
    for row, duplicates in zip(new, selectors.players_probable_duplicates(people=people), strict=True):
        row.duplicates = duplicates
        chosen = choices.get(row.number, "")
        if chosen is None:
            row.different_person = True
            continue
        row.player = next((player for player in duplicates if player.pk == chosen), None)
        if row.player is None:
            continue
        row.values["first_name"], row.values["last_name"] = row.player.first_name, row.player.last_name
        _set_action(row, update_existing)


def _changes(row: PreviewRow) -> dict[str, str]:
    """The player fields a row would change (blank cells change nothing)."""
    player, values = row.player, row.values
    wanted = {
        "first_name": values["first_name"],
        "last_name": values["last_name"],
        "gender": row.gender,
        "licence": values["licence"],
    }
    changes = {k: v for k, v in wanted.items() if v and v != getattr(player, k)}
    if values["club"] and (player.club is None or player.club.name.lower() != values["club"].lower()):
        changes["club"] = values["club"]
    return changes


def _check_rights(rows: list[PreviewRow], user: AbstractBaseUser) -> None:
    """A row may update only a player the user may change; naming another one unchanged is fine."""
    updated = {row.player.pk for row in rows if row.action is Action.UPDATE}
    allowed = set(
        selectors.players_editable_by(user=user, players=Player.objects.filter(pk__in=updated)).values_list(
            "pk", flat=True
        )
    )
    for row in rows:
        if row.action is Action.UPDATE and row.player.pk not in allowed:
            row.errors.append(services.player_refusal(player=row.player))


def _check_clubs(rows: list[PreviewRow]) -> None:
    known = set(Club.objects.annotate(key=Lower("name")).values_list("key", flat=True))
    for row in rows:
        name = row.values["club"]
        if name and name.lower() not in known and row.action is not Action.SKIP:
            row.notes.append(_("will create club %(club)s") % {"club": name})


def _check_teams(rows: list[PreviewRow], user: AbstractBaseUser, register: _Register) -> None:
    """Team cells add the player to that team (spelt in any case); every team
    named must end up with a valid size, the user must be allowed to change an
    existing team that somebody joins, and nobody may already play in another
    active team."""
    by_team: dict[str, list[PreviewRow]] = defaultdict(list)
    for row in rows:
        if row.values["team"]:
            by_team[row.values["team"].lower()].append(row)
    joined = [
        register.teams[key].pk
        for key, team_rows in by_team.items()
        if key in register.teams
        and any(r.player is None or r.player.pk not in register.members[register.teams[key].pk] for r in team_rows)
    ]
    allowed = set(
        selectors.teams_editable_by(user=user, teams=Team.objects.filter(pk__in=joined)).values_list("pk", flat=True)
    )
    named = [row.player for team_rows in by_team.values() for row in team_rows if row.player]
    active_team = {
        membership.player_id: membership.team
        for membership in TeamMember.objects.filter(player__in=named, team_active=True).select_related("team")
    }
    for key, team_rows in by_team.items():
        name, team = team_rows[0].values["team"], register.teams.get(key)
        current = register.members[team.pk] if team else set()
        if team is not None and team.pk in joined and team.pk not in allowed:
            for row in team_rows:
                row.errors.append(services.team_refusal(team=team))
            continue
        size = len(current) + sum(1 for r in team_rows if not r.player or r.player.pk not in current)
        for row in team_rows:
            if team is None:
                row.notes.append(_("will create team %(team)s") % {"team": name})
            elif row.player is None or row.player.pk not in current:
                row.notes.append(_("joins team %(team)s") % {"team": team.name})
            other = active_team.get(row.player.pk) if row.player else None
            if other is not None and other != team:
                row.errors.append(_("Already plays in the active team %(team)s.") % {"team": other})
            if not services.MIN_TEAM_SIZE <= size <= services.MAX_TEAM_SIZE:
                row.errors.append(
                    ngettext(
                        "Team %(team)s would have %(count)d player; a team has %(min)d or %(max)d.",
                        "Team %(team)s would have %(count)d players; a team has %(min)d or %(max)d.",
                        size,
                    )
                    % {
                        "team": name,
                        "count": size,
                        "min": services.MIN_TEAM_SIZE,
                        "max": services.MAX_TEAM_SIZE,
                    }
                )


@dataclass(frozen=True)
class ImportResult:
    """What an import did: how many rows ended in each action, how many rows with errors were
    skipped at the organiser's word, and how many clubs and teams it created."""

    actions: dict[Action, int]
    skipped: int
    clubs: int
    teams: int


@transaction.atomic
def player_import(*, preview: Preview, user: AbstractBaseUser, skip_errors: bool = False) -> ImportResult:
    """Save every row of the preview on behalf of ``user`` (who is recorded as having added the
    new players and teams); all or nothing, in a few queries per table rather than per row. Rows
    with errors are refused, unless ``skip_errors`` (the organiser chose to import the rest)."""
    if not (preview.can_confirm or (skip_errors and preview.can_import_rest)):
        raise ValidationError(_("Fix the errors in the file before importing."))
    if preview.undecided_count:
        raise ValidationError(
            _("For every probable duplicate, pick the player of the register or confirm a different person.")
        )
    rows = [row for row in preview.rows if not row.errors]
    saved = [row for row in rows if row.action is not Action.SKIP]
    clubs, new_clubs = services.club_bulk_get_or_create(
        names=[row.values["club"] for row in saved if row.values["club"]]
    )
    added, changed = [], []
    for row in saved:
        values = row.values
        club = clubs[values["club"].lower()] if values["club"] else None
        if row.player is None:
            row.player = Player(
                first_name=values["first_name"],
                last_name=values["last_name"],
                gender=row.gender,
                club=club,
                licence=values["licence"],
            )
            added.append(row.player)
        elif row.action is Action.UPDATE:
            player = row.player
            player.first_name = values["first_name"] or player.first_name
            player.last_name = values["last_name"] or player.last_name
            player.gender = row.gender or player.gender
            player.club = club or player.club
            player.licence = values["licence"] or player.licence
            changed.append(player)
    services.player_bulk_create(players=added, created_by=user)
    services.player_bulk_update(
        players=changed, user=user, fields=["first_name", "last_name", "gender", "club", "licence"]
    )
    teams = _save_teams(rows, user)
    return ImportResult(
        actions=dict(Counter(row.action for row in rows)),
        skipped=len(preview.rows) - len(rows),
        clubs=new_clubs,
        teams=teams,
    )


def _save_teams(rows: list[PreviewRow], user: AbstractBaseUser) -> int:
    """Put the players of the rows into the teams their cells name (spelt in any case, the
    first spelling naming a new team); a team nobody joins is not changed. Returns how many
    teams were created."""
    created = 0
    teams: dict[str, tuple[str, list[Player]]] = {}
    for row in rows:
        if row.values["team"]:
            teams.setdefault(row.values["team"].lower(), (row.values["team"], []))[1].append(row.player)
    lookups = [Q(name__iexact=name) for name, _players in teams.values()]
    existing = {team.name.lower(): team for team in selectors.matching(queryset=Team.objects.all(), lookups=lookups)}
    for key, (name, players) in teams.items():
        team = existing.get(key)
        if team is None:
            services.team_create(name=name, members=players, club=players[0].club, created_by=user)
            created += 1
            continue
        members = list(team.members.all())
        if any(player not in members for player in players):
            services.team_update(
                team=team,
                user=user,
                name=team.name,
                members=[*members, *players],
                captain=team.captain,
                club=team.club,
                active=team.active,
            )
    return created


def pending_import_create(
    *, user: AbstractBaseUser, filename: str, rows: list[SheetRow], update_existing: bool
) -> PendingImport:
    """Keep a previewed list until ``user`` confirms it, in place of their earlier one;
    lists left unconfirmed for ``PENDING_IMPORT_HOURS`` are forgotten on the way."""
    stale = timezone.now() - timedelta(hours=PENDING_IMPORT_HOURS)
    PendingImport.objects.filter(Q(user=user) | Q(created__lt=stale)).delete()
    return PendingImport.objects.create(
        user=user, filename=filename, rows=[row.as_list() for row in rows], update_existing=update_existing
    )


def pending_import_get(*, pk: int | None, user: AbstractBaseUser) -> PendingImport | None:
    """The list ``user`` left waiting under ``pk``; nobody else's."""
    return PendingImport.objects.filter(pk=pk, user=user).first() if pk else None


def pending_import_rows(*, pending: PendingImport) -> list[SheetRow]:
    return [SheetRow.from_list(data) for data in pending.rows]


def pending_import_delete(*, pending: PendingImport) -> None:
    pending.delete()
