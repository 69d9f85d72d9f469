"""Reads of the player, team and season pages beyond their standings: a player's series one
by one, which members a team counts, and the season's leaders tournament by tournament.

A **seria** (series) is one round of a tournament at tables of four (or of three at Preferans);
a player's series row is their table, seat, opponents, small points (małe punkty: the protocol's
total, or what the game calls them, ``GameRules.words.small_points``), place at the
table and big points (duże punkty: for that place). Only what the public may see is
read: published tournaments, and series closed with their results published, as the
standings count them. Each read takes a fixed number of queries however many tournaments
or series there are; places and rankings come from ``league.standings.cache``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import scoring
from league.games import game_of, game_rules, linked_related
from league.models import Season, TeamRanking, Tournament
from league.ranking_lists import INDIVIDUAL, points
from league.standings.seasons import season_uses_big_points
from league.standings.selectors import PlayerReads, player_history, result_entry, team_history
from players.models import Gender, Player, Team
from players.names import name_key, player_key

from . import charts
from .charts import Chart, Geometry, Line, line_chart

TOP = 10  # the season chart's leaders


# --- a player's series ------------------------------------------------------


@dataclass(frozen=True)
class Opponent:
    """Another player at the player's table in one series, with their small points there."""

    pk: int
    name: str
    seat: str
    small_points: int = 0


@dataclass(frozen=True)
class PenaltyNote:
    """A referee's penalty (kara sędziowska) of the player in one series, with its reason."""

    small_points: int
    big_points: float | int
    reason: str


@dataclass
class SeriesRow:
    """The player's result in one series; a bye (wolny los) has no table, seat or place."""

    number: int
    table: int | None = None
    seat: str = ""
    opponents: list[Opponent] = field(default_factory=list)
    small_points: int = 0
    big_points: float | int = 0
    place: str = ""  # at the table: "1." or, shared, "1–2."
    penalties: list[PenaltyNote] = field(default_factory=list)


def series_row(kept: dict[str, Any]) -> SeriesRow:
    """One series as the player's kept result stores it (``summaries.series_results``), for the page."""
    return SeriesRow(
        number=kept["number"],
        table=kept["table"],
        seat=kept["seat"],
        opponents=[Opponent(o["pk"], o["name"], o["seat"], o["small_points"]) for o in kept["opponents"]],
        small_points=kept["small_points"],
        big_points=kept["big_points"],
        place=kept["place"],
        penalties=[PenaltyNote(p["small_points"], p["big_points"], p["reason"]) for p in kept["penalties"]],
    )


def place_chart(player: Player, tournament: Tournament, places: Sequence[Sequence[int | None]]) -> Chart | None:
    """The player's place in the individual ranking after each series (their kept result's
    ``places``: series number, place, players ranked then), once there are two."""
    if len(places) < 2 or not tournament.publish_individual:
        return None
    ranks = [place for _, place, _ in places]
    if all(place is None for place in ranks):
        return None
    field_size = max(ranked for _, _, ranked in places)
    steps = [str(number) for number, _, _ in places]
    said = ", ".join(
        _("series %(number)s: %(place)s.") % {"number": n, "place": p}
        for n, p in zip(steps, ranks, strict=True)
        if p is not None
    )
    return line_chart(
        ident=f"places-{tournament.pk}",
        title=_("%(name)s's place after each series of %(tournament)s")
        % {"name": player.public_name, "tournament": tournament.name},
        description=_("Place in the individual ranking of %(count)s players after %(places)s")
        % {"count": field_size, "places": said},
        steps=steps,
        lines=[Line(player.public_name, ranks)],
        y_label=_("place"),
        x_label=_("series"),
        inverted=True,
        lowest=1,
        highest=field_size,
        value_label=lambda place: f"{charts.number(place)}.",
    )


