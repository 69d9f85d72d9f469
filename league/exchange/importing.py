"""Reading an exchange file into the database: check everything, then write everything.

The first pass reads the whole file, matches clubs, teams and players with the
database, values every protocol through ``scoring`` and builds unsaved model
objects; it writes nothing. Only a file without a single error reaches the
second pass, which saves the objects. Both passes run in one transaction, so
even an unexpected database error leaves nothing behind.

Lists are addressed from 0 in error paths (``series[1]`` is the second
series), as ``scoring`` does for the deals of a protocol.

A tournament's ``game`` reads its own settings and each table's ``deals`` (``GameRules.import_settings``,
``import_rows``), each as that game writes them (docs/interfaces.md), valued by the game as the
protocol stores them.

A file whose ``tournament_id`` is a stored tournament's may replace it (``replacing``): the stored
row keeps what the file does not carry (its staff, season, publication, logo), and everything the
file does carry is written anew. The organiser may also say which stored player a file's player is
(``players``), where the file alone would add a new one.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction
from django.utils.translation import gettext as _

import scoring
from league.games import (
    default_game,
    game_of,
    linked_clear,
    linked_hold_none,
    registered_games,
    tournament_rules_check,
)
from league.models import MAX_PLAYERS, Bye, Registration, Series, TableAssignment, Tournament
from league.results.models import DealRow, DealRowVersion, Penalty, PenaltyVersion, Protocol
from league.results.penalties.services import BIG_POINTS_LIMIT, penalty_version_record
from league.results.services import deal_rows_new
from league.standings.refresh import standings_touch
from league.tournaments.services import series_ensure
from players.models import Club, Gender, Player, Team
from scoring import preferans
from scoring.deal import MAX_WRITTEN_VALUE
from scoring.fields import join, read_bool, read_int, read_list, read_number, read_object, read_str, show

from .format import FORMAT, INVALID_INPUT, ExchangeError, table_fields, team_ranking_fields, tournament_fields

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

_ERR = INVALID_INPUT
# The fields each object may have; the spec's fields first, then the optional
# extensions that make an export complete (licence, own rules, early ends …).
_TOP_FIELDS = ("format", "tournament", "teams", "players", "series")
_TOURNAMENT_REQUIRED = ("name", "slug", "date", "ruleset", "series_count", "deals_per_series")
_TEAM_FIELDS = ("id", "name", "club")
_PLAYER_FIELDS = ("id", "first_name", "last_name", "gender", "club", "team", "licence")
_SERIES_FIELDS = ("number", "tables", "byes", "penalties")
_PENALTY_FIELDS = ("player", "small_points", "big_points", "reason")
# Tournament fields whose name in the file differs from the model's.
# (A game names its own places, ``GameRules.exchange_places``, and its settings': ``GameSettings.exchange_keys``.)
_TOURNAMENT_RENAMES = {
    "organiser_name": "organiser",
    "team_best_of": "team_ranking",
    "exchange_id": "tournament_id",
}
# The tournament's fields an exchange file gives; a replaced tournament keeps its others.
# A game's own rows (Baśka's own rules) go with the file's rules: the file carries them as ``ruleset_data``.
_FILE_FIELDS = (
    "name",
    "slug",
    "date",
    "venue",
    "organiser_name",
    "game_settings",
    "series_count",
    "uses_big_points",
    "team_ranking",
    "team_best_of",
    "game",
    "table_size",
    "exchange_id",
)
IMPORT_AUTHOR = "import"
# What the database columns hold: an id as the registration keeps it and a deal's
# value (an integer); the largest tournament has a table per four players.
_ID_LENGTH = Registration._meta.get_field("external_id").max_length
_TABLE_MAX = MAX_PLAYERS // 4
_VALUE_RANGE = range(-(2**31), 2**31)
# The format nests eight deep (the top, series, a series, tables, a table, deals, a
# deal, its values); the spare levels are for optional fields yet to come.
MAX_DEPTH = 10


@dataclass(frozen=True)
class _Table:
    number: int
    seats: dict[str, Player]
    deals: list[dict[str, Any]]
    score: scoring.ProtocolResult | preferans.TableScore  # valued by the game, as the protocol stores it
    ended_early: bool
    protocol_fields: dict[str, Any]  # the game's own fields of the protocol


@dataclass(frozen=True)
class _Penalty:
    player: Player
    small_points: int
    big_points: Decimal
    reason: str


@dataclass(frozen=True)
class _Series:
    number: int
    tables: list[_Table]
    byes: list[Player]
    penalties: list[_Penalty]


@dataclass(frozen=True)
class ImportPlan:
    """Everything the file asks for, checked and not yet saved: the tournament (the stored one,
    changed, when it replaces one), each registration's player (``pk`` None for a new one)."""

    tournament: Tournament
    new_objects: list[Club | Player | Team]  # in saving order: every object after what it refers to
    registrations: list[Registration]  # unsaved, with the file's ids
    series: list[_Series]


