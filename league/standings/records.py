"""The records (rekordy: the league's all-time records) of a whole installation or of one league,
as BridgeWebs keeps personal records for bridge: per game, the players who won the most
tournaments, the best series ever (the most small points one player scored at one table), who
won each contract the game keeps a list for most often, and who played the most (deals, or
what the game counts instead): the game names its lists (``GameRules.records``). Each list holds
the first ``RECORD_SIZE`` with where the figure was made, for a link to the deals behind it.

Only what the public statistics count counts here: published tournaments, and of them the series
closed with their results published; a tournament is won once every one of its series is closed
and published, by the first of its individual ranking, if the organiser publishes it.

A league's history grows by a tournament a month, so the records never read its deals: each
tournament's share (its **part**) comes from its players' kept rows (``PlayerResult``: the series
at a table, the deals' tally, the place), which every change of its results rewrites under the
new standings stamp; the lists are kept under a digest of every stamp of the scope, so a visit
reads the stamps and one cached value, and a rebuild reads the rows of the scope in two queries.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from league.caching import StampedKind
from league.games import game_of, game_rules, linked_related
from league.games.base import GameRecords
from league.models import League, Series, Tournament
from league.ranking_lists import INDIVIDUAL
from league.standings.cache import stamps
from league.standings.models import PlayerResult
from league.standings.summaries import tournament_results
from players.models import Player
from players.names import player_key

RECORD_SIZE = 10  # the places each list shows

# Where a figure was made: the tournament (by pk), the series' number and the table (0: none).
Where = tuple[int, int, int]


@dataclass(frozen=True)
class RecordLine:
    """One place of a record list: the player, their figure, the place (shared places as
    "2–3."), and where the figure was made (the latest time, for a count): the tournament, and
    the series and table (``table`` 0 where the link is to the tournament's standings)."""

    place: str
    player_id: int
    name: str
    figure: int
    tournament_slug: str
    tournament_name: str
    series: int
    table: int


@dataclass(frozen=True)
class RecordList:
    """One record: its heading, the kind of its figure ("wins", "points" or "count") and its lines."""

    key: str
    title: str
    kind: str
    lines: list[RecordLine]

    @property
    def ident(self) -> str:
        """The list's key as a page's anchor ("contract-<the game's key of the contract>")."""
        return self.key.replace(":", "-")


@dataclass(frozen=True)
class GameRecordLists:
    """The records of one game (their figures are not the same unit across games), with the
    game's name and its word for the best series' figure, in the reader's language."""

    game: str
    label: str
    small_points: str
    lists: list[RecordList]


# What the cache keeps of a scope, in no language: per game, its lists as (key, lines).
Kept = list[tuple[str, list[tuple[str, list[RecordLine]]]]]


@dataclass
class PlayerPart:
    """One player's figures in one tournament: the deals and the series played at a table (with
    the latest series and table), and per kind of contract the number won and the latest."""

    deals: int = 0
    series: int = 0
    last: tuple[int, int] = (0, 0)
    contracts: dict[str, tuple[int, tuple[int, int]]] = field(default_factory=dict)


@dataclass
class TournamentPart:
    """One tournament's share of the records: its game, its winners once it is over, its players'
    figures and its best series, as ``(small points, player, series, table)``."""

    game: str
    winners: list[int] = field(default_factory=list)
    players: dict[int, PlayerPart] = field(default_factory=dict)
    best: list[tuple[int, int, int, int]] = field(default_factory=list)


RECORD_LISTS: StampedKind[Kept] = StampedKind("record-lists", Kept)
RECORD_PART: StampedKind[TournamentPart] = StampedKind("record-part", TournamentPart)


def scope_tournaments(*, league: League | None) -> QuerySet[Tournament]:
    """The published tournaments the records of ``league`` (None: the installation) count."""
    tournaments = Tournament.objects.filter(published=True)
    return tournaments if league is None else tournaments.filter(league=league)


def records(*, league: League | None = None) -> list[GameRecordLists]:
    """The records of ``league``'s published tournaments, or of every published tournament of the
    installation; per game, the most played first. Two queries on a visit (the stamps, and the
    cache's value); the lists are built once per stamp of the scope (``RECORD_LISTS.current``) and put in
    words for the reader here."""
    current = stamps(scope_tournaments(league=league))
    if not current:
        return []
    digest = hashlib.blake2b(repr(sorted(current.items())).encode(), digest_size=8).hexdigest()
    scope = league.pk if league is not None else "all"
    kept = RECORD_LISTS.current(f"records:{scope}", digest, lambda: _kept(current))
    result = []
    for game, lists in kept:
        rules = game_rules(game)
        titles = {key: (title, kind) for key, title, kind in _shown(rules.records())}
        result.append(
            GameRecordLists(
                game,
                str(rules.label),
                str(rules.words.small_points),
                [RecordList(key, *titles[key], lines) for key, lines in lists],
            )
        )
    return result


def _shown(game: GameRecords) -> list[tuple[str, str, str]]:
    """A game's lists in page order: the key of its figure, its heading, and the kind of figure."""
    return [
        ("wins", _("Most tournaments won"), "wins"),
        ("best", str(game.best_series), "points"),
        *((f"contract:{kind.key}", str(kind.title), "count") for kind in game.contracts),
        ("series" if game.played_counts_series else "deals", str(game.played), "count"),
    ]


# --- each tournament's part ---------------------------------------------------


def _parts(tournaments: list[Tournament], current: dict[int, str]) -> dict[int, TournamentPart]:
    """Each tournament's part (pk → part) from its players' kept rows (``PlayerResult``: the
    series at a table, the deals' tally, the place), in two queries for the whole scope. A
    tournament whose rows are missing or behind its stamp (the recompute task has not run yet) is read from its
    standings afresh, unsaved (``summaries.tournament_results``), and its part kept in the cache
    under its stamp, so that only a changed tournament is read again."""
    over = _over_tournaments(tournaments)
    rows: dict[int, list[PlayerResult]] = defaultdict(list)
    for row in PlayerResult.objects.filter(tournament__in=tournaments).only(
        "tournament_id", "player_id", "stamp", "place", "series", "tally"
    ):
        rows[row.tournament_id].append(row)
    parts: dict[int, TournamentPart] = {}
    behind: list[Tournament] = []
    for tournament in tournaments:
        kept = rows.get(tournament.pk, [])
        if kept and all(row.stamp == current[tournament.pk] for row in kept):
            parts[tournament.pk] = _part(tournament, kept, over=tournament.pk in over)
        else:
            behind.append(tournament)
    keys = {f"records:tournament:{t.pk}": t for t in behind}
    cached = RECORD_PART.current_many({key: current[t.pk] for key, t in keys.items()})
    for key, tournament in keys.items():
        if key not in cached:
            fresh = tournament_results(tournament, current[tournament.pk]).players
            cached[key] = _part(tournament, fresh, over=tournament.pk in over)
            # kept at once: a process that tires of waiting for this build (``RECORD_LISTS.current``)
            # and builds the lists itself finds the parts read so far
            RECORD_PART.set(key, (current[tournament.pk], cached[key]))
        parts[tournament.pk] = cached[key]
    return parts


def _part(tournament: Tournament, rows: Iterable[PlayerResult], *, over: bool) -> TournamentPart:
    """A tournament's part from its players' rows: per player the deals and the series played at a
    table (with the latest), each kind of contract won (with the latest), the tournament's best
    series, and its winners once it is over (the first of the individual ranking, where published)."""
    kinds = game_of(tournament).records().contracts
    part = TournamentPart(tournament.game)
    for row in rows:
        player = PlayerPart(deals=row.tally.get("deals", 0))
        for series in row.series:
            if series["table"] is None:  # a bye: no table, no series played
                continue
            here = (series["number"], series["table"])
            player.series += 1
            player.last = max(player.last, here)
            part.best.append((series["small_points"], row.player_id, *here))
        won = {contract: won for contract, (_played, won) in row.tally.get("contracts", {}).items() if won}
        won_at = row.tally.get("won_at", {})
        for kind in kinds:
            counted = [contract for contract in won if kind.counts(contract)]
            if counted:
                latest = max(tuple(won_at.get(contract, player.last)) for contract in counted)
                player.contracts[kind.key] = (sum(won[contract] for contract in counted), latest)
        if player.deals or player.series:
            part.players[row.player_id] = player
        if over and row.place == 1:
            part.winners.append(row.player_id)
    part.best = _top(part.best)
    return part


def _over_tournaments(tournaments: list[Tournament]) -> set[int]:
    """The tournaments (by pk) that are over and publish their individual ranking: every series
    played, closed and its results published, in one query."""
    series_of: dict[int, list[tuple[str, bool]]] = defaultdict(list)
    for tournament_id, status, published in Series.objects.filter(tournament__in=tournaments).values_list(
        "tournament_id", "status", "results_published"
    ):
        series_of[tournament_id].append((status, published))
    return {t.pk for t in tournaments if INDIVIDUAL.published(t) and _over(t, series_of[t.pk])}


def _over(tournament: Tournament, series: list[tuple[str, bool]]) -> bool:
    """Whether every series of the tournament is played, closed and its results published."""
    return len(series) >= tournament.series_count and all(
        status == Series.Status.CLOSED and published for status, published in series
    )


def _top(best: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The ``RECORD_SIZE`` best series, with any tied with the last of them (the names decide later)."""
    best = sorted(best, key=lambda b: -b[0])
    if len(best) <= RECORD_SIZE:
        return best
    edge = best[RECORD_SIZE - 1][0]
    return [b for b in best if b[0] >= edge]


# --- the lists ----------------------------------------------------------------


def _kept(current: dict[int, str]) -> Kept:
    """The lists of the tournaments of ``current`` (pk → stamp), as the cache keeps them."""
    tournaments = list(Tournament.objects.filter(pk__in=list(current)).select_related(*linked_related()))
    parts = _parts(tournaments, current)
    by_pk = {t.pk: t for t in tournaments}
    played = Counter(t.game for t in tournaments)
    games = sorted(played, key=lambda game: (-played[game], game))
    parts_of: dict[str, list[tuple[int, TournamentPart]]] = defaultdict(list)
    for tournament in sorted(tournaments, key=lambda t: (t.date, t.pk)):  # oldest first
        parts_of[parts[tournament.pk].game].append((tournament.pk, parts[tournament.pk]))
    figures = {game: _game_figures(parts_of[game]) for game in games}
    names = _names({pk for game in figures.values() for lines in game.values() for _figure, pk, _where in lines})
    kept: Kept = []
    for game in games:
        lists = []
        for key, _title, _kind in _shown(game_rules(game).records()):
            lines = _ranked(figures[game].get(key, []), names, by_pk)
            if lines:
                lists.append((key, lines))
        if lists:
            kept.append((game, lists))
    return kept


# Per list key, its candidates: (figure, player pk, where).
Figures = dict[str, list[tuple[int, int, Where]]]


def _game_figures(parts: list[tuple[int, TournamentPart]]) -> Figures:
    """Every player's figure of each list over the tournaments' ``parts`` of one game (oldest
    first), with where it was made: for a count the latest time, for the best series the series."""
    wins: Counter[int] = Counter()
    won_last: dict[int, Where] = {}
    totals: dict[str, Counter[int]] = defaultdict(Counter)
    latest: dict[str, dict[int, Where]] = defaultdict(dict)
    best: list[tuple[int, int, Where]] = []
    for pk, part in parts:
        for player in part.winners:
            wins[player] += 1
            won_last[player] = (pk, 0, 0)
        # a series lost is nobody's record, however few were played
        best += [(small, player, (pk, number, table)) for small, player, number, table in part.best if small > 0]
        for player, figures in part.players.items():
            for key, (count, here) in (
                ("deals", (figures.deals, figures.last)),
                ("series", (figures.series, figures.last)),
                *((f"contract:{kind}", won) for kind, won in figures.contracts.items()),
            ):
                if count:
                    totals[key][player] += count
                    latest[key][player] = (pk, *here)
    figures: Figures = {
        "wins": [(count, player, won_last[player]) for player, count in wins.items()],
        "best": best,
    }
    for key, counts in totals.items():
        figures[key] = [(count, player, latest[key][player]) for player, count in counts.items()]
    return figures


def _names(players: Iterable[int]) -> dict[int, Player]:
    named = Player.objects.filter(pk__in=set(players)).select_related("club")
    return {p.pk: p for p in named.only("pk", "first_name", "last_name", "public_initials", "club__name")}


def _ranked(
    candidates: list[tuple[int, int, Where]], names: dict[int, Player], tournaments: dict[int, Tournament]
) -> list[RecordLine]:
    """The first ``RECORD_SIZE`` of ``candidates``, the greatest figure first; of equal figures the
    names in Polish alphabetical order (by surname), as every list of the site."""
    ordered = sorted(candidates, key=lambda c: (-c[0], player_key(names[c[1]]), c[1], c[2]))[:RECORD_SIZE]
    lines = []
    for figure, player, (tournament_id, series, table) in ordered:
        above = sum(1 for c in candidates if c[0] > figure)
        level = sum(1 for c in candidates if c[0] == figure)
        place = f"{above + 1}." if level == 1 else f"{above + 1}–{above + level}."
        tournament = tournaments[tournament_id]
        lines.append(
            RecordLine(
                place, player, names[player].public_name, figure, tournament.slug, tournament.name, series, table
            )
        )
    return lines
