"""What the import and the export of the exchange file share: the format name, the fields of its
tournament object, the error type and the spelling of the team ranking."""

from __future__ import annotations

import re
from typing import Any

from league.games import registered_games
from league.models import TeamRanking, Tournament

FORMAT = "baska-league/1"
# The error code the file's readers (scoring.fields) give a wrong value; the import names its place.
INVALID_INPUT = "invalid_input"

# The fields every file's ``tournament`` object may have, in the order a file writes them: the spec's,
# then the optional ones that make an export complete; a game writes its own among them
# (``GameRules.export_settings``), and those of its own after them (``tournament_fields``; each
# game's keys: docs/interfaces.md).
TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "date",
    "venue",
    "ruleset",
    "series_count",
    "deals_per_series",
    "team_ranking",
    "organiser",
    "uses_big_points",
    "tournament_id",
    "ruleset_data",
    "game",
)
# The fields every table of a file's series may have; a game's own follow (``table_fields``).
TABLE_FIELDS = ("number", "seats", "deals", "ended_early")


def tournament_fields() -> tuple[str, ...]:
    """The fields a file's ``tournament`` object may have, in the order a file writes them: every
    file's, then each installed game's own (``GameRules.exchange_tournament_keys``)."""
    return (*TOURNAMENT_FIELDS, *(key for game in registered_games().values() for key in game.exchange_tournament_keys))


def table_fields() -> tuple[str, ...]:
    """The fields a table of a file's series may have: every table's, then each installed game's
    own (``GameRules.exchange_table_keys``); a game refuses another's it does not have."""
    return (*TABLE_FIELDS, *(key for game in registered_games().values() for key in game.exchange_table_keys))


_BEST_OF = re.compile(r"best([1-9][0-9]*)")


class ExchangeError(Exception):
    """An invalid exchange file; ``path`` names the place (``series[1].tables[3].deals[7]``).
    ``code`` says what kind of fault a file that cannot be read at all has (``too_large``,
    ``not_utf8``, ``not_json``, ``too_deep``), for pages that say it in their own words."""

    def __init__(self, path: str, message: str, *, code: str = "invalid") -> None:
        self.path = path
        self.message = message
        self.code = code
        super().__init__(f"{path}: {message}" if path else message)


def team_ranking_code(tournament: Tournament) -> str:
    """The file's spelling: ``"sum"`` (all members) or ``"best3"`` (best three)."""
    if tournament.team_ranking == TeamRanking.BEST:
        return f"best{tournament.team_best_of}"
    return "sum"


def team_ranking_fields(code: Any, path: str) -> dict[str, Any]:
    """The tournament fields for a file's ``team_ranking``; the spec names "sum"
    and "best3", and any "bestN" is read the same way."""
    if code == "sum":
        return {"team_ranking": TeamRanking.SUM}
    match = _BEST_OF.fullmatch(code) if isinstance(code, str) else None
    if match is None:
        raise ExchangeError(path, 'expected "sum" or "best" and a number of members, e.g. "best3"')
    return {"team_ranking": TeamRanking.BEST, "team_best_of": int(match[1])}
