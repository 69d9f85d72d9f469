"""Reads of the player, team and season pages beyond their standings: a player's series one
by one, which members a team counts, and the season's leaders tournament by tournament.

A **seria** (series) is one round of a tournament at tables of four (or of three at Preferans);
a player's series row is their table, seat, opponents, small points (małe punkty: the protocol's
total; at Preferans the **rozliczone wisty**, settled whists, of the table's pulka), place at the
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

from django.db.models import Count, OuterRef, QuerySet, Subquery, prefetch_related_objects
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import scoring
from league.games.choices import Game
from league.models import Bye, Registration, Season, Series, TeamRanking, Tournament
from league.ranking_lists import INDIVIDUAL, points
from league.results.models import Penalty
from league.standings.cache import Places, progress_of, rankings_of
from league.standings.seasons import season_uses_big_points
from league.standings.selectors import player_history, team_history
from league.standings.tables import table_places, table_totals
from players.models import Player, Team
from players.names import player_key

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
    order: Any = field(default=(), compare=False)  # players.names.player_key: Polish order by surname


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


def _visible_series(tournament_ids: Sequence[int]) -> QuerySet[Series]:
    return Series.objects.filter(
        tournament_id__in=tournament_ids, status=Series.Status.CLOSED, results_published=True
    ).values("pk")


def series_rows(
    player: Player, tournaments: Sequence[Tournament], played: dict[int, set[int]]
) -> dict[int, list[SeriesRow]]:
    """Per tournament (by pk), the player's rows of the series the public may see, in series
    order: in four queries for all the tournaments. The tournaments come from a read of the
    published ones; their ``own_ruleset`` should be read, since each table's big points are
    the ruleset's. ``played`` names each tournament's series the standings count (a series
    counts once a table has a deal: a bye in a series not yet played is no row)."""
    visible = _visible_series([t.pk for t in tournaments])
    rulesets = {t.pk: t.standing_rules() for t in tournaments}
    rows: dict[int, dict[int, SeriesRow]] = defaultdict(dict)
    for at_table in table_totals(series=visible, player=player):
        if at_table.small_points is None:
            continue
        mine = next(seat for seat, a in at_table.seats.items() if a.player_id == player.pk)
        result = table_places(at_table.small_points, rulesets[at_table.tournament_id])[mine]
        rows[at_table.tournament_id][at_table.series_number] = SeriesRow(
            number=at_table.series_number,
            table=at_table.table,
            seat=mine,
            opponents=[
                Opponent(a.player_id, a.player.full_name, seat, at_table.small_points[seat], player_key(a.player))
                for seat, a in at_table.seats.items()
                if seat != mine
            ],
            small_points=result.small_points,
            big_points=points(result.big_points),
            place=result.place,
        )

    byes_in_series = Bye.objects.filter(series=OuterRef("series")).order_by().values("series")
    for tournament_id, number, count in (
        Bye.objects.filter(series__in=visible, player=player)
        .annotate(count=Subquery(byes_in_series.annotate(n=Count("pk")).values("n")))
        .values_list("series__tournament_id", "series__number", "count")
    ):
        compensation = scoring.bye_compensation(rulesets[tournament_id], count)
        rows[tournament_id][number] = SeriesRow(
            number=number, small_points=compensation.small_points, big_points=points(compensation.big_points)
        )
    for tournament_id, number, small, big, reason in Penalty.objects.filter(
        series__in=visible, player=player
    ).values_list("series__tournament_id", "series__number", "small_points", "big_points", "reason"):
        row = rows[tournament_id].get(number)
        if row is not None:
            row.penalties.append(PenaltyNote(small, points(float(big)), reason))
    return {
        tournament_id: [row for number, row in sorted(by_number.items()) if number in played.get(tournament_id, ())]
        for tournament_id, by_number in rows.items()
    }


def place_chart(player: Player, tournament: Tournament, progress: list[tuple[int, Places]]) -> Chart | None:
    """The player's place in the individual ranking after each series (``progress``,
    ``places_after_each_series``), once there are two."""
    if len(progress) < 2 or not tournament.publish_individual:
        return None
    places = [ranked.get(player.pk, (None, ""))[0] for _, ranked in progress]
    if all(place is None for place in places):
        return None
    field_size = max(len(ranked) for _, ranked in progress)
    steps = [str(number) for number, _ in progress]
    said = ", ".join(
        _("series %(number)s: %(place)s.") % {"number": n, "place": p}
        for n, p in zip(steps, places, strict=True)
        if p is not None
    )
    return line_chart(
        ident=f"places-{tournament.pk}",
        title=_("%(name)s's place after each series of %(tournament)s")
        % {"name": player.full_name, "tournament": tournament.name},
        description=_("Place in the individual ranking of %(count)s players after %(places)s")
        % {"count": field_size, "places": said},
        steps=steps,
        lines=[Line(player.full_name, places)],
        y_label=_("place"),
        x_label=_("series"),
        inverted=True,
        lowest=1,
        highest=field_size,
        value_label=lambda place: f"{charts.number(place)}.",
    )


def player_page_history(player: Player) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The player's tournaments, newest first, each with its entry of the individual ranking,
    the series rows and the chart of places; and the seasons (``standings.selectors.player_history``)."""
    history, seasons = player_history(player)
    tournaments = [item["tournament"] for item in history]
    _with_rulesets(tournaments)
    progress = progress_of(tournaments, {item["tournament"].pk: item["stamp"] for item in history})
    rows = series_rows(player, tournaments, {pk: {number for number, _ in p} for pk, p in progress.items()})
    for item in history:
        tournament = item["tournament"]
        item["rows"] = rows.get(tournament.pk, [])
        item["chart"] = place_chart(player, tournament, progress[tournament.pk]) if item["rows"] else None
    return history, seasons


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
    series rows), head to head; the games' small points are not the same unit, so never summed
    together. Of equally frequent opponents, the names in Polish alphabetical order (by surname)."""
    per_game: dict[str, dict[int, Rival]] = defaultdict(dict)
    words = {}
    for item in history:
        tournament = item["tournament"]
        words[tournament.game] = tournament.game_rules().words
        met = per_game[tournament.game]
        for row in item["rows"]:
            for opponent in row.opponents:
                rival = met.setdefault(opponent.pk, Rival(opponent.pk, opponent.name, opponent.order))
                rival.series += 1
                rival.mine += row.small_points
                rival.theirs += opponent.small_points
    return [
        {
            "label": Game(game).label,
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
    """Per game, the series the player played at a table (``player_page_history``'s rows; a bye is
    no series played): how many, the average small points, and the best and the worst series
    (of equal ones, the earliest)."""
    played: dict[str, list[SeriesHighlight]] = defaultdict(list)
    for item in reversed(history):  # oldest first, so the earliest of equals is picked
        for row in item["rows"]:
            if row.table is not None:
                highlight = SeriesHighlight(row.small_points, item["tournament"], row.number, row.table)
                played[item["tournament"].game].append(highlight)
    return {
        game: {
            "series": len(series),
            "average": sum(s.small_points for s in series) / len(series),
            "best": max(series, key=lambda s: s.small_points),
            "worst": min(series, key=lambda s: s.small_points),
        }
        for game, series in played.items()
    }


def _with_rulesets(tournaments: Sequence[Tournament]) -> None:
    """Read the own rulesets of ``tournaments`` in one query (``Tournament.ruleset`` needs them)."""
    prefetch_related_objects(list(tournaments), "own_ruleset")


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


def team_page_history(team: Team) -> list[dict[str, Any]]:
    """The team's tournaments, newest first, each with its entry of the team ranking
    (``standings.selectors.team_history``), its members' results marked counted or not, and
    the rule saying why; in two queries more than the tournaments' list."""
    history = team_history(team)
    tournaments = [item["tournament"] for item in history]
    _with_rulesets(tournaments)
    lists = rankings_of(tournaments, {item["tournament"].pk: item["stamp"] for item in history})
    members: dict[int, list[Player]] = defaultdict(list)
    for registration in Registration.objects.filter(team=team, tournament__in=tournaments).select_related("player"):
        members[registration.tournament_id].append(registration.player)
    for item in history:
        tournament = item["tournament"]
        entries = {e["pk"]: e for e in lists[tournament.pk]["individual"]}
        # the standings list a team's members by name before choosing its best: so here
        players = sorted(members[tournament.pk], key=lambda p: (player_key(p), p.pk))
        played = [p for p in players if p.pk in entries]
        best = tournament.team_best_of if tournament.team_ranking == TeamRanking.BEST else None
        small = counted([entries[p.pk]["small_points"] for p in played], best)
        big = counted([entries[p.pk]["big_points"] for p in played], best)
        by_place = tournament.standing_rules().team_big_points.by != "members"
        item["members"] = [
            Member(p.pk, p.full_name, entries[p.pk], i in small, not by_place and i in big)
            for i, p in enumerate(played)
        ] + [Member(p.pk, p.full_name, None) for p in players if p.pk not in entries]
        item["rule"] = team_rule(tournament, len(players))
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
