"""``python -m scoring deal|protocol|placement|pulka``: JSON in on stdin, JSON out on
stdout (docs/interfaces.md §2, docs/preferans.md).  Exit 0 on success, 2 with an
error object on invalid input."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from .deal import score_deal
from .errors import ScoringError
from .fields import read_object
from .placement import placement_points
from .preferans import pulka_report
from .protocol import score_protocol
from .ruleset import Ruleset, load_ruleset, parse_ruleset

EXIT_INVALID = 2


def _ruleset(ref: Any) -> Ruleset:
    # an inline ruleset object is an extension beside the documented preset id or path
    return parse_ruleset(ref) if isinstance(ref, dict) else load_ruleset(ref)


def _deal(request: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    result = score_deal(request["deal"], ruleset)
    return {
        "values": result.values,
        "winner": result.winner,
        "level": result.level,
        "doublings": result.doublings,
        "multiplier": result.multiplier,
    }


def _protocol(request: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    result = score_protocol(request["deals"], ruleset)
    rows = [{"values": row.values, "totals": row.totals, "bok_round": row.bok_round} for row in result.rows]
    return {"rows": rows, "totals": result.totals}


def _whole_as_int(number: float) -> float | int:
    return int(number) if number == int(number) else number


def _placement(request: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    points = placement_points(request["small_points"], ruleset)
    return {"big_points": {key: _whole_as_int(value) for key, value in points.items()}}


COMMANDS: dict[str, tuple[str, Callable[[dict[str, Any], Ruleset], dict[str, Any]]]] = {
    "deal": ("deal", _deal),
    "protocol": ("deals", _protocol),
    "placement": ("small_points", _placement),
}
PULKA = "pulka"
"""The Preferans command (docs/preferans.md), outside COMMANDS: it takes no ruleset."""


def run(argv: list[str], stdin: TextIO) -> dict[str, Any]:
    """The output object of one call; raises ScoringError on invalid input."""
    commands = [*COMMANDS, PULKA]
    if len(argv) != 1 or argv[0] not in commands:
        raise ScoringError("unknown_command", {"command": " ".join(argv) or "(none)", "expected": ", ".join(commands)})
    try:
        request = json.loads(stdin.read())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ScoringError("invalid_json", {"detail": str(exc)}) from exc
    if argv[0] == PULKA:
        # a Preferans sheet names its variant itself; there is no Baśka ruleset
        return pulka_report(request)
    payload_key, handler = COMMANDS[argv[0]]
    read_object(request, "input", "invalid_input", allowed=("ruleset", payload_key))
    for key in ("ruleset", payload_key):
        if key not in request:
            raise ScoringError("missing_field", {"field": key}, key)
    return handler(request, _ruleset(request["ruleset"]))


def main(argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    try:
        output = run(sys.argv[1:] if argv is None else argv, stdin)
    except ScoringError as error:
        json.dump({"error": error.as_dict()}, stdout, ensure_ascii=False)
        stdout.write("\n")
        return EXIT_INVALID
    json.dump(output, stdout, ensure_ascii=False)
    stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
