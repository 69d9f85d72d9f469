"""Fixed facts of the game: seats, contracts, sides and levels.

These are the vocabulary of the deal format (docs/interfaces.md §1), not rules an
organiser could change; everything an organiser can change lives in a ruleset.
"""

from __future__ import annotations

from typing import Final

SEATS: Final = ("A", "B", "C", "D")

CONTRACTS: Final = (
    "zwykla",  # gra zwykła: the ordinary game, nobody bid
    "wesele",  # wedding: the holder of both black queens and a partner
    "cicha",  # cicha (ciche wesele): both black queens played alone, unannounced
    "zolo",
    "gran",  # only jacks are trumps
    "zolo_du",  # "du": the declarer takes all four tricks
    "gran_du",
    "zolo_bieda",  # four tens, thrown
    "mester",  # méster: four aces, thrown
    "baska",  # baśka: four queens, the crown, thrown
)

PAIR_CONTRACTS: Final = frozenset({"zwykla", "wesele"})
"""Contracts played two (the old, "starzy") against two (the young, "młodzi")."""

SIDES: Final = ("old", "young")

LEVELS: Final = ("z_wyjsciem", "bez_wyjscia", "bez_bitki")
"""Levels of a loss in a pair game.

"Wyjście" (the way out) is the eye count a side must reach to lose cheaply:
``z_wyjsciem`` the loser reached it, ``bez_wyjscia`` it did not, ``bez_bitki``
it took no trick ("bitka") at all.
"""

TOTAL_EYES: Final = 104
"""Card points ("oczka", eyes) in the 16-card deck; 52:52 is a tie, a "bok"."""

TIE_EYES: Final = TOTAL_EYES // 2

POOREST_TRICK_EYES: Final = 8
"""Eyes of the poorest trick, four jacks: a side with any trick has at least this many."""

OFFENCES: Final = (
    "renege",  # nieprzestrzeganie koloru: a card of the suit led ("fela") or a trump withheld
    "card_shown",  # pokazanie kart: cards shown or dropped face up
    "out_of_turn",  # zagranie poza kolejnością: a card played before one's turn
    "deal_decided",  # gra już rozstrzygnięta: play stopped once the deal was decided
)
"""Kinds of offence a protocol row may note (docs/rules.md §4.6). A note only: the
deal is entered as the outcome the offence led to, and the note changes no value."""