@transaction.atomic
def import_tournament(
    data: Any,
    *,
    user: AbstractBaseUser | None = None,
    players: Mapping[str, int] | None = None,
    replacing: Tournament | None = None,
) -> Tournament:
    """Create the tournament described by a parsed exchange file; ``user``, who imports it,
    is named in the history of its referee penalties. ``players`` maps a file's player id to
    the stored player (primary key) the organiser said it is; ``replacing``, a stored tournament
    the file's ``tournament_id`` names, is rewritten from the file instead of a new one made.

    Raises :class:`ExchangeError` naming the place of the first problem; the
    database is then unchanged.
    """
    return import_write(import_plan(data, players=players, replacing=replacing), user=user)


def import_plan(
    data: Any, *, players: Mapping[str, int] | None = None, replacing: Tournament | None = None
) -> ImportPlan:
    """The first pass of :func:`import_tournament` alone: the file checked and matched with the
    register, nothing written (what a preview shows). Raises :class:`ExchangeError` as it does."""
    try:
        return _Reader(players or {}, replacing).read(data)
    except scoring.ScoringError as err:
        # raised by the scoring.fields readers, which are given full paths
        raise ExchangeError(err.path or "", err.message) from err


def _located(err: scoring.ScoringError, prefix: str) -> ExchangeError:
    """A scoring error whose path is relative (``deals[7]``) placed in the file."""
    return ExchangeError(f"{prefix}.{err.path}" if err.path else prefix, err.message)


def _clean(obj: models.Model, base: str, renames: Mapping[str, str] | None = None) -> None:
    """Run the model's own validation (and a tournament's game's), naming the file field of the
    first problem (``renames`` maps a model field to the file's name, "" to ``base`` itself)."""
    try:
        obj.full_clean()
        if isinstance(obj, Tournament):
            game = game_of(obj)
            game.tournament_check(obj, game.settings(obj))
            tournament_rules_check(obj)
    except ValidationError as err:
        field, messages = next(iter(err.message_dict.items()))
        name = "" if field == NON_FIELD_ERRORS else (renames or {}).get(field, field)
        raise ExchangeError(join(base, name) if name else base, " ".join(messages)) from err


def _text(obj: Mapping[str, Any], key: str, path: str, *, default: str | None = None) -> str:
    """A string member, stripped; ``default`` when absent or null."""
    value = obj.get(key)
    if value is None and default is not None:
        return default
    return read_str(value, join(path, key), _ERR).strip()


