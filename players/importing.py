"""Import of a player list (CSV or XLSX) in two steps: preview, then confirm.

``read_rows`` turns an uploaded file into plain rows (JSON-safe dicts, so they
can wait in the session between the two steps). ``build_preview`` checks every
row against the file and the database and says what confirming would do;
``player_import`` does it in one transaction. Nothing here needs a request.

Blank cells never overwrite what an existing player already has.
"""

from __future__ import annotations

import csv
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from typing import IO

import tablib
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models.functions import Lower
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import services
from .models import Club, Gender, Player, Team, TeamMember

MAX_ROWS = 2000

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


@dataclass
class PreviewRow:
    number: int  # the line in the spreadsheet, header being line 1
    values: dict[str, str]
    gender: str = ""
    player: Player | None = None
    action: Action = Action.CREATE
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

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


def read_rows(upload: IO[bytes], filename: str) -> list[dict[str, str]]:
    """Read a CSV or XLSX file into rows keyed by field name (``first_name``,
    ``last_name``, ``gender``, ``club``, ``licence``, ``team``); unknown
    columns are ignored. Raises ``ImportFileError``."""
    content = upload.read()
    if filename.lower().endswith(".xlsx"):
        try:
            dataset = tablib.Dataset().load(content, format="xlsx")
        except Exception as exc:  # openpyxl raises many unrelated types for a bad file
            raise ImportFileError(_("This is not a readable XLSX file.")) from exc
    elif filename.lower().endswith((".csv", ".txt")):
        dataset = _load_csv(content)
    else:
        raise ImportFileError(_("Upload a .csv or .xlsx file."))

    columns = {}
    for index, header in enumerate(dataset.headers or []):
        key = next((k for k, names in HEADERS.items() if _simplify(_cell(header)) in names), None)
        if key and key not in columns:
            columns[key] = index
    missing = [k for k in ("first_name", "last_name") if k not in columns]
    if missing:
        raise ImportFileError(
            _("The first row must name the columns; at least “imię” and “nazwisko” (first name, last name) are needed.")
        )
    if len(dataset) > MAX_ROWS:
        raise ImportFileError(_("At most %(max)d players per file.") % {"max": MAX_ROWS})
    rows = []
    for line in dataset:
        row = {key: _cell(line[columns[key]]) if key in columns else "" for key in HEADERS}
        rows.append(row)
    return rows


def _load_csv(content: bytes) -> tablib.Dataset:
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Polish Excel saves "CSV" in Windows-1250.
        text = content.decode("cp1250", errors="replace")
    try:
        delimiter = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    try:
        return tablib.Dataset().load(text, format="csv", delimiter=delimiter)
    except Exception as exc:  # tablib wraps csv errors inconsistently
        raise ImportFileError(_("This CSV file cannot be read.")) from exc


def build_preview(rows: list[dict[str, str]], *, update_existing: bool = True) -> Preview:
    """Say, row by row, what confirming the import would do and what stops it."""
    preview = Preview(rows=[PreviewRow(number=n, values=v) for n, v in enumerate(rows, start=2)])
    seen: dict[tuple[str, str], int] = {}
    for row in preview.rows:
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
        _match_player(row, update_existing)
        if not row.player and values["first_name"] and not row.gender:
            row.errors.append(_("Gender is required for a new player."))
    _check_clubs(preview)
    _check_teams(preview)
    for row in preview.rows:
        if row.errors:
            row.action = Action.ERROR
    return preview


def _match_player(row: PreviewRow, update_existing: bool) -> None:
    """Find the player a row is about: by licence, else by full name."""
    values = row.values
    if values["licence"]:
        row.player = Player.objects.filter(licence__iexact=values["licence"]).first()
    if row.player is None and values["first_name"] and values["last_name"]:
        namesakes = list(
            Player.objects.filter(first_name__iexact=values["first_name"], last_name__iexact=values["last_name"])[:2]
        )
        if len(namesakes) > 1:
            row.errors.append(
                _("Several players are called %(name)s; add the licence number to tell them apart.")
                % {"name": row.full_name}
            )
        elif namesakes and not (namesakes[0].licence and values["licence"]):
            row.player = namesakes[0]
    if row.player is None:
        row.action = Action.CREATE
    elif not update_existing:
        row.action = Action.SKIP
    else:
        row.action = Action.UPDATE if _changes(row) else Action.UNCHANGED


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


