"""A player's statistics from the deals themselves (statystyki), for their page.

Per game the player played: the deals they sat at, how often they played each contract on
the declaring side (at Baśka the old side, starzy: the declarer or the pair of the queens of
clubs; at Preferans the declarer, rozgrywający) and how often that side won it, and the kontras
their side gave and received. Each game reads its own deals (``GameRules.seat_tally``); only
closed series with their results published count, of published tournaments, as everywhere
on the public site.

A regular's deals run into tens of thousands after a few seasons, so each player's tally of
each tournament is kept in the cache under the tournament's standings stamp (which every
change of its results moves): the standings' recompute task tallies every player of a
tournament whose results changed in one pass over its deals (:func:`statistics_refresh`), a
page reads a player's tallies in one round trip, and reads the deals itself only for a
tournament whose tally is not ready yet.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.db.models import Exists, OuterRef

import scoring
from league.models import Series, TableAssignment, Tournament
from league.results.models import DealRow
from players.models import Player

CACHE_SECONDS = 24 * 60 * 60  # under a stamp that no longer matches a tally is never read
VALUE_FIELDS = tuple(f"value_{seat.lower()}" for seat in scoring.SEATS)

# one tournament's tally: deals, kontras, and per contract [played, won]
Tally = dict[str, Any]


def _key(player_id: int, tournament_id: int, stamp: str) -> str:
    return f"statistics:{player_id}:{tournament_id}:{stamp}"


def _empty() -> Tally:
    return {"deals": 0, "given": 0, "received": 0, "contracts": {}}


def _tallies(tournaments: dict[int, Tournament], player: Player | None = None) -> dict[tuple[int, int], Tally]:
    """Per (player, tournament) of ``tournaments`` (pk → tournament), the tally of the deals at
    their seat, in two queries: of every player who sat at a table, or of ``player`` alone."""
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
    tallies: dict[tuple[int, int], Tally] = {}
    for series_id, table, tournament_id, entry, *values in rows.values_list(
        "protocol__series_id", "protocol__table", "protocol__series__tournament_id", "deal", *VALUE_FIELDS
    ).iterator(chunk_size=2000):
        game = tournaments[tournament_id].game_rules()
        by_seat = dict(zip(scoring.SEATS, values, strict=True))
        for seat, player_id in seated[series_id, table]:
            tally = game.seat_tally(entry=entry, values=by_seat, seat=seat)
            if tally is None:
                continue
            counted = tallies.setdefault((player_id, tournament_id), _empty())
            counted["deals"] += 1
            counted["given"] += tally.kontra_given
            counted["received"] += tally.kontra_received
            if tally.contract:
                played = counted["contracts"].setdefault(tally.contract, [0, 0])
                played[0] += 1
                played[1] += tally.made
    return tallies


def statistics_refresh(tournament: Tournament, stamp: str) -> None:
    """Tally every player of ``tournament`` under its standings ``stamp``, in one pass over its deals.

    The recompute task runs after every deal saved, while the stamp moves only when a closed
    series changes: under a stamp already tallied there is nothing to do.
    """
    tallied = f"statistics:tallied:{tournament.pk}:{stamp}"
    if cache.get(tallied):
        return
    tallies = _tallies({tournament.pk: tournament})
    players = tournament.registrations.values_list("player_id", flat=True)
    cache.set_many(
        {_key(pk, tournament.pk, stamp): tallies.get((pk, tournament.pk), _empty()) for pk in players},
        CACHE_SECONDS,
    )
    cache.set(tallied, True, CACHE_SECONDS)


def player_statistics(player: Player, history: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per game, the player's statistics over ``history`` (``player_page_history``: the published
    tournaments with their stamps): deals, kontras given and received, and the contracts played
    on the declaring side with how often that side won, the most played first."""
    keys = {_key(player.pk, item["tournament"].pk, item["stamp"]): item["tournament"] for item in history}
    kept = cache.get_many(list(keys))
    missing = {tournament.pk: tournament for key, tournament in keys.items() if key not in kept}
    if missing:
        fresh = _tallies(missing, player)
        found = {
            key: fresh.get((player.pk, tournament.pk), _empty())
            for key, tournament in keys.items()
            if tournament.pk in missing
        }
        cache.set_many(found, CACHE_SECONDS)
        kept.update(found)
    per_game: dict[str, dict[str, Any]] = {}
    for key, tournament in keys.items():
        tally = kept[key]
        if not tally["deals"]:
            continue
        game = per_game.setdefault(
            tournament.game,
            {
                "rules": tournament.game_rules(),
                "deals": 0,
                "given": 0,
                "received": 0,
                "played": Counter(),
                "won": Counter(),
            },
        )
        game["deals"] += tally["deals"]
        game["given"] += tally["given"]
        game["received"] += tally["received"]
        for contract, (played, won) in tally["contracts"].items():
            game["played"][contract] += played
            game["won"][contract] += won
    return [
        {
            "game": key,
            "label": game["rules"].label,
            "deals": game["deals"],
            "kontra_given": game["given"],
            "kontra_received": game["received"],
            "contracts": [
                {
                    "label": game["rules"].contract_label(contract),
                    "played": played,
                    "won": game["won"][contract],
                    "share": round(100 * game["won"][contract] / played),
                }
                for contract, played in sorted(game["played"].items(), key=lambda pair: (-pair[1], pair[0]))
            ],
        }
        for key, game in per_game.items()
    ]
