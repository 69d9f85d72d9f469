"""Names listed in Polish alphabetical order on the organiser's pages (issue 25): Ą after A, Ł after
L, Ź and Ż last, as ``players.names`` sorts them, wherever the database would sort by code point."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from league.tournaments.forms import QuickAddForm, SwapForm
from league.tournaments.selectors import tournament_series_seats
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    SeriesFactory,
    TableAssignmentFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

# the expected order; code-point order puts every name with a diacritic after Żmuda's neighbours
LAST_NAMES = [
    "Abacki",
    "Azarewicz",
    "Ąkowski",
    "Bak",
    "Bąk",
    "Bąkowski",
    "Cichy",
    "Czarnecki",
    "Ćwik",
    "Dąbrowski",
    "Ekiert",
    "Ęckowski",
    "Formela",
    "Kowalczyk",
    "Kowalska",
    "Kowalski",
    "Lis",
    "Lubicz",
    "Łazarz",
    "Łęcka",
    "Nowak",
    "Ńiemirski",
    "Olszewski",
    "Óździński",
    "Pobłocki",
    "Sikora",
    "Śliwa",
    "Zieliński",
    "Źrebiec",
    "Żak",
]


def in_page_order(page: str, names: list[str]) -> list[str]:
    return sorted(names, key=page.index)


def test_the_fixed_list_is_not_in_code_point_order():
    assert sorted(LAST_NAMES) != LAST_NAMES and len(LAST_NAMES) == 30


def test_the_registration_list_and_the_register_list_names_in_polish_order(client):
    user = UserFactory()
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_tournament", "add_player"]))
    client.force_login(user)
    tournament = TournamentFactory()
    tournament.organisers.add(user)
    full_names = []
    for last_name in reversed(LAST_NAMES):
        registration = RegistrationFactory(tournament=tournament, player__first_name="Jan", player__last_name=last_name)
        full_names.insert(0, registration.player.full_name)

    registration_page = client.get(reverse("tournaments:registrations", args=[tournament.slug])).content.decode()
    register_page = client.get(reverse("players:player_list")).content.decode()

    assert in_page_order(registration_page, full_names) == full_names
    assert in_page_order(register_page, full_names) == full_names


def test_the_club_select_and_the_swap_menu_offer_names_in_polish_order():
    series = SeriesFactory()
    for number, name in enumerate(reversed(LAST_NAMES)):
        ClubFactory(name=f"KS {name}")
        player = PlayerFactory(first_name="Jan", last_name=name, club=None)
        TableAssignmentFactory(series=series, player=player, table=number // 4 + 1, seat="ABCD"[number % 4])

    clubs = [label for value, label in QuickAddForm().fields["club"].choices if value]
    [seats] = tournament_series_seats(tournament=series.tournament)
    swap = SwapForm(series=series, players=seats.players).fields["player_a"].choices

    assert clubs == [f"KS {name}" for name in LAST_NAMES]
    assert [label for value, label in swap if value] == [f"Jan {name}" for name in LAST_NAMES]
