"""Names in Polish alphabetical order (porządek alfabetyczny), for every list of people.

Python compares strings by code point, which puts every letter with a diacritic
after "z" (Łęcka after Zieliński, Żak before Ćwik is wrong either way). Polish and
Kashubian lists put a letter with a diacritic right after its base letter:
a, ą, b, c, ć, d, e, ę … l, ł … o, ó … s, ś … z, ź, ż.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from players.models import Player

NameKey = tuple[tuple[str, str], ...]


def name_key(text: str) -> NameKey:
    """Sort key putting a letter with a diacritic right after its base letter
    (a, ą, b, c, ć … l, ł … z, ź, ż), as Polish and Kashubian lists expect;
    plain code-point order would put Łęcka after Zieliński."""
    key = []
    for char in text.casefold():
        if char == "ł":  # no Unicode decomposition: the stroke is not a combining mark
            key.append(("l", "\u0335"))
        else:
            decomposed = unicodedata.normalize("NFD", char)
            key.append((decomposed[0], decomposed[1:]))
    return tuple(key)


def player_key(player: Player) -> tuple[NameKey, NameKey]:
    """A player's place in a list by name: last name, then first name, in Polish order."""
    return (name_key(player.last_name), name_key(player.first_name))
