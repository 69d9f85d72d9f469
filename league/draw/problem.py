"""Validation of a draw request and its translation into integer arrays.

Everything impossible is refused here, before any search starts, so the
service layer can show the reason (``DrawError.code`` + ``params``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .errors import DrawError
from .model import SEAT_LETTERS, TABLE_SIZES, DrawPlayer, FixedSeat, Pair, SeriesDraw

# Per new series: player number -> (table number from 0, seat number or None).
Pins = list[dict[int, tuple[int, int | None]]]


@dataclass(frozen=True)
class Problem:
    """A validated request; players are numbered in input order (never by hashing).

    ``table_size`` is the number of players at every table (3 or 4).
    ``team`` holds a team number per player, individuals get ``n_teams`` (a
    column that is never counted as a clash).  ``base`` is the meeting matrix
    before the new series: earlier meetings plus the fixed series. ``excess``
    is, per team number, how many of its members must be on a bye in every new
    series because the team has more players than there are tables.
    ``pins`` are the fixed seats (stałe miejsca) of every new series.
    """

    ids: list[str]
    table_size: int
    team: np.ndarray
    n_teams: int
    tables: int
    byes_per_series: int
    new_series: int
    base: np.ndarray
    bye_taken: np.ndarray
    excess: np.ndarray
    pins: Pins


def _require(condition: bool, field: str, what: str) -> None:
    if not condition:
        raise DrawError("invalid_input", f"Invalid input: {field} {what}.", field=field)


def _check_players(players: Sequence[DrawPlayer], table_size: int) -> None:
    _require(isinstance(players, Sequence), "players", "must be a list")
    seen: set[str] = set()
    for i, p in enumerate(players):
        _require(isinstance(p, DrawPlayer), f"players[{i}]", "must be a player")
        _require(isinstance(p.id, str) and p.id != "", f"players[{i}].id", "must be a non-empty string")
        _require(p.team is None or isinstance(p.team, str), f"players[{i}].team", "must be a string or null")
        if p.id in seen:
            raise DrawError("duplicate_player", f"Player id {p.id} appears more than once.", player=p.id)
        seen.add(p.id)
    if len(players) < table_size:
        raise DrawError(
            "too_few_players",
            f"A draw needs at least {table_size} players for one table; {len(players)} given.",
            players=len(players),
            table_size=table_size,
        )


def _team_sizes(players: Sequence[DrawPlayer]) -> dict[str, int]:
    """Players per team, in first-appearance order (deterministic)."""
    sizes: dict[str, int] = {}
    for p in players:
        if p.team is not None:
            sizes[p.team] = sizes.get(p.team, 0) + 1
    return sizes


def _check_teams(sizes: Mapping[str, int], tables: int, byes_per_series: int) -> dict[str, int]:
    """The members each team must have on a bye in every series so that the rest sit apart.

    A team larger than the number of tables fits only when that many of its
    members sit out each series (docs/draw.md, "Teams larger than the tables").
    """
    excess = {team: size - tables for team, size in sizes.items() if size > tables}
    for team, extra in excess.items():
        if extra > byes_per_series:
            raise DrawError(
                "team_too_large",
                f"Team {team} has {sizes[team]} players but there are only {tables} tables and "
                f"{byes_per_series} byes per series, so its members cannot all sit apart.",
                team=team,
                members=sizes[team],
                tables=tables,
                byes=byes_per_series,
            )
    if sum(excess.values()) > byes_per_series:
        raise DrawError(
            "teams_too_large",
            f"Teams {', '.join(excess)} need {sum(excess.values())} byes per series to keep their members "
            f"apart at {tables} tables, but only {byes_per_series} players sit out each series.",
            teams=list(excess),
            needed=sum(excess.values()),
            tables=tables,
            byes=byes_per_series,
        )
    return excess


def _check_team_byes(
    sizes: Mapping[str, int], excess: Mapping[str, int], eligible: Mapping[str, int], tables: int, new_series: int
) -> None:
    """A team larger than the tables needs new bye players in every new series (one bye per player)."""
    for team, extra in excess.items():
        if extra * new_series > eligible[team]:
            raise DrawError(
                "team_byes_exhausted",
                f"Team {team} has {sizes[team]} players for {tables} tables, so {extra} of them must sit out "
                f"in each of {new_series} series, but only {eligible[team]} have not had a bye.",
                team=team,
                members=sizes[team],
                tables=tables,
                excess=extra,
                series=new_series,
                eligible=eligible[team],
            )


def _fixed_index(
    fixed: Sequence[SeriesDraw], index: Mapping[str, int], table_size: int
) -> list[tuple[list[list[int]], list[int]]]:
    """Fixed series as player numbers; tables of ``table_size``, each player at most once per series."""
    out = []
    for s, series in enumerate(fixed):
        _require(isinstance(series, SeriesDraw), f"fixed[{s}]", "must be a series")
        seen: set[str] = set()
        tables = []
        for t, table in enumerate(series.tables):
            if len(table) != table_size:
                raise DrawError(
                    "invalid_fixed_series",
                    f"Fixed series {s + 1}, table {t + 1} has {len(table)} players instead of {table_size}.",
                    series=s + 1,
                    table=t + 1,
                )
            tables.append(list(table))
        for player in [p for table in tables for p in table] + list(series.byes):
            if player not in index:
                raise DrawError(
                    "unknown_player",
                    f"Fixed series {s + 1} names player {player}, who is not in the player list.",
                    player=player,
                    series=s + 1,
                )
            if player in seen:
                raise DrawError(
                    "invalid_fixed_series",
                    f"Player {player} appears twice in fixed series {s + 1}.",
                    series=s + 1,
                    player=player,
                )
            seen.add(player)
        out.append(([[index[p] for p in table] for table in tables], [index[p] for p in series.byes]))
    return out


def _fixed_seat_error(code: str, message: str, seat: FixedSeat, series: int, **params: object) -> DrawError:
    return DrawError(code, message, player=seat.player, table=seat.table, series=series, **params)


def _check_pinned_table(
    pinned: Mapping[int, tuple[int, int | None]],
    table: int,
    players: Sequence[DrawPlayer],
    table_size: int,
    number: int,
) -> None:
    """The fixed seats of one table of one series must fit it: seats, letters and teams."""
    here = sorted(p for p, (t, _seat) in pinned.items() if t == table)
    if len(here) > table_size:
        raise DrawError(
            "fixed_table_full",
            f"{len(here)} players are kept at table {table + 1} in series {number}, which seats {table_size}.",
            table=table + 1,
            series=number,
            count=len(here),
            table_size=table_size,
        )
    for i, a in enumerate(here):
        for b in here[i + 1 :]:
            ids = players[a].id, players[b].id
            if players[a].team is not None and players[a].team == players[b].team:
                raise DrawError(
                    "fixed_teammates",
                    f"{ids[0]} and {ids[1]} of team {players[a].team} are both kept at table {table + 1}.",
                    player=ids[0],
                    other=ids[1],
                    team=players[a].team,
                    table=table + 1,
                    series=number,
                )
            seat = pinned[a][1]
            if seat is not None and seat == pinned[b][1]:
                raise DrawError(
                    "fixed_seat_taken",
                    f"{ids[0]} and {ids[1]} are both kept at seat {SEAT_LETTERS[seat]} of table {table + 1} "
                    f"in series {number}.",
                    player=ids[0],
                    other=ids[1],
                    table=table + 1,
                    seat=SEAT_LETTERS[seat],
                    series=number,
                )


def _pins(
    fixed_seats: Sequence[FixedSeat],
    players: Sequence[DrawPlayer],
    index: Mapping[str, int],
    tables: int,
    table_size: int,
    new_series: int,
) -> Pins:
    """The fixed seats per new series, refused when they cannot all hold at once."""
    pins: Pins = [{} for _ in range(new_series)]
    for k, seat in enumerate(fixed_seats):
        _require(isinstance(seat, FixedSeat), f"fixed_seats[{k}]", "must be a fixed seat")
        if seat.player not in index:
            raise DrawError(
                "unknown_player", f"Player {seat.player} has a fixed seat but is not drawn.", player=seat.player
            )
        _require(seat.series is None or 1 <= seat.series <= new_series, f"fixed_seats[{k}].series", "out of range")
        numbers = range(1, new_series + 1) if seat.series is None else [seat.series]
        if not 1 <= seat.table <= tables:
            raise _fixed_seat_error(
                "fixed_table_missing",
                f"{seat.player} is kept at table {seat.table}, but the players fill {tables} tables.",
                seat,
                numbers[0],
                tables=tables,
            )
        _require(seat.seat is None or 0 <= seat.seat < table_size, f"fixed_seats[{k}].seat", "out of range")
        for number in numbers:
            if index[seat.player] in pins[number - 1]:
                raise _fixed_seat_error(
                    "fixed_seat_twice", f"{seat.player} has two fixed seats in series {number}.", seat, number
                )
            pins[number - 1][index[seat.player]] = (seat.table - 1, seat.seat)
    for s, pinned in enumerate(pins):
        for table in sorted({t for t, _seat in pinned.values()}):
            _check_pinned_table(pinned, table, players, table_size, s + 1)
    return pins


def build_problem(
    players: Sequence[DrawPlayer],
    series: int,
    seed: int,
    fixed: Sequence[SeriesDraw],
    meetings: Mapping[Pair, int] | None,
    had_bye: Collection[str],
    budget: int | None,
    table_size: int,
    fixed_seats: Sequence[FixedSeat] = (),
) -> Problem:
    """Validate everything and return the integer form of the request."""
    _require(
        isinstance(table_size, int) and not isinstance(table_size, bool) and table_size in TABLE_SIZES,
        "table_size",
        "must be 3 or 4",
    )
    _check_players(players, table_size)
    _require(isinstance(seed, int) and not isinstance(seed, bool), "seed", "must be an integer")
    _require(budget is None or (isinstance(budget, int) and budget >= 0), "budget", "must be a non-negative integer")
    if not isinstance(series, int) or isinstance(series, bool) or series < 1:
        raise DrawError(
            "invalid_series_count", f"The number of series must be at least 1; {series!r} given.", series=series
        )
    if len(fixed) > series:
        raise DrawError(
            "too_many_fixed_series",
            f"{len(fixed)} series are already drawn but the tournament has only {series}.",
            fixed=len(fixed),
            series=series,
        )
    n = len(players)
    tables = n // table_size
    byes_per_series = n % table_size
    sizes = _team_sizes(players)
    excess = _check_teams(sizes, tables, byes_per_series)
    team_names = list(sizes)
    team_no = {name: k for k, name in enumerate(team_names)}
    team = np.array([team_no[p.team] if p.team is not None else len(team_names) for p in players], dtype=np.int64)
    index = {p.id: i for i, p in enumerate(players)}

    _require(meetings is None or isinstance(meetings, Mapping), "meetings", "must map pairs to counts")
    base = np.zeros((n, n), dtype=np.int64)
    for key, count in (meetings or {}).items():
        _require(isinstance(key, tuple) and len(key) == 2, "meetings", "keys must be pairs of player ids")
        _require(isinstance(count, int) and count >= 0, "meetings", "counts must be non-negative integers")
        a, b = key
        # Earlier meetings of players absent today cannot matter for this draw.
        if a in index and b in index and a != b:
            base[index[a], index[b]] += count
            base[index[b], index[a]] += count

    bye_taken = np.zeros(n, dtype=bool)
    for player in had_bye:
        if player not in index:
            raise DrawError(
                "unknown_player", f"Player {player} had a bye but is not in the player list.", player=player
            )
        bye_taken[index[player]] = True
    for tables_ix, byes_ix in _fixed_index(fixed, index, table_size):
        for table in tables_ix:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    base[a, b] += 1
                    base[b, a] += 1
        bye_taken[byes_ix] = True

    new_series = series - len(fixed)
    _check_team_byes(
        sizes,
        excess,
        {name: int((~bye_taken[team == team_no[name]]).sum()) for name in excess},
        tables,
        new_series,
    )
    needed = byes_per_series * new_series
    eligible = int((~bye_taken).sum())
    if needed > eligible:
        raise DrawError(
            "not_enough_bye_players",
            f"{new_series} series with {byes_per_series} byes each need {needed} different players "
            f"on a bye, but only {eligible} players have not had one (at most one bye per player).",
            byes_per_series=byes_per_series,
            series=new_series,
            needed=needed,
            eligible=eligible,
        )
    return Problem(
        ids=[p.id for p in players],
        table_size=table_size,
        team=team,
        n_teams=len(team_names),
        tables=tables,
        byes_per_series=byes_per_series,
        new_series=new_series,
        base=base,
        bye_taken=bye_taken,
        excess=np.array([excess.get(name, 0) for name in team_names] + [0], dtype=np.int64),
        pins=_pins(fixed_seats, players, index, tables, table_size, new_series),
    )


def check_fixed_seats(
    players: Sequence[DrawPlayer], fixed_seats: Sequence[FixedSeat], *, series: int, table_size: int
) -> None:
    """Refuse fixed seats that cannot all hold together at the tables ``players`` fill in ``series`` series.

    The same refusals as the draw's, for checking fixed seats when they are set;
    ``FixedSeat.series`` counts from the first of the ``series``.
    """
    index = {p.id: i for i, p in enumerate(players)}
    _pins(fixed_seats, players, index, len(players) // table_size, table_size, series)
