"""Sheets for the Preferans tests, written as a scorer would enter them."""

from dataclasses import replace

from scoring.preferans import keep_sheet, load_variant

ABC = ("A", "B", "C")
ABCD = ("A", "B", "C", "D")


def sheet_of(deals, *, players=ABC, variant="sochi", total=50, closed=False, **settings):
    """The sheet under a preset, with ``settings`` (variant fields, e.g. ``remainder``) changed."""
    rules = replace(load_variant(variant), **settings)
    return keep_sheet(players=players, variant=rules, total=total, entries=deals, closed=closed)


def unwhisted(declarer, contract, **extra):
    """A contract nobody whisted: it counts as made."""
    return {"contract": contract, "declarer": declarer, **extra}


def pulka_of(points, declarer, **extra):
    """Unwhisted deals that write ``points`` (a sum of prices 2–10, even) for ``declarer``."""
    deals = [unwhisted(declarer, "10NT", **extra) for _ in range(points // 10)]
    if points % 10:
        deals.append(unwhisted(declarer, f"{points % 10 // 2 + 5}S", **extra))
    return deals


def full_pulka(players=ABC, total=50):
    """Deals that fill every pulka exactly, each dealt by the declarer's left neighbour."""
    return [
        deal
        for i, player in enumerate(players)
        for deal in pulka_of(total, player, dealer=players[(i + 1) % len(players)])
    ]
