"""Exchange files (docs/interfaces.md §4) for the tests, and a reader for them.

- ``interfaces_example.json``: the example of docs/interfaces.md §4, with the
  players it refers to but leaves out;
- ``small_puck.json``: two series of two tables under puck, hand-computed in
  ``test_exchange_standings.py``.
"""

import json
from pathlib import Path
from typing import Any

DIRECTORY = Path(__file__).parent


def load(name: str) -> dict[str, Any]:
    """A fresh copy of a file's content, free to be changed by a test."""
    return json.loads((DIRECTORY / f"{name}.json").read_text(encoding="utf-8"))
