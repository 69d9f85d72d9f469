"""Referee penalties on the public site: a published series' page and its tables' protocols show them,
with the standings counting them; a series not closed, or closed with its results held back, shows nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Series
from league.results.penalties import services as penalties
from tests.factories import UserFactory
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db

REASON = "wpis niezgodny z przebiegiem gry"


@pytest.fixture
def tournament():
    """Two published series of two tables; the first player of table 2 penalised in series 1."""
    tournament = league_tournament(published=True)
    series = Series.objects.get(tournament=tournament, number=1)
    penalised = series.assignments.get(table=2, seat="A").player
    penalties.penalty_add(series=series, player=penalised, small_points=-12, reason=REASON, user=UserFactory())
    tournament.penalised = penalised
    return tournament


def page(client, tournament, name, *args):
    response = client.get(reverse(f"public:{name}", args=[tournament.slug, *args]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_series_and_its_tables_protocol_show_the_penalty(client, tournament):
    name = tournament.penalised.full_name
    for html in (page(client, tournament, "series", 1), page(client, tournament, "table", 1, 2)):
        assert "Referee penalties" in html and f"{name}</a>: <b>−12</b> — {REASON}" in html
    assert REASON not in page(client, tournament, "table", 1, 1)  # the other table's players
    assert REASON not in page(client, tournament, "series", 2)


def test_the_public_standings_count_the_penalty(client, tournament):
    standings = client.get(reverse("public:api_standings", args=[tournament.slug])).json()["individual"]
    penalised = next(row for row in standings if row["name"] == tournament.penalised.full_name)
    # +31 at table 2 of series 1, −30 at seat D of table 1 in series 2, and the penalty
    assert penalised["small_points"] == 31 - 30 - 12


@pytest.mark.parametrize(
    "held_back",
    [{"status": Series.Status.IN_PLAY}, {"results_published": False}],
    ids=["series reopened", "results not published"],
)
def test_a_series_not_published_shows_no_penalty(client, tournament, held_back):
    Series.objects.filter(tournament=tournament, number=1).update(**held_back)
    assert REASON not in page(client, tournament, "series", 1)
