"""The database itself keeps the draw consistent, whatever code writes to it."""

import pytest
from django.db import IntegrityError, transaction

from league.models import Bye, Series, TableAssignment
from tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def series_pair():
    tournament = TournamentFactory()
    return (
        Series.objects.create(tournament=tournament, number=1),
        Series.objects.create(tournament=tournament, number=2),
    )


def test_a_player_cannot_take_a_second_seat_in_one_series(series_pair):
    series, _ = series_pair
    player = PlayerFactory()
    TableAssignment.objects.create(series=series, table=1, seat="A", player=player)
    with pytest.raises(IntegrityError), transaction.atomic():
        TableAssignment.objects.create(series=series, table=2, seat="B", player=player)


def test_two_players_cannot_share_a_seat(series_pair):
    series, _ = series_pair
    TableAssignment.objects.create(series=series, table=1, seat="A", player=PlayerFactory())
    with pytest.raises(IntegrityError), transaction.atomic():
        TableAssignment.objects.create(series=series, table=1, seat="A", player=PlayerFactory())


def test_a_seat_letter_outside_a_to_d_is_refused(series_pair):
    series, _ = series_pair
    with pytest.raises(IntegrityError), transaction.atomic():
        TableAssignment.objects.create(series=series, table=1, seat="E", player=PlayerFactory())


def test_a_player_gets_at_most_one_bye_per_tournament(series_pair):
    first, second = series_pair
    player = PlayerFactory()
    Bye.objects.create(series=first, player=player)
    with pytest.raises(IntegrityError), transaction.atomic():
        Bye.objects.create(series=second, player=player)


def test_a_bye_takes_its_tournament_from_its_series(series_pair):
    series, _ = series_pair
    bye = Bye.objects.create(series=series, player=PlayerFactory())
    assert bye.tournament_id == series.tournament_id


def test_series_numbers_are_unique_within_a_tournament(series_pair):
    series, _ = series_pair
    with pytest.raises(IntegrityError), transaction.atomic():
        Series.objects.create(tournament=series.tournament, number=1)


def test_the_ruleset_comes_from_the_preset_unless_the_organiser_has_an_own_copy():
    import scoring
    from league.games.baska.settings import tournament_ruleset
    from tests.factories import game_settings_set

    tournament = TournamentFactory(ruleset_preset="gorzow")
    assert tournament_ruleset(tournament).byes.big_points == scoring.load_ruleset("gorzow").byes.big_points
    own = scoring.ruleset_to_dict(scoring.load_ruleset("gorzow"))
    own["byes"]["small_points"] = 7
    game_settings_set(tournament, ruleset_data=own)
    assert tournament_ruleset(tournament).byes.small_points == 7
