"""The tournament exchange file "baska-league/1" (docs/interfaces.md §4).

One JSON document holds a whole tournament: its settings, teams, players, the
seating of every series, the byes and every table's deals. Clubs archive
tournaments with it and other software exchanges results through it, so the
format is a promise: extend it only with new optional fields.

- :func:`parse_exchange_file` reads the JSON of a file within a size limit;
- :func:`import_tournament` reads such a document into the database, all or nothing
  (:func:`import_plan`: its checks alone, for a preview);
- :func:`export_tournament` writes a stored tournament back out (:func:`exchange_file_text`: as
  the command prints it and the organiser downloads it);
- :func:`external_ids` gives the ids under which players and teams appear;
- :func:`file_standings` and :func:`with_file_ids` give standings under those ids.

In the app (``views``, ``urls``): the tournament's screen downloads its file; an upload is
previewed (``preview``: players new, existing or probable duplicates, errors in words, what a
re-upload changes) and confirmed (``services``), replacing the tournament whose
``tournament_id`` it carries and keeping its earlier version.
"""

from .exporting import exchange_file_text, export_tournament
from .format import FORMAT, ExchangeError
from .ids import external_ids
from .importing import ImportPlan, import_plan, import_tournament
from .parsing import parse_exchange_file
from .standings import file_standings, with_file_ids

__all__ = [
    "FORMAT",
    "ExchangeError",
    "ImportPlan",
    "exchange_file_text",
    "export_tournament",
    "external_ids",
    "file_standings",
    "import_plan",
    "import_tournament",
    "parse_exchange_file",
    "with_file_ids",
]
