"""Reading the bytes of an exchange file into JSON values, within bounds.

The file comes from anywhere, so it is read only up to a size limit, may start
with the byte order mark some editors write, and is parsed without letting a
hostile number or nesting cost more than the parse itself. What the values
mean is checked afterwards by :func:`import_tournament`, which names the place.
"""

from __future__ import annotations

import json
import math
from typing import IO, Any

from .format import ExchangeError

# An integer with more digits is beyond any field of the format. It is read as an
# infinity, which the import refuses at its place, instead of converting it: the
# conversion is quadratic, and Python refuses it beyond 4300 digits with a
# ValueError that would not say where the number is.
_MAX_DIGITS = 20


def _integer(text: str) -> int | float:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        return -math.inf if text.startswith("-") else math.inf
    return int(text)


def parse_exchange_file(file: IO[bytes], *, max_bytes: int) -> Any:
    """The JSON values of an exchange file of at most ``max_bytes``, which is all that is read.

    Raises :class:`ExchangeError` (without a place) for a larger file, for text
    that is not UTF-8 (a byte order mark is allowed) or not JSON, and for
    nesting the parser cannot follow.
    """
    content = file.read(max_bytes + 1)
    if len(content) > max_bytes:
        raise ExchangeError("", f"the file is larger than {max_bytes} bytes", code="too_large")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ExchangeError("", f"not UTF-8 text: {err}", code="not_utf8") from err
    try:
        return json.loads(text, parse_int=_integer)
    except json.JSONDecodeError as err:
        raise ExchangeError("", f"not valid JSON: {err}", code="not_json") from err
    except RecursionError as err:
        raise ExchangeError("", "nested far deeper than an exchange file", code="too_deep") from err