class _Reader:
    """The first pass: turns the file into a :class:`_Plan` or raises."""

    def __init__(self, chosen: Mapping[str, int], replacing: Tournament | None) -> None:
        self.chosen = chosen  # file id → the stored player's pk, as the organiser chose
        self.replacing = replacing
        self.clubs: dict[str, Club] = {}  # by case-folded name
        self.teams: dict[str, Team] = {}  # by the file's id
        self.players: dict[str, Player] = {}  # by the file's id
        self.people: dict[tuple[str, ...], str] = {}  # who a player is → their id in the file
        self.new_objects: list[Club | Player | Team] = []
        self.byes_given: dict[str, str] = {}  # player id → path of the bye
        self.tournament: Tournament
        self.rules: scoring.Ruleset | preferans.TournamentRules  # what the standings read: byes, penalties

    def read(self, data: Any) -> ImportPlan:
        if not isinstance(data, dict):
            raise ExchangeError("", _("the file must hold a JSON object"))
        _check_values(data, "")
        top = read_object(data, "", _ERR, allowed=_TOP_FIELDS, required=("format", "tournament", "players"))
        if top["format"] != FORMAT:
            raise ExchangeError(
                "format", _("expected %(format)s, got %(got)s") % {"format": show(FORMAT), "got": show(top["format"])}
            )
        self.tournament, self.rules = self.read_tournament(top["tournament"])
        teams_limit = _("a tournament has at most %(max)s teams") % {"max": MAX_PLAYERS}
        for i, entry in enumerate(_bounded_list(top.get("teams", []), "teams", MAX_PLAYERS, teams_limit)):
            self.read_team(entry, join("teams", i))
        players_limit = _("a tournament has at most %(max)s players") % {"max": MAX_PLAYERS}
        registrations = [
            self.read_player(entry, join("players", i))
            for i, entry in enumerate(_bounded_list(top["players"], "players", MAX_PLAYERS, players_limit))
        ]
        numbers: dict[int, str] = {}
        series = []
        for i, entry in enumerate(read_list(top.get("series", []), "series", _ERR)):
            path = join("series", i)
            one = self.read_series(entry, path)
            if one.number in numbers:
                message = _("series %(number)s is already given at %(place)s") % {
                    "number": one.number,
                    "place": numbers[one.number],
                }
                raise ExchangeError(join(path, "number"), message)
            numbers[one.number] = path
            series.append(one)
        return ImportPlan(self.tournament, self.new_objects, registrations, series)

    def read_tournament(self, data: Any) -> tuple[Tournament, scoring.Ruleset | preferans.TournamentRules]:
        """The tournament and the rules its standings read (byes, penalties), its game's settings
        read by the game."""
        path = "tournament"
        obj = read_object(data, path, _ERR, allowed=tournament_fields(), required=_TOURNAMENT_REQUIRED)
        tournament = Tournament(
            name=_text(obj, "name", path),
            slug=_text(obj, "slug", path),
            date=_text(obj, "date", path),  # full_clean() below parses and checks it
            venue=_text(obj, "venue", path, default=""),
            organiser_name=_text(obj, "organiser", path, default=""),
            series_count=read_int(obj["series_count"], join(path, "series_count"), _ERR, minimum=1),
            uses_big_points=read_bool(obj.get("uses_big_points", True), join(path, "uses_big_points"), _ERR),
            **team_ranking_fields(obj.get("team_ranking", "sum"), join(path, "team_ranking")),
            **_game_fields(obj, path),
        )
        if "tournament_id" in obj:
            tournament.exchange_id = _uuid(obj["tournament_id"], join(path, "tournament_id"))
        if self.replacing is not None:
            _keep_stored(tournament, self.replacing)
            linked_hold_none(tournament)  # the stored one's own rows are not the file's
        game = game_of(tournament)
        _clean(tournament, path, {**_TOURNAMENT_RENAMES, **game.exchange_places, **game.settings_class.exchange_keys})
        try:
            rules = game.standing_rules(tournament)
        except scoring.ScoringError as err:
            raise _located(err, join(path, "ruleset_data")) from err
        return tournament, rules

    def read_club(self, name: Any, path: str) -> Club | None:
        """The club called ``name`` (case-insensitively), a new one when unknown; None for no club."""
        if name is None or name == "":
            return None
        name = read_str(name, path, _ERR).strip()
        key = name.casefold()
        if key not in self.clubs:
            club = Club.objects.filter(name__iexact=name).first()
            if club is None:
                club = Club(name=name)
                _clean(club, path, {"name": ""})
                self.new_objects.append(club)
            self.clubs[key] = club
        return self.clubs[key]

    def read_id(self, obj: Mapping[str, Any], path: str, taken: Collection[str]) -> str:
        ref = read_str(obj["id"], join(path, "id"), _ERR)
        if not ref or ref in taken:
            raise ExchangeError(join(path, "id"), _("the id %(id)s is empty or already used") % {"id": show(ref)})
        if len(ref) > _ID_LENGTH:
            raise ExchangeError(join(path, "id"), _("an id has at most %(max)s characters") % {"max": _ID_LENGTH})
        return ref

    def read_team(self, data: Any, path: str) -> None:
        obj = read_object(data, path, _ERR, allowed=_TEAM_FIELDS, required=("id", "name"))
        ref = self.read_id(obj, path, self.teams)
        name = _text(obj, "name", path)
        if any(team.name.casefold() == name.casefold() for team in self.teams.values()):
            raise ExchangeError(join(path, "name"), _("another team is also called %(name)s") % {"name": show(name)})
        team = Team.objects.filter(name__iexact=name).first()
        if team is None:
            team = Team(name=name, club=self.read_club(obj.get("club"), join(path, "club")))
            _clean(team, path)
            self.new_objects.append(team)
        self.teams[ref] = team

    def read_player(self, data: Any, path: str) -> Registration:
        """A player of the file, matched with a stored player or new, registered
        with their team; the registration keeps the file's ids for the standings."""
        obj = read_object(
            data, path, _ERR, allowed=_PLAYER_FIELDS, required=("id", "first_name", "last_name", "gender")
        )
        ref = self.read_id(obj, path, self.players)
        first_name, last_name = _text(obj, "first_name", path), _text(obj, "last_name", path)
        gender = read_str(obj["gender"], join(path, "gender"), _ERR, choices=Gender.values)
        licence = _text(obj, "licence", path, default="")
        club = self.read_club(obj.get("club"), join(path, "club"))
        team_ref = obj.get("team")
        if team_ref is not None and (not isinstance(team_ref, str) or team_ref not in self.teams):
            raise ExchangeError(
                join(path, "team"), _("unknown team %(team)s; give an id from teams") % {"team": show(team_ref)}
            )

        player = (
            self.chosen_player(ref, path) if ref in self.chosen else _find_player(first_name, last_name, club, licence)
        )
        if player is None:
            player = Player(first_name=first_name, last_name=last_name, gender=gender, club=club, licence=licence)
            _clean(player, path)
            self.new_objects.append(player)
        person = _person(player)
        if person in self.people:
            raise ExchangeError(
                path, _("this is the same player as %(player)s") % {"player": show(self.people[person])}
            )
        self.people[person] = ref
        self.players[ref] = player
        return Registration(
            player=player,
            team=self.teams.get(team_ref),
            checked_in=True,
            external_id=ref,
            team_external_id=team_ref or "",
        )

    def chosen_player(self, ref: str, path: str) -> Player:
        """The stored player the organiser chose for the file's player ``ref``."""
        player = Player.objects.filter(pk=self.chosen[ref]).select_related("club").first()
        if player is None:
            raise ExchangeError(path, _("the player chosen from the register is no longer there"))
        return player

    def read_series(self, data: Any, path: str) -> _Series:
        obj = read_object(data, path, _ERR, allowed=_SERIES_FIELDS, required=("number",))
        number = read_int(obj["number"], join(path, "number"), _ERR, minimum=1, maximum=self.tournament.series_count)
        seated: dict[str, str] = {}  # player id → where they sit in this series
        tables: dict[int, _Table] = {}
        tables_path = join(path, "tables")
        for i, entry in enumerate(read_list(obj.get("tables", []), tables_path, _ERR)):
            table = self.read_table(entry, join(tables_path, i), seated)
            if table.number in tables:
                raise ExchangeError(
                    join(join(tables_path, i), "number"),
                    _("table %(number)s is given twice") % {"number": table.number},
                )
            tables[table.number] = table
        byes_path = join(path, "byes")
        byes = []
        for i, ref in enumerate(read_list(obj.get("byes", []), byes_path, _ERR)):
            bye_path = join(byes_path, i)
            byes.append(self.seat(ref, bye_path, seated))
            if ref in self.byes_given:
                # the database allows one bye per player per tournament
                raise ExchangeError(
                    bye_path,
                    _("player %(player)s already has a bye at %(place)s")
                    % {"player": show(ref), "place": self.byes_given[ref]},
                )
            self.byes_given[ref] = bye_path
        if byes:
            try:
                scoring.bye_compensation(self.rules, len(byes))  # refuses more byes than the ruleset pays
            except scoring.ScoringError as err:
                raise ExchangeError(byes_path, err.message) from err
        penalties_path = join(path, "penalties")
        penalties = [
            self.read_penalty(entry, join(penalties_path, i))
            for i, entry in enumerate(read_list(obj.get("penalties", []), penalties_path, _ERR))
        ]
        one = _Series(number, list(tables.values()), byes, penalties)
        if penalties:
            self.check_penalties(one, path)
        return one

    def read_penalty(self, data: Any, path: str) -> _Penalty:
        """A referee's penalty; whether its player is in the series is for :meth:`check_penalties`."""
        obj = read_object(data, path, _ERR, allowed=_PENALTY_FIELDS, required=("player", "reason"))
        ref = obj["player"]
        player = self.players.get(ref) if isinstance(ref, str) else None
        if player is None:
            raise ExchangeError(
                join(path, "player"), _("unknown player %(player)s; give an id from players") % {"player": show(ref)}
            )
        small = obj.get("small_points", 0)
        small = read_int(small, join(path, "small_points"), _ERR, minimum=_VALUE_RANGE[0], maximum=_VALUE_RANGE[-1])
        big_path = join(path, "big_points")
        big = Decimal(str(read_number(obj.get("big_points", 0), big_path, _ERR, minimum=-float(BIG_POINTS_LIMIT))))
        if big > BIG_POINTS_LIMIT or big != round(big, 2):
            raise ExchangeError(
                big_path, _("expected a number of at most %(max)s with two decimal places") % {"max": BIG_POINTS_LIMIT}
            )
        reason = _text(obj, "reason", path)
        if not reason:
            raise ExchangeError(join(path, "reason"), _("a penalty needs a reason"))
        if not small and not big:
            raise ExchangeError(path, _("a penalty changes small or big points; both are 0"))
        return _Penalty(player, small, big, reason)

    def check_penalties(self, series: _Series, path: str) -> None:
        """Let ``scoring`` judge the series' penalties as the standings will count them: each
        player played or had a bye in the series, and big points only where the ruleset allows."""
        # each file id has a player object of its own (read_player refuses the same person twice)
        refs = {id(player): ref for ref, player in self.players.items()}

        def ref(player: Player) -> str:
            return refs[id(player)]

        result = scoring.SeriesResult(
            [
                scoring.TableResult({seat: ref(p) for seat, p in table.seats.items()}, table.score.totals)
                for table in series.tables
            ],
            [ref(player) for player in series.byes],
            [scoring.Penalty(ref(p.player), p.small_points, float(p.big_points), p.reason) for p in series.penalties],
        )
        try:
            scoring.accumulate([result], self.rules)
        except scoring.ScoringError as err:
            # the path scoring gives names the only series it was shown: put the file's in its place
            place = join(path, (err.path or "").removeprefix("series[0]").lstrip("."))
            if err.code == "penalty_not_in_series":
                place = join(place, "player")
            raise ExchangeError(place, err.message) from err

    def read_table(self, data: Any, path: str, seated: dict[str, str]) -> _Table:
        obj = read_object(data, path, _ERR, allowed=table_fields(), required=("number", "seats"))
        number = read_int(obj["number"], join(path, "number"), _ERR, minimum=1, maximum=_TABLE_MAX)
        seats_path = join(path, "seats")
        refs = obj["seats"]
        table_seats = self.tournament.seats
        unknown = [seat for seat in refs if seat not in table_seats] if isinstance(refs, dict) else []
        if unknown:
            params = {"seat": unknown[0], "seats": ", ".join(table_seats)}
            raise scoring.ScoringError("unknown_table_seat", params, join(seats_path, unknown[0]))
        read_object(refs, seats_path, _ERR, allowed=table_seats, required=table_seats)
        seats = {seat: self.seat(refs[seat], join(seats_path, seat), seated) for seat in table_seats}
        game = game_of(self.tournament)
        protocol_fields = game.import_table(obj, path)
        score = game.import_rows(
            tournament=self.tournament,
            entries=obj.get("deals", []),
            path=path,
            protocol_fields=protocol_fields,
        )
        rows = score.rows
        for i, row in enumerate(rows):
            if any(value not in _VALUE_RANGE for value in row.values.values()):
                raise ExchangeError(join(join(path, "deals"), i), _("a deal's values are too large to be stored"))
        ended_early = read_bool(obj.get("ended_early", False), join(path, "ended_early"), _ERR)
        return _Table(number, seats, obj.get("deals", []), score, ended_early, protocol_fields)

    def seat(self, ref: Any, path: str, seated: dict[str, str]) -> Player:
        """The player a seat or bye names; each plays at most once per series."""
        player = self.players.get(ref) if isinstance(ref, str) else None
        if player is None:
            raise ExchangeError(path, _("unknown player %(player)s; give an id from players") % {"player": show(ref)})
        if ref in seated:
            raise ExchangeError(
                path,
                _("player %(player)s already plays in this series at %(place)s")
                % {"player": show(ref), "place": seated[ref]},
            )
        seated[ref] = path
        return player


