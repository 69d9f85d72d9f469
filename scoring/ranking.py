"""Standings and rankings: totals per player or team, and their order.

The league app feeds in numbers only (per-series table results, byes,
tournament standings); everything computed from them lives here.  Small points
("małe punkty") are protocol totals; big points ("duże punkty") come from
placements.  How a shared place counts in the place tie-breaks is the ruleset's
``shared_places`` (gorzow "jeśli punkty będą dzielone to ich wartości będą się
liczyły tak samo np. 4,0, 2,5"):

- ``fractional``: a shared 1st–2nd counts ½ first and ½ second;
- ``better``: a shared 1st–2nd counts a whole first for each;
- ``points``: places are compared by the big points earned at the tables, more
  results of the highest value first (5 > 4,0 > 3 > 2,5 …); every place
  tie-break (``more_places_N``, ``fewer_places_N``) then reads as that one
  comparison.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .errors import ScoringError
from .fields import read_int
from .placement import TABLE_SIZE, bye_compensation, place_shares, placement_points
from .ruleset import TIEBREAK_PATTERN, Ruleset, parse_place_points

_NO_PLACES = (0.0,) * TABLE_SIZE
# sums of fractional points are compared rounded, so 1/3 + 2/3 ties with 1
_DIGITS = 9


@dataclass(frozen=True, slots=True)
class Standing:
    """The totals of one player (or team): ``places[k]`` counts (k+1)-th places
    (fractionally or as the better place, by the ruleset's ``shared_places``).

    ``table_points`` are the big points earned at each table, best first, kept
    only where places are compared by those points (``shared_places`` ``points``);
    None elsewhere. It is what the place tie-breaks then compare.
    """

    id: str
    big_points: float = 0.0
    small_points: int = 0
    places: tuple[float, ...] = _NO_PLACES
    series_played: int = 0
    byes: int = 0
    table_points: tuple[float, ...] | None = None

    def __add__(self, other: Standing) -> Standing:
        table_points = None
        if self.table_points is not None or other.table_points is not None:
            table_points = tuple(sorted((*(self.table_points or ()), *(other.table_points or ())), reverse=True))
        return Standing(
            self.id,
            self.big_points + other.big_points,
            self.small_points + other.small_points,
            tuple(a + b for a, b in zip(self.places, other.places, strict=True)),
            self.series_played + other.series_played,
            self.byes + other.byes,
            table_points,
        )


@dataclass(frozen=True, slots=True)
class Ranked:
    """A standing with its competition-style place (1, 2, 3, 3, 5) and the
    label shown in a table ("3–4." for a shared place)."""

    place: int
    label: str
    standing: Standing


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of one series: seat → player id and seat → small points."""

    players: Mapping[str, str]
    small_points: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Penalty:
    """A referee's penalty ("kara sędziowska", docs/rules.md §4.6): small points (and,
    where the ruleset allows, big points) added to one player's result in one series,
    usually negative. It is not a deal row, so the protocol's rows stay zero-sum."""

    player: str
    small_points: int
    big_points: float = 0.0
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SeriesResult:
    tables: Sequence[TableResult]
    byes: Sequence[str] = field(default=())
    penalties: Sequence[Penalty] = field(default=())


def team_small_points(member_points: Sequence[int], best: int | None) -> int:
    """A team's small points: the sum of its members', or of the best ``best``."""
    points = [read_int(p, f"member_points[{i}]", "invalid_input") for i, p in enumerate(member_points)]
    if best is None:
        return sum(points)
    read_int(best, "best", "invalid_input", minimum=1)
    return sum(sorted(points, reverse=True)[:best])


def team_standing(team_id: str, members: Sequence[Standing], best: int | None) -> Standing:
    """A team's totals from its members' (teams of 4 or 5): the sum of all, or with
    ``best`` the best N of M. Small and big points are each counted over the
    members best at that figure, so a member may count for one and not the other."""
    if best is not None:
        read_int(best, "best", "invalid_input", minimum=1)
    count = len(members) if best is None else best
    return Standing(
        team_id,
        big_points=sum(sorted((m.big_points for m in members), reverse=True)[:count]),
        small_points=team_small_points([m.small_points for m in members], best),
    )


def team_standings(
    members: Mapping[str, Sequence[Standing]], ruleset: Ruleset, *, best: int | None, tiebreaks: Sequence[str]
) -> list[Standing]:
    """Every team's totals from its members' standings (:func:`team_standing`).

    Under ``team_big_points.by == "place"`` the members' big points are replaced
    by points for the team's place (psb example II: 3rd place, 80 points): teams
    are placed by the tie-breaks other than big points, a shared place shares
    the points of the places it covers, and as in the example only teams with a
    positive result are classified ("15 najlepszych drużyn z wynikiem plusowym";
    the team at −20 "nie otrzymała żadnych punktów").
    """
    teams = [team_standing(team_id, standings, best) for team_id, standings in members.items()]
    if ruleset.team_big_points.by == "members":
        return teams
    by_place = [t for t in tiebreaks if t != "big_points"] or ["small_points"]
    awards = award_points(rank(teams, by_place), ruleset.team_big_points.points)
    return [replace(team, big_points=awards[team.id]) for team in teams]


def _by_table_points(table_points: tuple[float, ...]) -> tuple[float, ...]:
    """Best first when sorted ascending: the results best first, compared value by value, so
    more results of the highest value win; the end mark makes one more result better than none."""
    return (*(-round(points, _DIGITS) for points in table_points), math.inf)


def _sort_key(standing: Standing, tiebreaks: Sequence[str]) -> tuple[tuple[float, ...], ...]:
    key: list[tuple[float, ...]] = []
    for tiebreak in tiebreaks:
        if tiebreak == "big_points":
            value = standing.big_points
        elif tiebreak == "small_points":
            value = standing.small_points
        elif standing.table_points is not None:
            key.append(_by_table_points(standing.table_points))
            continue
        else:
            direction, _, place = tiebreak.rpartition("_")
            count = standing.places[int(place) - 1]
            value = count if direction == "more_places" else -count
        key.append((-round(value, _DIGITS),))
    return tuple(key)


def rank(entries: Iterable[Standing], tiebreaks: Sequence[str]) -> list[Ranked]:
    """Order standings by the tie-breaks, best first; entries equal on every
    tie-break share a place and keep their input order."""
    for tiebreak in tiebreaks:
        if not isinstance(tiebreak, str) or not TIEBREAK_PATTERN.match(tiebreak):
            raise ScoringError("unknown_tiebreak", {"tiebreak": str(tiebreak)}, "tiebreaks")
    keyed = sorted(((_sort_key(e, tiebreaks), e) for e in entries), key=lambda pair: pair[0])
    ranked: list[Ranked] = []
    start = 0
    while start < len(keyed):
        end = start
        while end < len(keyed) and keyed[end][0] == keyed[start][0]:
            end += 1
        label = f"{start + 1}." if end - start == 1 else f"{start + 1}–{end}."
        ranked.extend(Ranked(start + 1, label, standing) for _, standing in keyed[start:end])
        start = end
    return ranked


def _places(shares: tuple[Fraction, ...], shared_places: str) -> tuple[float, ...]:
    """The places one table result counts: its shares, or under ``better`` a whole count of the best place shared."""
    if shared_places != "better":
        return tuple(float(share) for share in shares)
    best = next(place for place, share in enumerate(shares) if share)
    return tuple(1.0 if place == best else 0.0 for place in range(len(shares)))


def accumulate(series: Iterable[SeriesResult], ruleset: Ruleset) -> dict[str, Standing]:
    """Per-player tournament totals from the series' table results, byes and the
    referee's penalties (which add to a player's points but are no table result)."""
    totals: dict[str, Standing] = {}
    # under "points" every standing carries its table results, so all of them compare alike
    by_points = ruleset.shared_places == "points"
    no_tables = () if by_points else None

    def add(player: str, standing: Standing) -> None:
        totals[player] = totals[player] + standing if player in totals else standing

    for number, result in enumerate(series, start=1):
        seen: set[str] = set()
        for table in result.tables:
            big = placement_points(table.small_points, ruleset)
            shares = place_shares(table.small_points)
            for seat, player in table.players.items():
                if player in seen:
                    raise ScoringError("duplicate_player", {"player": player, "series": number})
                seen.add(player)
                table_points = (big[seat],) if by_points else None
                places = _places(shares[seat], ruleset.shared_places)
                add(player, Standing(player, big[seat], table.small_points[seat], places, 1, 0, table_points))
        if result.byes:
            compensation = bye_compensation(ruleset, len(result.byes))
        for player in result.byes:
            if player in seen:
                raise ScoringError("duplicate_player", {"player": player, "series": number})
            seen.add(player)
            add(
                player,
                Standing(player, compensation.big_points, compensation.small_points, byes=1, table_points=no_tables),
            )
            if totals[player].byes > ruleset.byes.max_per_player:
                params = {"player": player, "count": totals[player].byes, "max": ruleset.byes.max_per_player}
                raise ScoringError("too_many_byes", params)
        for i, penalty in enumerate(result.penalties):
            path = f"series[{number - 1}].penalties[{i}]"
            if penalty.player not in seen:
                raise ScoringError("penalty_not_in_series", {"player": penalty.player, "series": number}, path)
            if penalty.big_points and not ruleset.penalty_big_points:
                raise ScoringError(
                    "penalty_big_points_not_allowed",
                    {"ruleset": ruleset.id, "ruleset_name": ruleset.name},
                    f"{path}.big_points",
                )
            add(
                penalty.player,
                Standing(penalty.player, penalty.big_points, penalty.small_points, table_points=no_tables),
            )
    return totals


def _strength(standing: Standing) -> tuple[float, int]:
    return (standing.big_points, standing.small_points)


def season_totals(tournaments: Iterable[Mapping[str, Standing]], best: int | None = None) -> dict[str, Standing]:
    """Sum each player's tournament standings, or only the best ``best`` of
    them (by big points, then small points)."""
    per_player: dict[str, list[Standing]] = {}
    for standings in tournaments:
        for player, standing in standings.items():
            per_player.setdefault(player, []).append(standing)
    if best is not None:
        read_int(best, "best", "invalid_input", minimum=1)
    totals: dict[str, Standing] = {}
    for player, results in per_player.items():
        counted = results if best is None else sorted(results, key=_strength, reverse=True)[:best]
        total = Standing(player)
        for standing in counted:
            total = total + replace(standing, id=player)
        totals[player] = total
    return totals


def season_running_totals(results: Sequence[Standing | None], best: int | None = None) -> list[Standing | None]:
    """One player's season total after each tournament in turn, ``None`` before their first:
    for every prefix of ``results`` what :func:`season_totals` gives, in one pass.

    A season chart shows the leaders after each tournament; adding up every prefix of the
    season again costs the square of its tournaments (a minute at 300). Here each result
    enters a heap of the best ``best`` so far, the weakest (the later of equal ones, as
    :func:`season_totals` keeps the earlier) leaving when it overflows.
    """
    if best is not None:
        read_int(best, "best", "invalid_input", minimum=1)
    kept: list[tuple[tuple[float, int], int, Standing]] = []  # min-heap: the weakest, then the latest, first
    running: Standing | None = None
    totals: list[Standing | None] = []
    for index, standing in enumerate(results):
        if standing is not None:
            if best is None:
                running = (Standing(standing.id) if running is None else running) + replace(standing, id=standing.id)
            else:
                heapq.heappush(kept, (_strength(standing), -index, standing))
                if len(kept) > best:
                    heapq.heappop(kept)
                # summed in season_totals' order (strongest first), so the floats agree exactly
                counted = sorted(kept, key=lambda item: (item[0], item[1]), reverse=True)
                running = Standing(standing.id)
                for _, _, one in counted:
                    running = running + replace(one, id=standing.id)
        totals.append(running)
    return totals


def award_points(ranked: Sequence[Ranked], points: Sequence[float], *, positive_only: bool = True) -> dict[str, float]:
    """Big points for tournament places (psb example II: 1st 100 …).

    Only standings with positive small points are classified when
    ``positive_only``; a shared place shares the sum of the places it covers;
    places past the end of ``points`` get nothing.
    """
    awards = {r.standing.id: 0.0 for r in ranked}
    classified = [r for r in ranked if r.standing.small_points > 0 or not positive_only]
    position = 0  # places taken by classified standings so far
    for place in sorted({r.place for r in classified}):
        group = [r for r in classified if r.place == place]
        covered = points[position : position + len(group)]
        for r in group:
            awards[r.standing.id] = float(sum(covered)) / len(group)
        position += len(group)
    return awards


def season_place_points(ranked: Sequence[Ranked], points: Sequence[float]) -> dict[str, Standing]:
    """One tournament's ranking as a season of places counts it (psb example II): each
    entry's big points become the season points for its place (:func:`award_points`,
    positive results only; "nie został sklasyfikowany – 0 pkt"), its small points stay
    as the second figure. :func:`season_totals` adds the tournaments up. ``points`` out of
    a ruleset's bounds (:func:`parse_place_points`) raise ``invalid_input``."""
    awards = award_points(ranked, parse_place_points(list(points)))
    return {r.standing.id: replace(r.standing, big_points=awards[r.standing.id]) for r in ranked}
