"""Addresses made from names (slug, the part of an address such as ``/t/zloty-turniej/``).

Django's ``slugify`` folds a letter with an accent into its base letter (ą → a, ż → z) but drops
the Polish ł, which Unicode does not decompose ("Złoty" would become "zoty"): it is folded first.
An address made before keeps working: only new ones are made this way.
"""

from __future__ import annotations

from django.utils.text import slugify

UNDECOMPOSED = str.maketrans({"ł": "l", "Ł": "L"})


def polish_slug(name: str, *, max_length: int) -> str:
    """The address part made from ``name``: "Złota Liga Baśki" → "zlota-liga-baski"."""
    return slugify(name.translate(UNDECOMPOSED))[:max_length]