def _game_fields(obj: Mapping[str, Any], path: str) -> dict[str, Any]:
    """The tournament fields for the file's ``game`` (the default game when absent) and the
    settings of its own that the game reads."""
    games = registered_games()
    game = read_str(obj.get("game", default_game()), join(path, "game"), _ERR, choices=list(games))
    return {"game": game, **games[game].import_settings(obj, path)}


def _uuid(value: Any, path: str) -> uuid.UUID:
    text = read_str(value, path, _ERR)
    try:
        return uuid.UUID(text)
    except ValueError as err:
        raise ExchangeError(
            path,
            _("expected a UUID such as %(example)s, got %(got)s")
            % {"example": show(str(uuid.UUID(int=0))), "got": show(text)},
        ) from err


def _keep_stored(tournament: Tournament, stored: Tournament) -> None:
    """Make ``tournament`` read from a file the stored one it replaces: the same row, keeping
    every field the file does not give (staff, season, publication, logo stay as they were)."""
    for field in Tournament._meta.concrete_fields:
        if field.name not in _FILE_FIELDS:
            setattr(tournament, field.attname, getattr(stored, field.attname))
    tournament._state.adding = False  # so the uniqueness checks leave the stored row out


def _bounded_list(value: Any, path: str, limit: int, message: str) -> list[Any]:
    """A list of at most ``limit`` entries; the first one too many is named, with ``message``."""
    entries = read_list(value, path, _ERR)
    if len(entries) > limit:
        raise ExchangeError(join(path, limit), message)
    return entries


