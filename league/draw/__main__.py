"""``python -m league.draw``: JSON request on stdin, the draw as JSON on stdout.

Format in docs/interfaces.md §3.  Exit status 2 with ``{"error": {...}}`` on
invalid input, as the scoring command line does.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from . import DrawError, DrawPlayer, SeriesDraw, draw_tournament
from .model import Pair


def _bad(field: str, what: str) -> DrawError:
    return DrawError("invalid_input", f"Invalid input: {field} {what}.", field=field)


def _players(raw: Any) -> list[DrawPlayer]:
    if not isinstance(raw, list):
        raise _bad("players", "must be a list")
    out = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict) or "id" not in entry:
            raise _bad(f"players[{i}]", "must be an object with an id")
        out.append(DrawPlayer(id=entry["id"], team=entry.get("team"), club=entry.get("club")))
    return out


def _series(raw: Any) -> list[SeriesDraw]:
    if not isinstance(raw, list):
        raise _bad("fixed", "must be a list")
    out = []
    for s, entry in enumerate(raw):
        if not isinstance(entry, dict) or not isinstance(entry.get("tables"), list):
            raise _bad(f"fixed[{s}]", "must be an object with tables")
        if not all(isinstance(t, list) and all(isinstance(p, str) for p in t) for t in entry["tables"]):
            raise _bad(f"fixed[{s}].tables", "must be lists of player ids")
        byes = _ids(entry.get("byes", []), f"fixed[{s}].byes")
        out.append(SeriesDraw(tables=[tuple(t) for t in entry["tables"]], byes=byes))
    return out


def _meetings(raw: Any) -> dict[Pair, int]:
    """Earlier meetings as ``[["p1", "p2", 2], ...]`` (JSON has no tuple keys)."""
    if not isinstance(raw, list):
        raise _bad("meetings", "must be a list of [id, id, count]")
    out: dict[Pair, int] = {}
    for i, entry in enumerate(raw):
        if not (isinstance(entry, list) and len(entry) == 3 and all(isinstance(x, str) for x in entry[:2])):
            raise _bad(f"meetings[{i}]", "must be [id, id, count]")
        out[entry[0], entry[1]] = out.get((entry[0], entry[1]), 0) + entry[2]
    return out


def _ids(raw: Any, field: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise _bad(field, "must be a list of player ids")
    return raw


def run(request: Any) -> dict[str, Any]:
    """Answer one parsed request; raises DrawError on invalid input."""
    if not isinstance(request, dict):
        raise _bad("request", "must be a JSON object")
    for key in ("players", "series", "seed"):
        if key not in request:
            raise _bad(key, "is missing")
    result = draw_tournament(
        _players(request["players"]),
        request["series"],
        request["seed"],
        fixed=_series(request.get("fixed", [])),
        meetings=_meetings(request["meetings"]) if "meetings" in request else None,
        had_bye=_ids(request.get("had_bye", []), "had_bye"),
        individuals_sit_out_first=bool(request.get("individuals_sit_out_first", False)),
        budget=request.get("budget"),
        table_size=request.get("table_size", 4),
    )
    return {
        "seed": result.seed,
        "series": [{"tables": [list(t) for t in s.tables], "byes": list(s.byes)} for s in result.series],
        "repeats": result.repeats,
        "algorithm": result.algorithm,
    }


def main() -> int:
    try:
        try:
            request = json.load(sys.stdin)
        except json.JSONDecodeError as exc:
            raise DrawError("invalid_json", f"The input is not valid JSON: {exc}.") from exc
        answer = run(request)
    except DrawError as exc:
        json.dump(exc.as_json(), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 2
    json.dump(answer, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
