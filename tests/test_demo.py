"""The demo league that `make run` loads."""

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from league.games.preferans.pulka import protocol_pulka
from league.models import League, Season, Series, TableAssignment, Tournament
from league.results.models import DealRow, Protocol
from league.standings.compute import tournament_standings
from league.standings.selectors import player_history
from players.models import Player, Team
from scoring.preferans import Deal, Penalty
from tests.factories import game_settings

# one process runs the module (--dist loadgroup), so the demo is loaded once
pytestmark = [pytest.mark.slow, pytest.mark.django_db, pytest.mark.xdist_group("demo")]

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
    spring = Tournament.objects.get(name="Turniej o Puchar Wójta Gminy Puck")
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
    settings = game_settings(evening)
    assert (settings.pulka_variant, settings.pulka_total, evening.table_size) == ("sochi", 20, 4)
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
    assert protocols.filter(closed_by_agreement=True).count() == 1
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
    assert list(league.seasons.values_list("slug", flat=True)) == [
        "liga-kaszuby-2026",
        "liga-kaszuby-2025",
        "liga-kaszuby-2024",
    ]
    autumn = league.tournaments.get(name="Mistrzostwa Kościerzyny w Baśce")
    assert (autumn.date.isoformat(), autumn.start_time.isoformat()) == ("2026-12-05", "10:00:00")
    assert autumn.published


def test_a_coming_tournament_is_open_for_sign_ups_with_a_few_sign_ups(client):
    coming = Tournament.objects.get(signup_window__is_open=True)
    assert coming.date > timezone.localdate()
    assert sorted(coming.signups.values_list("status", flat=True)) == ["confirmed", "new", "new", "new"]
    assert coming.registrations.count() == 1
    page = client.get(reverse("public:tournament", args=[coming.slug]))
    assert reverse("signups:signup", args=[coming.slug]) in page.content.decode()


def section(page: str, section_id: str) -> str:
    start = page.index(f'id="{section_id}"')
    return page[start : page.index("</section>", start)]


def test_the_league_page_lists_two_past_seasons_whose_tournaments_were_all_played(client):
    league = League.objects.get()
    page = client.get(reverse("leagues:page", args=[league.slug])).content.decode()
    assert "Liga Baśki Kaszuby 2026" in section(page, "league-season")
    past = section(page, "league-past-seasons")
    links = [reverse("public:season", args=[f"liga-kaszuby-{year}"]) for year in (2025, 2024)]
    assert all(link in past for link in links) and past.index(links[0]) < past.index(links[1])
    assert "liga-kaszuby-2026" not in past
    for year, played in ((2024, 2), (2025, 3)):
        season = Season.objects.get(slug=f"liga-kaszuby-{year}")
        tournaments = list(season.tournaments.all())
        assert len(tournaments) == played
        season_page = client.get(reverse("public:season", args=[season.slug])).content.decode()
        for tournament in tournaments:
            assert tournament.date.year == year and tournament.published
            assert set(tournament.series.values_list("status", flat=True)) == {Series.Status.CLOSED}
            individual = tournament_standings(tournament, published_only=True)["individual"]
            assert len(individual) == 16
            # the tournament's winner has a row in the season's table
            assert individual[0]["name"] in season_page and tournament.name in season_page


def test_a_regular_played_in_all_three_seasons_and_their_page_shows_each_with_a_place(client):
    regular = Team.objects.get(name="Kaszëbë Puck").captain
    history, seasons = player_history(regular)
    seasons_played = {item["tournament"].season for item in history} - {None}
    assert {season.year for season in seasons_played} == {2024, 2025, 2026}
    assert [item["season"].year for item in seasons] == [2026, 2025, 2024]
    assert all(item["entry"] is not None for item in seasons)
    page = client.get(reverse("public:player", args=[regular.pk])).content.decode()
    for year in (2026, 2025, 2024):
        assert reverse("public:season", args=[f"liga-kaszuby-{year}"]) in page
    assert "Turniej Wiosenny w Kartuzach" in page and "Turniej Andrzejkowy w Pucku" in page


def test_the_demo_leagues_records_page_has_every_record_of_both_games(client):
    league = League.objects.get()

    page = client.get(reverse("public:records_league", args=[league.slug])).content.decode()

    for card in ("wins", "best", "contract-zolo", "deals"):
        assert f'id="record-baska-{card}"' in page, card
    for card in ("best", "contract-made", "series"):
        assert f'id="record-preferans-{card}"' in page, card
    # the spring tournament's third series is still being played: none of its deals count yet
    spring = Tournament.objects.get(name="Turniej o Puchar Wójta Gminy Puck")
    assert reverse("public:table", args=[spring.slug, 3, 1]) not in page