def player_page_history(player: Player, reads: PlayerReads) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The player's tournaments, newest first, each with its entry of the individual ranking and
    its ``series`` as kept (:func:`with_charts` turns them into rows and a chart of places for
    those a page shows); and the seasons (``standings.selectors.player_history``), from the
    ``reads`` the page's state made.
    All of it comes from the player's kept results, one per tournament, so the page reads the
    same few queries after one tournament or three hundred."""
    history, seasons = player_history(player, reads)
    _with_rulesets([item["tournament"] for item in history])
    for item in history:
        result = item["result"]
        item["series"] = result.series if result is not None else []
    return history, seasons


def with_charts(player: Player, shown: Sequence[dict[str, Any]]) -> None:
    """Give each of the ``shown`` tournaments of ``player_page_history`` its series rows and its
    chart of places: only those on the page, so a long history does not lay out every series and
    draw a chart for every tournament ever played."""
    for item in shown:
        item["rows"] = [series_row(kept) for kept in item["series"]]
        item["chart"] = place_chart(player, item["tournament"], item["result"].places) if item["rows"] else None


RIVALS = 10  # the opponents met most often, on the player's page


@dataclass
class Rival:
    """An opponent (rywal) the player met at the table, head to head: in how many series they sat
    at one table, and the small points each of them scored there (``mine`` the player's)."""

    pk: int
    name: str
    order: Any
    series: int = 0
    mine: int = 0
    theirs: int = 0


def rivals(history: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per game the player played, the ``RIVALS`` opponents met most often (``player_page_history``'s
    series as kept), head to head; the games' small points are not the same unit, so never summed
    together. Of equally frequent opponents, the names in Polish alphabetical order (by surname)."""
    per_game: dict[str, dict[int, Rival]] = defaultdict(dict)
    words = {}
    for item in history:
        tournament = item["tournament"]
        words[tournament.game] = game_of(tournament).words
        met = per_game[tournament.game]
        for row in item["series"]:
            for opponent in row["opponents"]:
                rival = met.get(opponent["pk"])
                if rival is None:  # Polish order by name, worked out once per opponent
                    last, first = opponent["sort"]
                    rival = Rival(opponent["pk"], opponent["name"], (name_key(last), name_key(first)))
                    met[opponent["pk"]] = rival
                rival.series += 1
                rival.mine += row["small_points"]
                rival.theirs += opponent["small_points"]
    return [
        {
            "label": game_rules(game).label,
            "words": words[game],
            "rivals": sorted(met.values(), key=lambda r: (-r.series, r.order, r.pk))[:RIVALS],
        }
        for game, met in per_game.items()
        if met
    ]


@dataclass(frozen=True)
class SeriesHighlight:
    """One of the player's series picked out (the best or the worst), with where it was played."""

    small_points: int
    tournament: Tournament
    number: int
    table: int


def series_figures(history: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per game, the series the player played at a table (``player_page_history``'s series as
    kept; a bye is no series played): how many, their small points in all and on average, and the best and the
    worst series (of equal ones, the earliest)."""
    played: dict[str, list[SeriesHighlight]] = defaultdict(list)
    for item in reversed(history):  # oldest first, so the earliest of equals is picked
        for row in item["series"]:
            if row["table"] is not None:
                highlight = SeriesHighlight(row["small_points"], item["tournament"], row["number"], row["table"])
                played[item["tournament"].game].append(highlight)
    return {
        game: {
            "series": len(series),
            "small_points": sum(s.small_points for s in series),
            "average": sum(s.small_points for s in series) / len(series),
            "best": max(series, key=lambda s: s.small_points),
            "worst": min(series, key=lambda s: s.small_points),
        }
        for game, series in played.items()
    }


def _with_rulesets(tournaments: Sequence[Tournament]) -> None:
    """Read what the games keep of ``tournaments`` in rows of their own (Baśka's own rules, which the
    rules' name and the standings' rules read) where their query did not, in one query."""
    prefetch_related_objects(list(tournaments), *linked_related())


# --- a team's counted members -------------------------------------------------


@dataclass(frozen=True)
class Member:
    """A team's player in one tournament, with their result and whether it counts for the
    team's small and for its big points (the best N at each figure count separately)."""

    pk: int
    name: str
    entry: dict[str, Any] | None  # their entry of the individual ranking; None: not played
    small_counted: bool = False
    big_counted: bool = False
    woman: bool = False  # the verbs said of the player agree with it ("nie grała")


def counted(values: Sequence[float], best: int | None) -> set[int]:
    """Which of the members' ``values`` (by index) a team counts: all, or the best ``best``, as
    ``scoring.team_standing`` chooses them (the greater first; of equal ones the earlier)."""
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=True)
    return set(order if best is None else order[:best])


def team_rule(tournament: Tournament, members: int) -> str:
    """The sentence saying how the tournament counts a team of ``members``."""
    if tournament.team_ranking != TeamRanking.BEST:
        return _("The team ranking counts the sum of all the team's players.")
    best = tournament.team_best_of
    return ngettext(
        "The team ranking counts the best %(best)s result of %(members)s.",
        "The team ranking counts the best %(best)s results of %(members)s.",
        best,
    ) % {"best": best, "members": members}


def team_page_history(team: Team, current: dict[int, str]) -> list[dict[str, Any]]:
    """The team's tournaments, newest first, each with its entry of the team ranking
    (``standings.selectors.team_history``), its members' results marked counted or not, and
    the rule saying why; from the kept results under the ``current`` stamps the page's state read."""
    history = team_history(team, current)
    _with_rulesets([item["tournament"] for item in history])
    for item in history:
        tournament = item["tournament"]
        # the standings list a team's members by name before choosing its best: so here
        results = sorted(item["results"], key=lambda r: (player_key(r.player), r.player_id))
        played = [r for r in results if r.ranked]
        best = tournament.team_best_of if tournament.team_ranking == TeamRanking.BEST else None
        small = counted([r.small_points for r in played], best)
        big = counted([r.big_points for r in played], best)
        by_place = game_of(tournament).standing_rules(tournament).team_big_points.by != "members"
        item["members"] = [
            Member(
                r.player_id,
                r.player.public_name,
                result_entry(r),
                i in small,
                not by_place and i in big,
                r.player.gender == Gender.WOMAN,
            )
            for i, r in enumerate(played)
        ] + [
            Member(r.player_id, r.player.public_name, None, woman=r.player.gender == Gender.WOMAN)
            for r in results
            if not r.ranked
        ]
        item["rule"] = team_rule(tournament, len(results))
        item["big_by_place"] = by_place
    return history


# --- the season's leaders -------------------------------------------------------


def season_chart(season: Season, tournaments: list[Tournament], individual: list[dict[str, Any]]) -> Chart | None:
    """The season's top 10 and their season points after each of its counted tournaments
    (``tournaments``, in date order), from the season's individual table (``individual``, as
    ``league.standings.seasons`` adds it up): each leader's results there, added up tournament
    by tournament as the season counts them (``scoring.season_running_totals``)."""
    ranked = [t for t in tournaments if INDIVIDUAL.published(t)]
    if not ranked:
        return None
    figure = "big_points" if season_uses_big_points(season, tournaments) else "small_points"
    leaders = individual[:TOP]
    if not leaders:
        return None
    lines = [Line(e["name"], _running(e, season.best_of, figure)) for e in leaders]
    steps = [t.date.strftime("%d.%m") for t in ranked]
    label = _("big points") if figure == "big_points" else _("small points")
    return line_chart(
        ident=f"season-{season.pk}",
        title=_("The season's top %(count)s after each tournament") % {"count": len(leaders)},
        description=_("%(figure)s of the season so far after each of %(count)s tournaments, for: %(names)s")
        % {"figure": label, "count": len(ranked), "names": ", ".join(e["name"] for e in leaders)},
        steps=steps,
        lines=lines,
        y_label=label,
        x_label=_("tournament"),
        geometry=Geometry(width=480, height=300, left=48, top=30, bottom=44, font_size=17),
    )


def _running(entry: dict[str, Any], best_of: int | None, figure: str) -> list[float | int | None]:
    """The entry's season ``figure`` after each tournament of its ``results``."""
    results = [
        None if r is None else scoring.Standing(str(entry["pk"]), r["big_points"], r["small_points"])
        for r in entry["results"]
    ]
    return [
        None if total is None else points(getattr(total, figure))
        for total in scoring.season_running_totals(results, best_of)
    ]