def _check_values(value: Any, path: str, depth: int = 0) -> None:
    """Refuse what no field of the format holds and the database cannot store: text
    with a NUL character or a lone surrogate (a ``\\ud800`` escape, half of a
    character), a number beyond any score (an infinity, not a number, or an integer
    too long to convert), and nesting deeper than the format's."""
    if isinstance(value, str):
        if "\x00" in value or not _encodable(value):
            raise ExchangeError(path, _("the text holds a NUL character or invalid unicode"))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        # no comparison with NaN holds, so it is refused too
        if not -MAX_WRITTEN_VALUE <= value <= MAX_WRITTEN_VALUE:
            raise ExchangeError(
                path, _("no number in an exchange file lies beyond ±%(max)s") % {"max": MAX_WRITTEN_VALUE}
            )
    elif isinstance(value, dict | list):
        if depth == MAX_DEPTH:
            raise ExchangeError(path, _("nested deeper than the %(depth)s levels of the format") % {"depth": MAX_DEPTH})
        if isinstance(value, dict):
            for key, member in value.items():
                _check_values(key, path, depth + 1)
                _check_values(member, join(path, key), depth + 1)
        else:
            for i, member in enumerate(value):
                _check_values(member, join(path, i), depth + 1)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _find_player(first_name: str, last_name: str, club: Club | None, licence: str) -> Player | None:
    """The stored player: by licence, else by name and club.

    A namesake with a different licence is somebody else, so with a licence
    only players without one are matched by name.
    """
    if licence:
        player = Player.objects.filter(licence=licence).first()
        if player is not None:
            return player
    if club is not None and club.pk is None:
        return None  # a new club has no players yet
    candidates = Player.objects.filter(first_name__iexact=first_name, last_name__iexact=last_name, club=club)
    if licence:
        candidates = candidates.filter(licence="")
    return candidates.order_by("pk").first()


