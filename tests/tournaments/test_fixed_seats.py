"""Fixed seats (stałe miejsca) set by the organiser: every draw and redraw keeps them, the ones that
cannot hold are refused with the reason in Polish and nothing changes, and each change is kept."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from league.models import FixedSeat, FixedSeatChange
from league.tournaments import draws, fixed_seats
from tests.factories import UserFactory, register_teams

pytestmark = pytest.mark.django_db


def polish_refusal(call, **kwargs) -> list[str]:
    """The messages of the ValidationError ``call(**kwargs)`` raises, read in Polish."""
    with translation.override("pl"), pytest.raises(ValidationError) as caught:
        call(**kwargs)
    with translation.override("pl"):
        return caught.value.messages


def place(series, player):
    seat = series.assignments.get(player=player)
    return seat.table, seat.seat


@pytest.fixture
def field(tournament):
    """4 teams of 4 and 1 individual: 4 tables and 1 bye a series, 2 series."""
    return register_teams(tournament, teams=4, individuals=1)


def test_every_drawn_and_redrawn_series_keeps_the_fixed_seats(tournament, field):
    wheelchair, referee = field[-1], field[5]
    fixed_seats.fixed_seat_set(registration=wheelchair, table=1, reason="wózek")
    fixed_seats.fixed_seat_set(registration=referee, table=3, seat="A", series=[2])

    draws.series_draw(tournament=tournament, numbers="all", seed=123456)
    one, two = tournament.series.order_by("number")
    assert place(one, wheelchair.player)[0] == 1
    assert place(two, wheelchair.player)[0] == 1
    assert place(two, referee.player) == (3, "A")
    assert not tournament.byes.filter(player=wheelchair.player).exists()

    for seed in (222222, 333333):
        draws.series_draw(tournament=tournament, numbers=[2], seed=seed)
        assert place(two, wheelchair.player)[0] == 1
        assert place(two, referee.player) == (3, "A")


def test_fixed_seats_that_cannot_hold_together_are_refused_in_polish_and_nothing_changes(tournament, field):
    first = fixed_seats.fixed_seat_set(registration=field[0], table=2, seat="B", user=UserFactory())
    assert polish_refusal(fixed_seats.fixed_seat_set, registration=field[4], table=2, seat="B") == [
        f"{field[0].player.full_name} i {field[4].player.full_name} mają oba stałe miejsce B przy stoliku 2 w serii 1."
    ]
    # field[1] is field[0]'s teammate
    assert "grają w drużynie" in polish_refusal(fixed_seats.fixed_seat_set, registration=field[1], table=2)[0]
    assert "zajmują tylko stoliki 1–4" in polish_refusal(fixed_seats.fixed_seat_set, registration=field[4], table=5)[0]
    assert list(FixedSeat.objects.all()) == [first]
    assert FixedSeatChange.objects.count() == 1


def test_setting_the_same_fixed_seat_twice_writes_one_change_and_removing_keeps_who_and_why(tournament, field):
    organiser = UserFactory()
    for _ in range(2):
        fixed = fixed_seats.fixed_seat_set(registration=field[0], table=1, user=organiser, reason="wózek")
    fixed_seats.fixed_seat_set(registration=field[0], table=2, user=organiser, reason="bliżej wyjścia")
    fixed_seats.fixed_seat_remove(fixed=fixed, user=organiser, reason="wyjechał")
    fixed_seats.fixed_seat_remove(fixed=fixed, user=organiser, reason="wyjechał")

    history = list(tournament.fixed_seat_history.order_by("created", "pk"))
    assert [(c.action, c.reason, c.user) for c in history] == [
        ("set", "wózek", organiser),
        ("set", "bliżej wyjścia", organiser),
        ("remove", "wyjechał", organiser),
    ]
    assert history[1].old["table"] == 1 and history[1].new["table"] == 2
    assert not FixedSeat.objects.exists()


def test_a_fixed_seat_that_leaves_nobody_to_sit_out_is_refused_at_the_draw_with_the_series(tournament):
    registrations = register_teams(tournament, teams=0, individuals=5)  # 1 table, 1 bye a series
    for registration in registrations[:4]:
        fixed_seats.fixed_seat_set(registration=registration, table=1)
    refusal = polish_refusal(draws.series_draw, tournament=tournament, numbers="all", seed=123456)
    assert "W serii 2 trzeba dać wolne losy (1)" in refusal[0]
    assert not tournament.series.filter(status="drawn").exists()


def test_the_fixed_seats_page_sets_lists_and_removes_a_fixed_seat(client, tournament, field):
    url = reverse("tournaments:fixed_seats", args=[tournament.slug])
    response = client.post(
        url, {"registration": field[-1].pk, "table": "1", "seat": "", "series": ["2"], "reason": "wózek"}
    )
    assert response.status_code == 302
    fixed = FixedSeat.objects.get()
    assert (fixed.registration, fixed.table, fixed.seat, fixed.series) == (field[-1], 1, "", [2])

    refused = client.post(url, {"registration": field[0].pk, "table": "9"})
    assert refused.status_code == 400
    assert FixedSeat.objects.count() == 1

    page = client.get(reverse("tournaments:draw", args=[tournament.slug])).content.decode()
    assert field[-1].player.full_name in page
    client.post(reverse("tournaments:fixed_seat_remove", args=[tournament.slug, fixed.pk]))
    assert not FixedSeat.objects.exists()
    assert client.post(reverse("tournaments:fixed_seat_remove", args=[tournament.slug, fixed.pk])).status_code == 302


def test_a_swap_that_moves_a_player_off_his_fixed_seat_is_refused(tournament, field):
    fixed_seats.fixed_seat_set(registration=field[-1], table=1)
    draws.series_draw(tournament=tournament, numbers=[1], seed=123456)
    series = tournament.series.get(number=1)
    other = series.assignments.filter(table=2).select_related("player").first().player
    refusal = polish_refusal(draws.series_swap, series=series, player_a=field[-1].player, player_b=other)
    assert refusal == [
        f"{field[-1].player.full_name}: stałe miejsce w tej serii nie pozwala na tę zamianę; najpierw je usuń."
    ]
    assert place(series, field[-1].player)[0] == 1


def test_restoring_a_draw_made_before_a_fixed_seat_warns_that_it_does_not_keep_it(client, tournament, field):
    draws.series_draw(tournament=tournament, numbers=[1], seed=123456)
    series = tournament.series.get(number=1)
    first = series.draw_logs.get()
    seat = series.assignments.filter(table=1).select_related("player").first()
    registration = tournament.registrations.get(player=seat.player)
    fixed_seats.fixed_seat_set(registration=registration, table=2)
    draws.series_draw(tournament=tournament, numbers=[1], seed=654321)

    client.post(reverse("tournaments:draw_restore", args=[tournament.slug, 1, first.pk]))
    page = client.get(reverse("tournaments:draw_history", args=[tournament.slug, 1])).content.decode()
    assert f"This draw does not keep the fixed seats of: {seat.player.full_name}." in page
