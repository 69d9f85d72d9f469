"""Shorthand ("skrót"): one deal of a table protocol typed as one short line.

Pure Python, no Django (only ``scoring``'s seats): the referee copies a paper protocol by keyboard, one
line per deal, lower case, no Shift. A line is either a description of the
deal or its four values:

=================  =========================================================
``ac60``           ordinary game (gra zwykła), the old (starzy) are A and C,
                   they took 60 eyes (oczka)
``bd+`` / ``bd-``  ordinary game, the old B and D won / lost "z wyjściem";
                   ``=`` may be typed for ``+`` (same key, no Shift)
``bd+bw``          ... won, the young "bez wyjścia" (below wyjście);
                   ``bb`` = bez bitki (no trick), ``w`` = z wyjściem (default)
``ac k 70``        kontras after the seats: each ``k`` is one more doubling by
                   the other side, starting with the young (``k`` = kontra,
                   ``kk`` = kontra + rekontra); or the sides in order,
                   ``m`` = the young (młodzi), ``s`` = the old (starzy)
``acr``            a tie (remis) 52:52 with the eyes not counted: ``r``
                   where the eyes would stand (not ``=``, which is ``+``)
``acxb``           misplay (renons) by seat B
``za+``            a solo: contract code, then the declarer (stary)
``zak-``           zolo by A, kontra, lost
``zbc``            zolo-bieda by C: thrown games need no result
``zal``            ``l`` = the hand was laid down (wykładana)
``ciaok60``        ``o`` = a cicha "na dobiciu" (the declarer with the queen
                   of diamonds last to play), whose kontra some rules do not
                   count (gorzow) or refuse (puck)
``bok ac60``       a row marked as a bok round (the rules that have the
                   scorer mark them, ``bok_rounds.trigger`` "marked"):
                   ``bok`` in front of any line
``=2,-2,2,-2``     the four values as written on paper (A, B, C, D); the
                   ``=`` may be left out and spaces used instead of commas;
                   a contract code in front (``z=-15,5,5,5``) is a label
                   that the values must fit
=================  =========================================================

Contract codes: ``n`` (or nothing) ordinary game, ``w`` wesele, ``ci`` cicha,
``z`` zolo, ``g`` gran, ``zd`` zolo-du, ``gd`` gran-du, ``zb`` zolo-bieda,
``m`` méster, ``ba`` baśka. A code is followed by exactly its number of seats
(two for the ordinary game and the wedding, one otherwise), and the longest
code that fits wins: ``zdb+`` is zolo-du by B, ``zd+`` is zolo by D, ``bac`` is
baśka by C while ``ba+`` is the ordinary game of B and A. Spaces are ignored.

The kind of offence (the deal object's optional ``offence`` note) has no
shorthand: it is chosen in the deal form, and a line typed over a row drops it.

The parser only gathers what was typed into a deal object (docs/interfaces.md §1);
whether the deal is valid and what it is worth is for ``scoring/`` to say.
"""

from __future__ import annotations

import re
from typing import Any

from scoring import SEATS

SEAT_LETTERS = "".join(SEATS).lower()
ECHOED = 20  # the most of an unreadable line an error repeats
BOK_MARK = "bok"  # in front of a line: the row is marked as a bok round

CODES: dict[str, str] = {
    "n": "zwykla",
    "w": "wesele",
    "ci": "cicha",
    "z": "zolo",
    "g": "gran",
    "zd": "zolo_du",
    "gd": "gran_du",
    "zb": "zolo_bieda",
    "m": "mester",
    "ba": "baska",
}
"""Shorthand code → contract; the ordinary game also has the empty code."""

PAIR_CONTRACTS = frozenset({"zwykla", "wesele"})
LEVEL_CODES = {"w": "z_wyjsciem", "bw": "bez_wyjscia", "bb": "bez_bitki"}
KONTRA_LETTERS = {"m": "young", "s": "old"}
"""The kontra letters: who gave a kontra, m(łodzi) the young or s(tarzy) the old.
The one encoding of the sides as letters: the shorthand, the deal form's kontra
field and the phone's kontra buttons all use it."""
SIDE_LETTERS = {side: letter for letter, side in KONTRA_LETTERS.items()}
ENGLISH_KONTRA_LETTERS = {"y": "m", "o": "s"}
"""y(oung) and o(ld), which the deal form's kontra field also takes."""
OTHER_SIDE = {"young": "old", "old": "young"}


def kontra_letters(kontras: list[str]) -> str:
    """The sides that gave the kontras as letters, in order: ``["young", "old"]`` → ``"ms"``."""
    return "".join(SIDE_LETTERS[side] for side in kontras)


_VALUES = re.compile(r"(?P<code>[a-z]*)=?(?P<values>-?\d+(?:[,;]-?\d+){3})")
# Numbers after ``=`` (or a contract code and ``=``), or numbers alone: meant as values, whatever their count.
_CODE_CHOICE = "|".join(sorted(CODES, key=len, reverse=True))
_SOME_VALUES = re.compile(rf"(?:(?:{_CODE_CHOICE})?=)?-?\d+(?:[,;]-?\d*)*")
_RESULT = re.compile(r"(?P<eyes>\d+)|(?P<sign>[+=-])(?P<level>bw|bb|w)?|x(?P<misplay>[a-z])|(?P<tie>r)")


