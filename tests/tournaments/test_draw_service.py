"""The draw service: who is seated, what is written, what is refused and logged."""

from collections import Counter

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.models import Bye, DrawLog, Series, TableAssignment
from league.tournaments import draws, registrations, selectors
from tests.factories import RegistrationFactory, TeamFactory, TournamentFactory, UserFactory, register_teams

pytestmark = pytest.mark.django_db


def seats_by_table(series: Series) -> dict[int, list[int]]:
    tables: dict[int, list[int]] = {}
    for table, player in series.assignments.values_list("table", "player_id"):
        tables.setdefault(table, []).append(player)
    return tables


def team_of(tournament) -> dict[int, int | None]:
    return dict(tournament.registrations.values_list("player_id", "team_id"))


def test_the_draw_writes_tables_of_four_and_byes_with_the_rulesets_compensation():
    tournament = TournamentFactory(ruleset_preset="gorzow", series_count=2)
    register_teams(tournament, teams=4, individuals=2)  # 18 players: 4 tables, 2 byes
    draws.series_draw(tournament=tournament, numbers=[1], seed=123456, user=UserFactory())

    series = tournament.series.get(number=1)
    tables = seats_by_table(series)
    assert sorted(tables) == [1, 2, 3, 4]
    assert all(len(players) == 4 for players in tables.values())
    assert set(series.assignments.values_list("seat", flat=True)) == {"A", "B", "C", "D"}
    [seats] = selectors.tournament_series_seats(tournament=tournament, series=series)
    assert len(seats.byes) == 2 == series.byes.count()
    assert (seats.compensation.big_points, seats.compensation.small_points) == (2.5, 0)
    assert (series.status, series.seed) == (Series.Status.DRAWN, 123456)
    assert series.algorithm


def test_teammates_never_share_a_table_in_any_series():
    tournament = TournamentFactory(series_count=4)
    register_teams(tournament, teams=10)
    draws.series_draw(tournament=tournament, numbers="all", seed=7)
    teams = team_of(tournament)
    for series in tournament.series.all():
        for players in seats_by_table(series).values():
            assert len({teams[p] for p in players}) == 4


def test_the_same_seed_gives_the_same_tables():
    tournament = TournamentFactory(series_count=1)
    register_teams(tournament, teams=5)
    draws.series_draw(tournament=tournament, numbers=[1], seed=99)
    first = seats_by_table(tournament.series.get())
    draws.series_draw(tournament=tournament, numbers=[1], seed=99)
    assert seats_by_table(tournament.series.get()) == first


def test_a_series_drawn_later_avoids_the_meetings_of_earlier_ones():
    tournament = TournamentFactory(series_count=3)
    register_teams(tournament, teams=10)
    draws.series_draw(tournament=tournament, numbers=[1], seed=1)
    draws.series_draw(tournament=tournament, numbers=[2], seed=2)
    draws.series_draw(tournament=tournament, numbers=[3], seed=3)
    assert tournament.series.filter(status=Series.Status.DRAWN).count() == 3
    assert selectors.tournament_repeats(tournament=tournament) == 0