def _check_clubs(preview: Preview) -> None:
    known = set(Club.objects.annotate(key=Lower("name")).values_list("key", flat=True))
    for row in preview.rows:
        name = row.values["club"]
        if name and name.lower() not in known and row.action is not Action.SKIP:
            row.notes.append(_("will create club %(club)s") % {"club": name})


def _check_teams(preview: Preview) -> None:
    """Team cells add the player to that team; every team named must end up
    with a valid size, and nobody may already play in another active team."""
    by_team: dict[str, list[PreviewRow]] = defaultdict(list)
    for row in preview.rows:
        if row.values["team"]:
            by_team[row.values["team"].lower()].append(row)
    for rows in by_team.values():
        name = rows[0].values["team"]
        team = Team.objects.filter(name__iexact=name).first()
        current = set(team.memberships.values_list("player_id", flat=True)) if team else set()
        size = len(current) + sum(1 for r in rows if not r.player or r.player.pk not in current)
        for row in rows:
            if team is None:
                row.notes.append(_("will create team %(team)s") % {"team": name})
            elif row.player is None or row.player.pk not in current:
                row.notes.append(_("joins team %(team)s") % {"team": team.name})
            if row.player is not None:
                other = (
                    TeamMember.objects.filter(player=row.player, team_active=True)
                    .exclude(team=team)
                    .select_related("team")
                    .first()
                )
                if other:
                    row.errors.append(_("Already plays in the active team %(team)s.") % {"team": other.team})
            if not services.MIN_TEAM_SIZE <= size <= services.MAX_TEAM_SIZE:
                row.errors.append(
                    _("Team %(team)s would have %(count)d players; a team has %(min)d or %(max)d.")
                    % {
                        "team": name,
                        "count": size,
                        "min": services.MIN_TEAM_SIZE,
                        "max": services.MAX_TEAM_SIZE,
                    }
                )


@transaction.atomic
def player_import(*, preview: Preview) -> dict[Action, int]:
    """Save every row of an error-free preview; all or nothing. Returns how
    many rows ended in each action."""
    if not preview.can_confirm:
        raise ValidationError(_("Fix the errors in the file before importing."))
    clubs: dict[str, Club] = {}
    teams: dict[str, list[Player]] = defaultdict(list)
    counts: dict[Action, int] = defaultdict(int)
    for row in preview.rows:
        counts[row.action] += 1
        values, player = row.values, row.player
        if row.action is not Action.SKIP:
            club_name = values["club"]
            if club_name and club_name.lower() not in clubs:
                clubs[club_name.lower()] = services.club_get_or_create(name=club_name)
            club = clubs[club_name.lower()] if club_name else None
            if player is None:
                player = services.player_create(
                    first_name=values["first_name"],
                    last_name=values["last_name"],
                    gender=row.gender,
                    club=club,
                    licence=values["licence"],
                )
            elif row.action is Action.UPDATE:
                player = services.player_update(
                    player=player,
                    first_name=values["first_name"] or player.first_name,
                    last_name=values["last_name"] or player.last_name,
                    gender=row.gender or player.gender,
                    club=club or player.club,
                    licence=values["licence"] or player.licence,
                    active=player.active,
                )
        if values["team"]:
            teams[values["team"]].append(player)
    for name, players in teams.items():
        team = Team.objects.filter(name__iexact=name).first()
        if team is None:
            services.team_create(name=name, members=players, club=players[0].club)
        else:
            services.team_update(
                team=team,
                name=team.name,
                members=[*team.members.all(), *players],
                captain=team.captain,
                club=team.club,
                active=team.active,
            )
    return dict(counts)