class ShorthandError(ValueError):
    """A line that is not shorthand; ``code`` and ``params`` are translated by the web layer.

    Codes: ``empty``, ``unknown_start`` (neither a contract code nor seats at
    the start), ``unexpected`` (``params["text"]`` at ``position`` makes no sense),
    ``value_count`` (a line of values with ``params["count"]`` numbers, not four).
    """

    def __init__(self, code: str, position: int = 0, **params: Any) -> None:
        self.code = code
        self.position = position
        self.params = params
        super().__init__(f"{code} at {position}: {params}")


def _normalise(line: str) -> str:
    # Commas and semicolons separate values; spaces only separate words a person reads.
    text = line.strip().lower()
    text = re.sub(r"\s*([,;])\s*", r"\1", text)
    if re.fullmatch(r"[a-z]*=?\s*-?\d+(\s+-?\d+)+", text):
        text = re.sub(r"\s+", ",", text)
    return text.replace(" ", "")


def _contract_and_seats(text: str) -> tuple[str, list[str], int]:
    """The contract, its old seats and where the rest of the line starts."""
    for code in sorted([*CODES, ""], key=len, reverse=True):
        if not text.startswith(code):
            continue
        contract = CODES.get(code, "zwykla")
        count = 2 if contract in PAIR_CONTRACTS else 1
        end = len(code) + count
        seats = text[len(code) : end]
        if (
            len(seats) == count
            and all(s in SEAT_LETTERS for s in seats)
            and (end == len(text) or text[end] not in SEAT_LETTERS)
        ):
            return contract, [s.upper() for s in seats], end
    # the word as typed, so the referee recognises it (a long line cut where it stops being one)
    raise ShorthandError("unknown_start", 0, text=text[:ECHOED])


def parse(line: str) -> dict[str, Any]:
    """One shorthand line → a deal object (docs/interfaces.md §1)."""
    text = _normalise(line)
    # "bok" starts no other line: b is a seat, and no seat is called o
    bok = text.startswith(BOK_MARK)
    if bok:
        text = text[len(BOK_MARK) :]
    if not text:
        raise ShorthandError("empty")
    deal = _parse_deal(text)
    if bok:
        deal["bok_round"] = True
    return deal


def _parse_deal(text: str) -> dict[str, Any]:
    if match := _VALUES.fullmatch(text):
        numbers = [int(n) for n in re.split(r"[,;]", match["values"])]
        deal: dict[str, Any] = {"values": dict(zip(SEATS, numbers, strict=True))}
        if match["code"]:
            if match["code"] not in CODES:
                raise ShorthandError("unknown_start", 0, text=match["code"])
            deal["contract"] = CODES[match["code"]]
        return deal
    if _SOME_VALUES.fullmatch(text):
        raise ShorthandError("value_count", 0, text=text, count=len(re.findall(r"\d+", text)))

    contract, old, at = _contract_and_seats(text)
    deal = {"contract": contract, "old": old}
    kontras: list[str] = []
    while at < len(text) and (text[at] in "klo" or text[at] in KONTRA_LETTERS):
        letter = text[at]
        if letter == "l":
            deal["laid_down"] = True
        elif letter == "o":
            deal["cicha_na_dobiciu"] = True
        elif letter == "k":
            kontras.append(OTHER_SIDE[kontras[-1]] if kontras else "young")
        else:
            kontras.append(KONTRA_LETTERS[letter])
        at += 1
    if kontras:
        deal["kontras"] = kontras

    if match := _RESULT.match(text, at):
        if match["eyes"] is not None:
            deal["old_eyes"] = int(match["eyes"])
        elif match["sign"]:
            deal["winner"] = "young" if match["sign"] == "-" else "old"
            if contract in PAIR_CONTRACTS or match["level"]:
                deal["level"] = LEVEL_CODES[match["level"] or "w"]
        elif match["misplay"]:
            deal["misplay"] = match["misplay"].upper()
        else:
            deal["tie"] = True
        at = match.end()
    if at < len(text):
        raise ShorthandError("unexpected", at, text=text[at:])
    return deal


def format_deal(deal: dict[str, Any]) -> str:
    """A deal object → its shorthand line; ``parse(format_deal(d)) == d`` for what ``parse`` gives."""
    line = _format_deal(deal)
    return f"{BOK_MARK} {line}" if deal.get("bok_round") else line


def _format_deal(deal: dict[str, Any]) -> str:
    code = {contract: code for code, contract in CODES.items()}
    values = deal.get("values")
    if values is not None and "old" not in deal:
        label = code[deal["contract"]] if "contract" in deal else ""
        return label + "=" + ",".join(str(values[seat]) for seat in SEATS)
    contract = deal["contract"]
    line = ("" if contract == "zwykla" else code[contract]) + "".join(deal["old"]).lower()
    if deal.get("laid_down"):
        line += "l"
    if deal.get("cicha_na_dobiciu"):
        line += "o"
    line += kontra_letters(deal.get("kontras", []))
    if "old_eyes" in deal:
        line += str(deal["old_eyes"])
    elif "winner" in deal:
        line += "+" if deal["winner"] == "old" else "-"
        level = deal.get("level")
        if level and level != "z_wyjsciem":
            line += {v: k for k, v in LEVEL_CODES.items()}[level]
    elif "misplay" in deal:
        line += "x" + deal["misplay"].lower()
    elif deal.get("tie"):
        line += "r"
    return line