def test_byes_go_to_different_players_and_individuals_sit_out_first_in_puck():
    tournament = TournamentFactory(ruleset_preset="puck", series_count=3)
    register_teams(tournament, teams=4, individuals=3)  # 19 players: 3 byes per series
    individuals = set(tournament.registrations.filter(team=None).values_list("player_id", flat=True))
    draws.series_draw(tournament=tournament, numbers=[1], seed=5)
    assert set(tournament.series.get(number=1).byes.values_list("player_id", flat=True)) == individuals
    draws.series_draw(tournament=tournament, numbers=[2, 3], seed=6)
    per_player = Counter(Bye.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    assert sum(per_player.values()) == 9 and max(per_player.values()) == 1


def test_a_withdrawn_player_is_not_seated_when_the_next_series_is_drawn():
    tournament = TournamentFactory(series_count=2)
    regs = register_teams(tournament, teams=0, individuals=9)
    draws.series_draw(tournament=tournament, numbers=[1], seed=1)
    registrations.registration_withdraw(registration=regs[0], number=1)
    draws.series_draw(tournament=tournament, numbers=[2], seed=2)
    second = tournament.series.get(number=2)
    assert second.assignments.count() == 8 and second.byes.count() == 0
    assert not second.assignments.filter(player=regs[0].player).exists()


def test_a_redraw_is_logged_and_refused_once_the_series_has_results():
    tournament = TournamentFactory(series_count=2)
    register_teams(tournament, teams=4)
    draws.series_draw(tournament=tournament, numbers="all", seed=1)
    draws.series_draw(tournament=tournament, numbers=[2], seed=2)
    assert list(DrawLog.objects.filter(series__tournament=tournament).order_by("pk").values_list("action", "seed")) == [
        ("draw", 1),
        ("draw", 1),
        ("redraw", 2),
    ]

    Series.objects.filter(tournament=tournament, number=2).update(results_entered=True)
    before = seats_by_table(tournament.series.get(number=2))
    with pytest.raises(ValidationError, match="already has results"):
        draws.series_draw(tournament=tournament, numbers=[2], seed=3)
    assert seats_by_table(tournament.series.get(number=2)) == before


def test_an_impossible_draw_is_refused_with_the_reason_and_writes_nothing():
    tournament = TournamentFactory(series_count=2)
    team = TeamFactory(members=3, name="Kaszëbë")
    for member in team.memberships.all():
        RegistrationFactory(tournament=tournament, player=member.player, team=team)
    RegistrationFactory.create_batch(5, tournament=tournament)  # 8 players, 2 tables, a team of 3
    with pytest.raises(ValidationError) as refusal:
        draws.series_draw(tournament=tournament, numbers="all", seed=1)
    assert "Kaszëbë" in refusal.value.messages[0]
    assert not TableAssignment.objects.exists() and not Bye.objects.exists() and not DrawLog.objects.exists()
    assert not tournament.series.exclude(status=Series.Status.PLANNED).exists()


def test_drawing_all_when_everything_is_drawn_is_refused():
    tournament = TournamentFactory(series_count=1)
    register_teams(tournament, teams=0, individuals=4)
    draws.series_draw(tournament=tournament, numbers="all", seed=1)
    with pytest.raises(ValidationError, match="already drawn"):
        draws.series_draw(tournament=tournament, numbers="all", seed=1)


@pytest.fixture
def drawn_series():
    tournament = TournamentFactory(series_count=1)
    register_teams(tournament, teams=4, individuals=1)  # 17 players: 4 tables, 1 bye
    draws.series_draw(tournament=tournament, numbers=[1], seed=11)
    return tournament.series.get()


def test_a_swap_that_seats_teammates_together_is_refused_with_the_reason(drawn_series):
    teams = team_of(drawn_series.tournament)
    tables = seats_by_table(drawn_series)
    a = tables[1][0]
    # A player of another table whose teammate already sits at a's table.
    b = next(p for t, ps in tables.items() if t != 1 for p in ps if teams[p] in {teams[q] for q in tables[1][1:]})
    player_a, player_b = (drawn_series.assignments.get(player_id=p).player for p in (a, b))
    with pytest.raises(ValidationError, match="cannot sit at the same table"):
        draws.series_swap(series=drawn_series, player_a=player_a, player_b=player_b)
    assert seats_by_table(drawn_series) == tables
    assert not DrawLog.objects.filter(action=DrawLog.Action.SWAP).exists()


def test_an_allowed_swap_exchanges_seats_and_is_logged(drawn_series):
    teams = team_of(drawn_series.tournament)
    tables = seats_by_table(drawn_series)
    a, b = tables[1][0], tables[2][0]
    if teams[a] != teams[b]:  # a swap within one team keeps every table free of teammates
        b = next(p for p in tables[2] if teams[p] == teams[a])
    player_a = drawn_series.assignments.get(player_id=a)
    player_b = drawn_series.assignments.get(player_id=b)
    user = UserFactory()
    draws.series_swap(series=drawn_series, player_a=player_a.player, player_b=player_b.player, user=user)
    assert drawn_series.assignments.get(player_id=a).table == 2
    assert drawn_series.assignments.get(player_id=b).table == 1
    log = DrawLog.objects.get(action=DrawLog.Action.SWAP)
    assert log.user == user and log.details["players"] == [a, b]


def test_a_swap_with_the_bye_player_moves_the_bye(drawn_series):
    bye = drawn_series.byes.get()
    teams = team_of(drawn_series.tournament)
    assert teams[bye.player_id] is None  # the individual sits out first in puck
    seated = drawn_series.assignments.first()
    draws.series_swap(series=drawn_series, player_a=bye.player, player_b=seated.player)
    assert drawn_series.byes.get().player == seated.player
    assert drawn_series.assignments.get(player=bye.player).table == seated.table


def pins(series: Series) -> dict[int, str]:
    return dict(series.protocols.values_list("table", "pin"))


def test_drawing_makes_one_protocol_with_a_four_digit_pin_per_table():
    tournament = TournamentFactory(series_count=2)
    register_teams(tournament, teams=4, individuals=1)  # 17 players: 4 tables, 1 bye
    draws.series_draw(tournament=tournament, numbers="all", seed=3)
    for series in tournament.series.all():
        tables = pins(series)
        assert sorted(tables) == [1, 2, 3, 4]
        assert all(len(pin) == 4 and pin.isdigit() for pin in tables.values())


def test_a_redraw_with_fewer_tables_leaves_no_protocol_of_a_vanished_table():
    tournament = TournamentFactory(series_count=2)
    regs = register_teams(tournament, teams=0, individuals=12)
    draws.series_draw(tournament=tournament, numbers="all", seed=1)  # 3 tables in each series
    assert sorted(pins(tournament.series.get(number=2))) == [1, 2, 3]
    for registration in regs[:4]:
        registrations.registration_withdraw(registration=registration, number=1)
    draws.series_draw(tournament=tournament, numbers=[2], seed=2)
    assert sorted(pins(tournament.series.get(number=2))) == [1, 2]
    assert sorted(pins(tournament.series.get(number=1))) == [1, 2, 3]


def test_a_redraw_hands_out_new_protocols_and_a_swap_keeps_them(drawn_series):
    before = pins(drawn_series)
    protocols = set(drawn_series.protocols.values_list("pk", flat=True))
    bye = drawn_series.byes.get()
    draws.series_swap(series=drawn_series, player_a=bye.player, player_b=drawn_series.assignments.first().player)
    assert pins(drawn_series) == before
    draws.series_draw(tournament=drawn_series.tournament, numbers=[1], seed=12)
    assert sorted(pins(drawn_series)) == sorted(before)
    assert not protocols & set(drawn_series.protocols.values_list("pk", flat=True))


@pytest.mark.parametrize(
    ("preset", "said"),
    [
        ("gorzow", "wolny los daje: duże punkty 2,5, małe punkty 0"),
        ("psb", "wolny los nie daje punktów"),
    ],
)
def test_the_draw_page_says_in_words_what_a_bye_scores(client, preset, said):
    tournament = TournamentFactory(ruleset_preset=preset, series_count=2)
    register_teams(tournament, teams=4, individuals=2)
    draws.series_draw(tournament=tournament, numbers=[1], seed=123456, user=UserFactory())
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:draw", args=[tournament.slug]), headers={"Accept-Language": "pl"})
    assert said in page.content.decode()
    assert " / 0<" not in page.content.decode()