def _person(player: Player) -> tuple[str, ...]:
    """Who a player is: two entries of one file must not be the same person,
    stored or new (as the next import would match them)."""
    if player.pk is not None:
        return ("pk", str(player.pk))
    if player.licence:
        return ("licence", player.licence)
    club = player.club.name.casefold() if player.club else ""
    return ("name", player.first_name.casefold(), player.last_name.casefold(), club)


def import_write(plan: ImportPlan, *, user: AbstractBaseUser | None) -> Tournament:
    """The second pass: save what the first pass (:func:`import_plan`) checked, inside the caller's
    transaction (:func:`import_tournament` gives one); ``user`` as there. A replaced tournament's registrations
    and series (with their tables, byes, protocols and penalties) make way for the file's."""
    for obj in plan.new_objects:
        obj.save()
    tournament = plan.tournament
    if not tournament._state.adding:  # a stored one replaced
        tournament.series.all().delete()
        tournament.registrations.all().delete()
        linked_clear(tournament)
    tournament.save()
    for registration in plan.registrations:
        registration.tournament = tournament
    Registration.objects.bulk_create(plan.registrations)
    for series in plan.series:
        _write_series(tournament, series, user)
    series_ensure(tournament=tournament)  # the series the file leaves out, as planned
    standings_touch(tournament_id=tournament.pk)
    return tournament


