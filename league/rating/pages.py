"""What the public pages show of the ratings beside their own lists: a player's rating in each
game with its place, a chart of its history and the places expected and taken series by series
(the player's page), and a table's expected order before its series (the table's page)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from league.games import game_rules
from league.models import Series
from league.public.charts import Chart, Line, line_chart
from league.rating.models import Rating
from league.rating.selectors import PlayerRating, player_ratings, table_expectations
from league.rating.tables import certainty
from players.models import Player

CHART_SERIES = 30  # the chart's last series: a regular's hundreds would print as a smear
RECENT_SERIES = 10  # the series listed with their expected and actual places, newest first


@dataclass(frozen=True)
class RatingCard:
    """A player's rating in one game as their page shows it."""

    game: str
    label: str
    rating: PlayerRating
    certainty: str
    chart: Chart | None
    recent: list[Rating]


def player_rating_cards(player: Player) -> list[RatingCard]:
    """The player's rating card of each game they have a rating in (two queries)."""
    return [
        RatingCard(
            rating.game,
            str(game_rules(rating.game).label),
            rating,
            certainty(rating.current.series_count),
            rating_chart(player, rating),
            rating.history[::-1][:RECENT_SERIES],
        )
        for rating in player_ratings(player)
    ]


def rating_chart(player: Player, rating: PlayerRating) -> Chart | None:
    """The rating after each of the player's last ``CHART_SERIES`` series, once there are two."""
    rows = rating.history[-CHART_SERIES:]
    if len(rows) < 2:
        return None
    label = str(game_rules(rating.game).label)
    steps = [f"{date_format(row.date, 'd.m.y')}/{row.number}" for row in rows]
    values = [row.shown for row in rows]
    return line_chart(
        ident=f"rating-{rating.game}",
        title=_("%(name)s's rating (%(game)s) after each of their last %(count)s series")
        % {"name": player.public_name, "game": label, "count": len(rows)},
        description=_("From %(first)s to %(last)s") % {"first": values[0], "last": values[-1]},
        steps=steps,
        lines=[Line(player.public_name, values)],
        y_label=_("rating"),
        x_label=_("series"),
    )


@dataclass(frozen=True)
class Expected:
    """One seat of a table in the order the ratings expected before the series."""

    name: str
    seat: str
    expected_place: int
    place: int


def table_expected_order(*, series: Series, table: int, seats: list) -> list[Expected]:
    """The table's seats (``league.standings.selectors.Seat``) in the order the ratings before the
    series expected, with the place each took; empty until the series is rated."""
    rows = table_expectations(series=series, table=table)
    if not rows:
        return []
    found = [
        Expected(seat.name, seat.seat, rows[seat.player_id].expected_place, rows[seat.player_id].place)
        for seat in seats
        if seat.player_id in rows
    ]
    return sorted(found, key=lambda e: (e.expected_place, e.seat))
