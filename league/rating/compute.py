"""Ranking zawodników (rating, "who is strong"): one Bayesian skill per person and game, built
from every table played, in time order; no Django, so it runs and is tested on its own.

A **mecz** (match) is one table of one closed series: its players ranked by their small points
at the table, tied points tying. The skill is the ``openskill`` package's Plackett–Luce model
(Weng & Lin, JMLR 2011), which takes any number of players and ties: each person has a mean
``mu`` and an uncertainty ``sigma``; every match moves both by the package's rule, never by one
written here. A bye is no match, nor is a table of one player or one before its first deal.

All tables of one series are rated from the skills as they stood before it (a person sits at one
table a series, so the order the tables are read in changes nothing), and the series run in the
order the caller gives (``league.rating.selectors``: by the tournament's date, then its series).
The same history therefore always gives the same ratings.

What a person sees is the **wartość rankingowa** (displayed rating): the conservative skill
``mu − 3·sigma`` (the skill the person has with about 99.9 % certainty at least), put on a scale
where a newcomer starts at 1000 and one point of skill is 40 points (:func:`displayed`). A rating
is **wstępny** (provisional) while it rests on fewer than ``PROVISIONAL_SERIES`` series.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the package's defaults: mu 25, sigma 25/3, beta sigma/2, tau sigma/100
START, SCALE = 1000, 40  # the displayed value of mu − 3·sigma = 0 (every newcomer), and of one point of skill
PROVISIONAL_SERIES = 10  # fewer series than this: the rating is provisional, the person a newcomer


@dataclass(frozen=True)
class Skill:
    """A person's skill in one game: the model's mean and uncertainty, and the series it rests on."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    series: int = 0

    @property
    def shown(self) -> int:
        return displayed(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.series < PROVISIONAL_SERIES


def displayed(mu: float, sigma: float) -> int:
    """The rating as shown: ``mu − 3·sigma`` scaled to 1000 for a newcomer, 40 points per point of skill."""
    return round(START + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class Table:
    """One match: the table's number and each person at it with their small points."""

    number: int
    points: tuple[tuple[int, int], ...]  # (person, small points)


@dataclass(frozen=True)
class Sitting:
    """One series of one game (``key``: the caller's name for it, e.g. the series' pk): its tables."""

    key: Hashable
    game: str
    tables: tuple[Table, ...]


@dataclass(frozen=True)
class Rated:
    """One person's series: where they sat, the place the skills before it expected at that table
    (ties share the best place), the place they took, and their skill after it."""

    key: Hashable
    game: str
    person: int
    table: int
    expected_place: int
    place: int
    skill: Skill


Skills = dict[tuple[str, int], Skill]  # (game, person) → skill


def places(values: Sequence[float], *, higher_first: bool = True) -> list[int]:
    """Each value's place among ``values``: 1 + how many are better, so equal values share the best."""
    better = (lambda a, b: b > a) if higher_first else (lambda a, b: b < a)
    return [1 + sum(better(value, other) for other in values) for value in values]


def rate_sitting(skills: Mapping[tuple[str, int], Skill], sitting: Sitting) -> list[Rated]:
    """Each person's result of one series, every table rated from ``skills`` as before it."""
    rated = []
    for table in sorted(sitting.tables, key=lambda t: t.number):
        seated = sorted(table.points)  # by person: the same match however the seats were read
        if len(seated) < 2:
            continue  # one person at a table has met nobody
        before = [skills.get((sitting.game, person), Skill()) for person, _ in seated]
        teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
        taken = places([points for _, points in seated])
        after = MODEL.rate(teams, ranks=taken)
        expected = places([skill.mu for skill in before])
        for (person, _), old, [new], expected_place, place in zip(seated, before, after, expected, taken, strict=True):
            skill = Skill(new.mu, new.sigma, old.series + 1)
            rated.append(Rated(sitting.key, sitting.game, person, table.number, expected_place, place, skill))
    return rated


def rate_history(
    sittings: Iterable[Sitting], skills: Mapping[tuple[str, int], Skill] | None = None
) -> tuple[list[Rated], Skills]:
    """Every person's result of each of ``sittings`` (in the order given, from ``skills`` as they
    stood before the first), and the skills after the last."""
    current: Skills = dict(skills or {})
    results: list[Rated] = []
    for sitting in sittings:
        rated = rate_sitting(current, sitting)
        current.update({(r.game, r.person): r.skill for r in rated})
        results.extend(rated)
    return results, current
