"""Refusals of the draw: a stable code for the Django layer, an English message for people."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class DrawError(ValueError):
    """An impossible or malformed draw request.

    ``code`` is a stable snake_case identifier that the web layer translates,
    ``params`` carries the numbers and names the translation interpolates, and
    ``message`` is the English text used by the command line and logs.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: Mapping[str, Any] = params

    def as_json(self) -> dict[str, dict[str, str]]:
        """The error object of the command-line interface (docs/interfaces.md §2–3)."""
        return {"error": {"code": self.code, "message": self.message}}