def _write_series(tournament: Tournament, plan: _Series, user: AbstractBaseUser | None) -> None:
    played = [table for table in plan.tables if table.deals]
    if played:
        status = Series.Status.CLOSED
    elif plan.tables or plan.byes:
        status = Series.Status.DRAWN
    else:
        status = Series.Status.PLANNED
    series = Series.objects.create(
        tournament=tournament, number=plan.number, status=status, results_entered=bool(played)
    )
    TableAssignment.objects.bulk_create(
        TableAssignment(series=series, table=table.number, seat=seat, player=player)
        for table in plan.tables
        for seat, player in table.seats.items()
    )
    Bye.objects.bulk_create(Bye(tournament=tournament, series=series, player=player) for player in plan.byes)
    # An imported protocol is a finished, signed one.
    protocols = Protocol.objects.bulk_create(
        Protocol(
            series=series,
            table=table.number,
            status=Protocol.Status.CONFIRMED,
            ended_early=table.ended_early,
            **table.protocol_fields,
        )
        for table in played
    )
    rows: list[DealRow] = []
    history: list[DealRowVersion] = []
    for protocol, table in zip(protocols, played, strict=True):
        new = deal_rows_new(protocol, table.deals, table.score)
        rows += new
        # every row carries its history, and the import is where this one began
        history += [
            DealRowVersion(
                protocol=protocol,
                number=row.number,
                action=DealRowVersion.Action.ADD,
                new_deal=row.deal,
                new_values=row.values,
                author=IMPORT_AUTHOR,
            )
            for row in new
        ]
    DealRow.objects.bulk_create(rows)
    DealRowVersion.objects.bulk_create(history)
    # one by one: each version names its penalty's primary key (few penalties, if any)
    for entry in plan.penalties:
        penalty = Penalty.objects.create(
            series=series,
            player=entry.player,
            small_points=entry.small_points,
            big_points=entry.big_points,
            reason=entry.reason,
        )
        add = PenaltyVersion.Action.ADD
        penalty_version_record(penalty=penalty, action=add, old=None, user=user, reason=entry.reason)
