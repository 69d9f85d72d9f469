"""What an organiser's screens do with input no organiser types: a NUL in the search,
a seed beyond the database, numbers beyond a playable tournament, a tournament
larger than any hall. Each is refused with a message and changes nothing."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.models import MAX_PLAYERS, SEED, DrawLog, Registration, Series, Tournament
from league.tournaments import draws, registrations
from players.models import Player
from tests.factories import PlayerFactory, TournamentFactory, game_settings, register_teams, tournament_form_data

pytestmark = pytest.mark.django_db


# --- item 13: the search and the seed ----------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_a_nul_in_the_registration_search_is_answered_with_a_message(client, tournament, htmx):
    PlayerFactory(last_name="Kowalska")
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "search-results"} if htmx else {}

    response = client.get(reverse("tournaments:registrations", args=[tournament.slug]), {"q": "Kow\x00"}, **headers)

    assert response.status_code == 200
    assert "Null characters are not allowed." in response.content.decode()
    assert "Kowalska" not in response.content.decode()


def test_a_search_longer_than_any_name_is_answered_with_a_message(client, tournament):
    response = client.get(reverse("tournaments:registrations", args=[tournament.slug]), {"q": "a " * 5000})

    assert response.status_code == 200
    assert "Ensure this value has at most" in response.content.decode()


@pytest.mark.parametrize("seed", [2**63, -1, 10**40])
def test_a_seed_the_draw_cannot_store_is_refused_and_nothing_is_drawn(client, tournament, seed):
    register_teams(tournament, teams=4)

    response = client.post(reverse("tournaments:draw", args=[tournament.slug]), {"action": "all", "seed": str(seed)})

    assert response.status_code == 200
    assert f"Enter a whole number from 0 to {SEED.high}." in response.content.decode()
    assert not tournament.series.exclude(status=Series.Status.PLANNED).exists()
    assert not DrawLog.objects.exists()


def test_the_draw_service_refuses_a_seed_the_database_cannot_store():
    tournament = TournamentFactory(series_count=2)
    register_teams(tournament, teams=4)

    with pytest.raises(ValidationError) as caught:
        draws.series_draw(tournament=tournament, numbers="all", seed=2**63)

    assert caught.value.messages == [f"Enter a whole number from 0 to {SEED.high}."]
    assert not tournament.series.exclude(status=Series.Status.PLANNED).exists()


def test_the_largest_seed_the_form_takes_draws_and_can_be_read_back(client, tournament):
    register_teams(tournament, teams=4)
    client.post(reverse("tournaments:draw", args=[tournament.slug]), {"action": "all", "seed": str(SEED.high)})

    assert set(tournament.series.values_list("seed", flat=True)) == {SEED.high}


# --- item 19: bounds of a tournament ------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "bounds"),
    [
        ("series_count", 32767, "1 to 12"),
        ("series_count", 13, "1 to 12"),
        ("series_count", 0, "1 to 12"),
        ("deals_per_series", 97, "4 to 96"),
        ("deals_per_series", 3, "4 to 96"),
        ("time_limit_minutes", 9, "10 to 240"),
        ("time_limit_minutes", 241, "10 to 240"),
    ],
)
def test_a_tournament_beyond_a_days_play_is_refused_with_its_bounds(client, organiser, field, value, bounds):
    response = client.post(reverse("tournaments:create"), tournament_form_data(**{field: value}))

    assert response.status_code == 200
    assert response.context["form"].errors[field] == [f"Enter a whole number from {bounds}."]
    assert not Tournament.objects.exists()
    assert not Series.objects.exists()


def test_a_tournament_at_every_bound_is_created(client, organiser):
    response = client.post(
        reverse("tournaments:create"),
        tournament_form_data(series_count=12, deals_per_series=96, time_limit_minutes=240),
    )

    tournament = Tournament.objects.get()
    assert response.url == tournament.get_absolute_url()
    assert tournament.series.count() == 12


def test_the_form_tells_the_browser_the_bounds(client, organiser):
    page = client.get(reverse("tournaments:create")).content.decode()

    for name, low, high in [("series_count", 1, 12), ("deals_per_series", 4, 96), ("time_limit_minutes", 10, 240)]:
        assert re.search(f'<input[^>]* name="{name}"[^>]* min="{low}" max="{high}"', page)


def test_the_model_itself_refuses_a_tournament_beyond_the_bounds():
    tournament = TournamentFactory.build(series_count=40, deals_per_series=1000, time_limit_minutes=5000)

    with pytest.raises(ValidationError) as caught:
        tournament.full_clean(exclude=["slug"])
    with pytest.raises(ValidationError) as caught_by_the_game:
        game_settings(tournament).check()

    refused = set(caught.value.message_dict) | set(caught_by_the_game.value.message_dict)
    assert refused >= {"series_count", "deals_per_series", "time_limit_minutes"}


def _fill(tournament: Tournament, count: int) -> None:
    """``count`` registered players, written in two statements."""
    players = Player.objects.bulk_create(
        Player(first_name="Gracz", last_name=f"Numer {n}", gender="M") for n in range(count)
    )
    Registration.objects.bulk_create(Registration(tournament=tournament, player=player) for player in players)


def test_a_full_tournament_takes_no_further_player():
    tournament = TournamentFactory()
    _fill(tournament, MAX_PLAYERS)

    with pytest.raises(ValidationError) as caught:
        registrations.registration_create(tournament=tournament, player=PlayerFactory())

    assert caught.value.messages == [f"A tournament takes at most {MAX_PLAYERS} players."]
    assert tournament.registrations.count() == MAX_PLAYERS


def test_a_full_tournament_refuses_a_quick_add_and_keeps_no_new_player(client, tournament):
    _fill(tournament, MAX_PLAYERS)
    players = Player.objects.count()

    response = client.post(
        reverse("tournaments:quick_add", args=[tournament.slug]),
        {"first_name": "Anna", "last_name": "Nowa", "gender": "F"},
    )

    assert response.status_code == 200
    assert f"A tournament takes at most {MAX_PLAYERS} players." in response.content.decode()
    assert Player.objects.count() == players


def test_the_last_free_place_is_taken():
    tournament = TournamentFactory()
    _fill(tournament, MAX_PLAYERS - 1)

    registrations.registration_create(tournament=tournament, player=PlayerFactory())

    assert tournament.registrations.count() == MAX_PLAYERS
