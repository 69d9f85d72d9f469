"""Registering players and the tournament day: check-in, fees, withdrawals, late arrivals."""

import pytest
from django.core.exceptions import ValidationError

from league.tournaments import draws, registrations
from league.tournaments.roles import is_organiser
from league.tournaments.services import tournament_create
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    register_teams,
)

pytestmark = pytest.mark.django_db


def test_creating_a_tournament_plans_its_series_and_makes_the_creator_organiser():
    user = UserFactory()
    tournament = tournament_create(
        user=user, name="Puchar Wójta", ruleset_preset="gorzow", date="2026-03-14", series_count=4
    )
    assert tournament.slug == "puchar-wojta"
    assert list(tournament.series.values_list("number", flat=True)) == [1, 2, 3, 4]
    assert is_organiser(user, tournament)
    assert not is_organiser(UserFactory(), tournament)


def test_a_registered_player_plays_for_their_current_team_by_default():
    team = TeamFactory(members=4)
    player = team.captain
    registration = registrations.registration_create(tournament=TournamentFactory(), player=player)
    assert registration.team == team
    assert registration.first_series == 1


def test_a_player_can_be_registered_as_an_individual_despite_a_team():
    team = TeamFactory(members=4)
    registration = registrations.registration_create(
        tournament=TournamentFactory(), player=team.captain, individual=True
    )
    assert registration.team is None


def test_a_player_cannot_be_registered_twice():
    registration = RegistrationFactory()
    with pytest.raises(ValidationError):
        registrations.registration_create(tournament=registration.tournament, player=registration.player)


def test_quick_add_creates_the_player_and_registers_them():
    tournament = TournamentFactory()
    registration = registrations.registration_quick_add(
        tournament=tournament, first_name="Anna", last_name="Kowalska", gender="F"
    )
    assert registration.player.full_name == "Anna Kowalska"
    assert registration.team is None


def test_check_in_and_fee_ticks_toggle():
    registration = RegistrationFactory(checked_in=False)
    assert registrations.registration_flag_toggle(registration=registration, flag="checked_in") is True
    assert registrations.registration_flag_toggle(registration=registration, flag="fee_paid") is True
    assert registrations.registration_flag_toggle(registration=registration, flag="checked_in") is False
    registration.refresh_from_db()
    assert (registration.checked_in, registration.fee_paid) == (False, True)


def test_a_late_arrival_is_present_and_plays_from_the_first_series_without_results():
    tournament = TournamentFactory(series_count=3)
    register_teams(tournament, teams=0, individuals=8)
    draws.series_draw(tournament=tournament, numbers=[1, 2], seed=1)
    tournament.series.filter(number=1).update(results_entered=True, status="in_play")
    late = registrations.registration_create(tournament=tournament, player=PlayerFactory())
    assert (late.checked_in, late.first_series) == (True, 2)
    assert not late.plays_in(1) and late.plays_in(2)


def test_a_late_arrival_before_the_first_deal_plays_from_series_1():
    """Series 1 is drawn but nobody has played: it is drawn again with the newcomer."""
    tournament = TournamentFactory(series_count=3)
    register_teams(tournament, teams=0, individuals=8)
    draws.series_draw(tournament=tournament, numbers=[1], seed=1)
    late = registrations.registration_create(tournament=tournament, player=PlayerFactory())
    assert late.first_series == 1 and late.plays_in(1)


def test_a_withdrawal_names_the_drawn_later_series_to_draw_again():
    tournament = TournamentFactory(series_count=3)
    regs = register_teams(tournament, teams=0, individuals=8)
    draws.series_draw(tournament=tournament, numbers="all", seed=1)
    assert registrations.registration_withdraw(registration=regs[0], number=1) == [2, 3]
    assert regs[0].plays_in(1) and not regs[0].plays_in(2)


def test_a_withdrawal_must_leave_a_series_to_miss():
    registration = RegistrationFactory(tournament__series_count=3)
    with pytest.raises(ValidationError):
        registrations.registration_withdraw(registration=registration, number=3)
