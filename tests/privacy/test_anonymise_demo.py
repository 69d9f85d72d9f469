"""RODO, erased on request while results add up (issue 43): anonymising any player of the demo
league leaves every other player's standings, season tables and statistics exactly as they were."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from league.models import Season, Tournament
from league.privacy.services import player_anonymise
from league.standings.cache import season_rankings, tournament_rankings
from league.standings.compute import tournament_standings
from league.standings.models import PlayerResult
from league.standings.summaries import player_results_rebuild
from players.models import Player

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


@pytest.fixture(scope="module", autouse=True)
def demo(django_db_setup, django_db_blocker):
    """The demo loaded once for the module inside a transaction rolled back at its end."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("load_demo", stdout=StringIO())
        player_results_rebuild()  # every kept result written before, as after a series closes
        yield
        transaction.set_rollback(True)


def entries(rows: list[dict[str, Any]], but: int) -> dict[int, tuple]:
    """A standing list by player (or team) pk: place, its label and the points; without ``but``."""
    return {
        row["pk"]: tuple(v for k, v in sorted(row.items()) if k not in ("name", "pk"))
        for row in rows
        if row["pk"] != but
    }


def opponents_unnamed(series: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A kept result's series with each opponent's name left out (the anonymised one's changes)."""
    return [
        {**row, "opponents": [{k: v for k, v in o.items() if k not in ("name", "sort")} for o in row["opponents"]]}
        for row in series
    ]


def figures(but: int) -> dict[str, Any]:
    """Everything a player's results are made of, for everybody but player ``but``: each tournament's
    standings (published and as the referee sees them, computed and from the cache), each season's
    tables, and each player's kept result (place, points, the series, the places, the deal statistics)."""
    out: dict[str, Any] = {}
    for tournament in Tournament.objects.order_by("pk"):
        for published in (True, False):
            for key, rows in tournament_standings(tournament, published_only=published).items():
                out[f"{tournament.pk}/{published}/{key}"] = entries(rows, but)
        for key, rows in tournament_rankings(tournament).items():
            out[f"{tournament.pk}/cached/{key}"] = entries(rows, but)
    for season in Season.objects.order_by("pk"):
        for key, rows in season_rankings(season).items():
            out[f"season {season.pk}/{key}"] = entries(rows, but)
    for result in PlayerResult.objects.exclude(player=but).order_by("pk"):
        out[f"result {result.player_id}@{result.tournament_id}"] = (
            result.ranked,
            result.place,
            result.place_label,
            result.big_points,
            result.small_points,
            opponents_unnamed(result.series),
            result.places,
            result.tally,
        )
    return out


def played() -> list[int]:
    return list(
        Player.objects.filter(registrations__isnull=False).distinct().order_by("pk").values_list("pk", flat=True)
    )


# each example anonymises one player and compares the whole demo's figures: a few seconds, so few
# examples and no shrinking (a failing example names its player already)
@settings(
    max_examples=6,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_anonymising_anyone_changes_no_other_players_figures(data):
    pk = data.draw(st.sampled_from(played()), label="player")
    organiser = User.objects.get(username="organizator")
    with transaction.atomic():
        before = figures(but=pk)
        player = Player.objects.get(pk=pk)
        own = tournament_standings(player.registrations.first().tournament, published_only=False)["individual"]
        player_anonymise(player=player, user=organiser, reason="wniosek zawodnika z 05.12.2026")
        after = figures(but=pk)
        assert after == before
        assert len(before) > 40  # the demo's tournaments, seasons and kept results were all compared
        # the player's own result stays too, under the pseudonym
        again = tournament_standings(player.registrations.first().tournament, published_only=False)["individual"]
        assert entries(own, but=0)[pk] == entries(again, but=0)[pk]
        assert next(row["name"] for row in again if row["pk"] == pk) == f"Zawodnik #{pk}"
        transaction.set_rollback(True)
