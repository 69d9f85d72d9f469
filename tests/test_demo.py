"""The demo league that `make run` loads."""

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from league.games.preferans.pulka import protocol_pulka
from league.models import League, Series, TableAssignment, Tournament
from league.results.models import DealRow, Protocol
from league.standings.compute import tournament_standings
from players.models import Player, Team
from scoring.preferans import Deal, Penalty

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

COUNTED = (User, Player, Team, Tournament, Series, TableAssignment, Protocol, DealRow)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in COUNTED}


@pytest.fixture(scope="module", autouse=True)
def demo(django_db_setup, django_db_blocker):
    """The demo loaded once for the module (it takes seconds) inside a transaction
    rolled back at the module's end; each test runs in a savepoint of it. Yields what it printed."""
    out = StringIO()
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("load_demo", stdout=out)
        yield out.getvalue()
        transaction.set_rollback(True)


def test_demo_league_has_teams_and_a_drawn_tournament():
    assert Team.objects.count() == 10
    assert Player.objects.count() == 48
    spring = Tournament.objects.get(ruleset_preset="puck")
    for series in spring.series.all():
        assert series.status != Series.Status.PLANNED
        assert TableAssignment.objects.filter(series=series).count() == 44  # 46 players, 2 byes


def test_loading_the_demo_twice_changes_nothing():
    before = counts()
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert out.getvalue().strip() == "The demo league is already loaded."
    assert counts() == before


def test_the_demo_prints_the_accounts_it_made(demo):
    assert "organiser: organizator / baska-demo" in demo
    assert "referee: sedzia / baska-demo" in demo


def test_the_preferans_evening_is_twelve_players_at_three_tables_of_four_in_three_closed_series():
    evening = Tournament.objects.get(game="preferans")
    assert (evening.pulka_variant, evening.pulka_total, evening.table_size) == ("sochi", 20, 4)
    assert evening.published and evening.registrations.count() == 12
    assert not evening.registrations.filter(player__club=None).exists()
    for series in evening.series.all():
        assert (series.status, series.results_published) == (Series.Status.CLOSED, True)
        assert series.assignments.count() == 12 and not series.byes.exists()
    standings = tournament_standings(evening, published_only=True)["individual"]
    assert len(standings) == 12 and sum(row["small_points"] for row in standings) == 0


def test_every_pulka_of_the_evening_is_over_with_remizes_one_closed_by_agreement_and_one_penalty():
    protocols = Protocol.objects.filter(series__tournament__game="preferans")
    pulkas = [protocol_pulka(protocol=protocol) for protocol in protocols]
    assert all(protocol.status == Protocol.Status.CONFIRMED for protocol in protocols)
    assert all(pulka.settlement is not None for pulka in pulkas)
    assert protocols.filter(pulka_closed=True).count() == 1
    entries = [line[0].entry for pulka in pulkas for line in pulka.lines]
    assert sum(isinstance(entry, Penalty) for entry in entries) == 1
    deals = [entry for entry in entries if isinstance(entry, Deal)]
    contracts = {deal.contract for deal in deals}
    assert "misere" in contracts and len(contracts) > 10
    remizes = [deal for deal in deals if deal.level and deal.tricks is not None and deal.tricks < deal.level]
    assert len(remizes) >= 5


def test_one_league_holds_the_demo_season_and_every_tournament_with_a_timed_one_in_its_calendar():
    league = League.objects.get()
    assert league.organisers.filter(username="organizator").exists()
    assert set(league.tournaments.all()) == set(Tournament.objects.all())
    assert list(league.seasons.values_list("slug", flat=True)) == ["liga-kaszuby-2026"]
    autumn = league.tournaments.get(ruleset_preset="gorzow")
    assert (autumn.date.isoformat(), autumn.start_time.isoformat()) == ("2026-12-05", "10:00:00")
    assert autumn.published


def test_a_coming_tournament_is_open_for_sign_ups_with_a_few_sign_ups(client):
    coming = Tournament.objects.get(signup_window__is_open=True)
    assert coming.date > timezone.localdate()
    assert sorted(coming.signups.values_list("status", flat=True)) == ["confirmed", "new", "new", "new"]
    assert coming.registrations.count() == 1
    page = client.get(reverse("public:tournament", args=[coming.slug]))
    assert reverse("signups:signup", args=[coming.slug]) in page.content.decode()
