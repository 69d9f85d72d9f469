"""A player's statistics from the deals themselves (statystyki), for their page.

Per game the player played: the deals they sat at, how often they played each contract on
the declaring side (at Baśka the old side, starzy: the declarer or the pair of the queens of
clubs; at Preferans the declarer, rozgrywający) and how often that side won it, and what else
the game tallies (``GameRules.tallies``, Baśka's doublings given and received). Each game reads its
own deals (``GameRules.seat_tally``); only
closed series with their results published count, of published tournaments, as everywhere
on the public site.

A regular's deals run into tens of thousands after a few seasons, so each player's tally of
each tournament is kept in their kept result of that tournament (``league.standings.summaries``),
under the tournament's standings stamp (which every change of its results moves): the
recompute task tallies every player of a tournament whose results changed in one pass over
its deals (:func:`deal_tallies`), and a player's page adds up the tallies it reads.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef

import scoring
from league.figures import rounded
from league.games import game_of
from league.games.base import SeatTally
from league.models import Series, TableAssignment, Tournament
from league.results.models import DealRow
from players.models import Player

VALUE_FIELDS = tuple(f"value_{seat.lower()}" for seat in scoring.SEATS)

# one tournament's tally: deals, per contract [played, won], per contract won the latest [series
# number, table] where it was (the records link there), and a count per key of the game's own tallies
Tally = dict[str, Any]


def empty_tally() -> Tally:
    return {"deals": 0, "contracts": {}, "won_at": {}}


@dataclass(frozen=True)
class DealTally:
    """One deal as it counts for one player seated at its table (``GameRules.seat_tally``), with
    where it was played: the series (by pk and number), the table and the tournament (by pk)."""

    series_id: int
    series_number: int
    table: int
    tournament_id: int
    player_id: int
    tally: SeatTally


def seat_tallies(*, tournaments: dict[int, Tournament], player: Player | None = None) -> Iterator[DealTally]:
    """Every deal of the closed series with published results of ``tournaments`` (pk → tournament,
    the caller's choice of published ones) as it counts for each player at its table, or for
    ``player`` alone, in two queries: the one read of the deals the statistics and the records
    (``league.standings.records``) make."""
    visible = Series.objects.filter(
        tournament_id__in=list(tournaments), status=Series.Status.CLOSED, results_published=True
    )
    assignments = TableAssignment.objects.filter(series__in=visible)
    rows = DealRow.objects.filter(protocol__series__in=visible)
    if player is not None:
        assignments = assignments.filter(player=player)
        rows = rows.filter(
            Exists(assignments.filter(series=OuterRef("protocol__series"), table=OuterRef("protocol__table")))
        )
    seated: dict[tuple[int, int], list[tuple[str, int]]] = defaultdict(list)
    for series_id, table, seat, player_id in assignments.values_list("series_id", "table", "seat", "player_id"):
        seated[series_id, table].append((seat, player_id))
    for series_id, number, table, tournament_id, entry, *values in rows.values_list(
        "protocol__series_id",
        "protocol__series__number",
        "protocol__table",
        "protocol__series__tournament_id",
        "deal",
        *VALUE_FIELDS,
    ).iterator(chunk_size=2000):
        game = game_of(tournaments[tournament_id])
        by_seat = dict(zip(scoring.SEATS, values, strict=True))
        for seat, player_id in seated[series_id, table]:
            tally = game.seat_tally(entry=entry, values=by_seat, seat=seat)
            if tally is not None:
                yield DealTally(series_id, number, table, tournament_id, player_id, tally)


def deal_tallies(tournaments: dict[int, Tournament], player: Player | None = None) -> dict[tuple[int, int], Tally]:
    """Per (player, tournament) of ``tournaments`` (pk → tournament), the tally of the deals at
    their seat (:func:`seat_tallies`): of every player who sat at a table, or of ``player`` alone."""
    tallies: dict[tuple[int, int], Tally] = {}
    for dealt in seat_tallies(tournaments=tournaments, player=player):
        tally = dealt.tally
        counted = tallies.setdefault((dealt.player_id, dealt.tournament_id), empty_tally())
        counted["deals"] += 1
        for key in tally.counted:
            counted[key] = counted.get(key, 0) + 1
        if tally.contract:
            played = counted["contracts"].setdefault(tally.contract, [0, 0])
            played[0] += 1
            played[1] += tally.made
            if tally.made:
                here = [dealt.series_number, dealt.table]
                counted["won_at"][tally.contract] = max(counted["won_at"].get(tally.contract, here), here)
    return tallies


def player_statistics(history: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per game, the player's statistics over ``history`` (``player_page_history``: the published
    tournaments, each with the player's kept ``result`` and its ``tally``): deals, the game's own
    tallies with their labels (none when none is counted), and the contracts played on the
    declaring side with how often that side won, the most played first."""
    per_game: dict[str, dict[str, Any]] = {}
    for item in history:
        tournament, result = item["tournament"], item.get("result")
        tally = result.tally if result is not None else empty_tally()
        if not tally["deals"]:
            continue
        game = per_game.setdefault(
            tournament.game,
            {
                "rules": game_of(tournament),
                "deals": 0,
                "counted": Counter(),
                "played": Counter(),
                "won": Counter(),
            },
        )
        game["deals"] += tally["deals"]
        game["counted"].update({key: tally.get(key, 0) for key, _label in game["rules"].tallies})
        for contract, (played, won) in tally["contracts"].items():
            game["played"][contract] += played
            game["won"][contract] += won
    return [
        {
            "game": key,
            "label": game["rules"].label,
            "deals": game["deals"],
            "tallies": [{"label": label, "count": game["counted"][key]} for key, label in game["rules"].tallies]
            if any(game["counted"].values())
            else [],
            "contracts": [
                {
                    "label": game["rules"].contract_label(contract),
                    "played": played,
                    "won": game["won"][contract],
                    "share": int(rounded(100 * game["won"][contract] / played)),
                }
                for contract, played in sorted(game["played"].items(), key=lambda pair: (-pair[1], pair[0]))
            ],
        }
        for key, game in per_game.items()
    ]
