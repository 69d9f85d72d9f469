"""Readers that turn untrusted JSON values into typed values or a ScoringError.

Every reader takes the ``path`` of the value (``"deal.old[1]"``) and the error
``code`` to raise, so the same checks serve deals (``invalid_input``) and
rulesets (``invalid_ruleset``).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from .errors import ScoringError


def join(path: str, key: str | int) -> str:
    """The path of a member: ``deal`` + ``old`` → ``deal.old``; + 1 → ``deal.old[1]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def fail(code: str, path: str, expected: str) -> ScoringError:
    return ScoringError(code, {"field": path, "expected": expected}, path)


def read_object(
    value: Any, path: str, code: str, *, allowed: Collection[str], required: Collection[str] = ()
) -> dict[str, Any]:
    """A JSON object whose keys are all in ``allowed`` and include ``required``."""
    if not isinstance(value, dict):
        raise fail(code, path, "an object")
    for key in value:
        if key not in allowed:
            raise fail(code, join(path, str(key)), "absent (not a known field)")
    for key in required:
        if key not in value:
            raise fail(code, join(path, key), "given")
    return value


def read_int(value: Any, path: str, code: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    # bool is an int subclass in Python but never a number in JSON terms
    if not isinstance(value, int) or isinstance(value, bool):
        raise fail(code, path, "an integer")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise fail(
            code,
            path,
            f"an integer from {minimum} to {maximum}" if maximum is not None else f"an integer of at least {minimum}",
        )
    return value


def read_number(value: Any, path: str, code: str, *, minimum: float = 0, maximum: float | None = None) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or value != value or value < minimum:
        raise fail(code, path, f"a number of at least {minimum:g}")
    if maximum is not None and value > maximum:
        raise fail(code, path, f"a number from {minimum:g} to {maximum:g}")
    return value


def read_bool(value: Any, path: str, code: str) -> bool:
    if not isinstance(value, bool):
        raise fail(code, path, "true or false")
    return value


def read_str(
    value: Any, path: str, code: str, *, choices: Collection[str] | None = None, max_length: int | None = None
) -> str:
    if not isinstance(value, str):
        raise fail(code, path, "a string")
    if max_length is not None and len(value) > max_length:
        raise fail(code, path, f"a text of at most {max_length} characters")
    if choices is not None and value not in choices:
        raise fail(code, path, "one of " + ", ".join(choices))
    return value


def read_list(value: Any, path: str, code: str, *, max_items: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise fail(code, path, "a list")
    if max_items is not None and len(value) > max_items:
        raise fail(code, path, f"a list of at most {max_items} items")
    return value


def show(value: Any) -> str:
    """A value as it would appear in the JSON input, for error messages."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
