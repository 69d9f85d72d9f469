"""The draw after it is done: late arrivals and withdrawals, swaps that repeat meetings,
teams larger than the tables, and what organisers read about a draw."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from league.draw import ALGORITHM_VERSION, count_repeats
from league.models import DrawLog, Series
from league.tournaments import draws, registrations, selectors
from tests.factories import PlayerFactory, RegistrationFactory, TeamFactory, TournamentFactory, register_teams

pytestmark = pytest.mark.django_db


def seating(tournament, number: int) -> tuple[list[tuple[int, str, int]], list[int]]:
    series = tournament.series.get(number=number)
    seats = list(series.assignments.order_by("table", "seat").values_list("table", "seat", "player_id"))
    return seats, sorted(series.byes.values_list("player_id", flat=True))


def seated(tournament, number: int) -> set[int]:
    seats, byes = seating(tournament, number)
    return {player for _, _, player in seats} | set(byes)


def start_playing(tournament, number: int) -> None:
    """The first deal of the series is saved: its draw is final from now on."""
    Series.objects.filter(tournament=tournament, number=number).update(results_entered=True, status="in_play")


# --- a late arrival or a withdrawal after "draw all" ---------------------------------


def test_a_late_arrival_after_drawing_all_gets_the_unplayed_series_drawn_again_in_one_click(client, tournament):
    tournament.series_count = 3
    tournament.save()
    register_teams(tournament, teams=4)
    client.post(reverse("tournaments:draw", args=[tournament.slug]), {"action": "all", "seed": "5"})
    start_playing(tournament, 1)
    url = reverse("tournaments:draw", args=[tournament.slug])
    assert "The players changed after the draw" not in client.get(url).content.decode()

    late = RegistrationFactory(tournament=tournament, first_series=2, player__last_name="Spóźniony")
    first_series = seating(tournament, 1)
    page = client.get(url).content.decode()
    assert "The players changed after the draw" in page
    assert late.player.full_name in page
    assert "Series drawn but not played yet: 2, 3." in page
    before, after = (int(n) for n in re.search(r"meetings in the tournament: (\d+) now, (\d+) after", page).groups())
    assert before == selectors.tournament_repeats(tournament=tournament)
    seed = re.search(r'name="seed" value="(\d+)"', page).group(1)

    response = client.post(url, {"action": "outdated", "seed": seed, "outdated": "2,3"})
    assert response.status_code == 302
    assert seating(tournament, 1) == first_series
    for number in (2, 3):
        assert late.player_id in seated(tournament, number)
    assert selectors.tournament_repeats(tournament=tournament) == after
    assert "The players changed after the draw" not in client.get(url).content.decode()
    log = DrawLog.objects.filter(action=DrawLog.Action.REDRAW).order_by("series__number")
    assert [entry.series.number for entry in log] == [2, 3]
    assert {entry.seed for entry in log} == {int(seed)}
    assert all(entry.details["arrived"] == [late.player.full_name] for entry in log)
    assert all((entry.details["repeats_before"], entry.details["repeats_after"]) == (before, after) for entry in log)
    log_page = client.get(reverse("tournaments:draw_log", args=[tournament.slug])).content.decode()
    assert f"joined: {late.player.full_name}" in log_page
    assert f"Repeated meetings: {before} before, {after} after." in log_page


def test_a_withdrawal_redraws_only_the_series_after_it_and_keeps_the_played_ones():
    tournament = TournamentFactory(series_count=4)
    regs = register_teams(tournament, teams=4, individuals=1)  # 17 players: 4 tables, 1 bye
    draws.series_draw(tournament=tournament, numbers="all", seed=8)
    start_playing(tournament, 1)
    leaving = next(r for r in regs if r.player_id in seated(tournament, 3))
    registrations.registration_withdraw(registration=leaving, number=2)
    kept = {number: seating(tournament, number) for number in (1, 2)}

    outdated = draws.series_outdated(tournament=tournament)
    assert outdated.numbers == [3, 4]
    assert outdated.left == [leaving.player] and outdated.arrived == []
    redraw = draws.series_redraw_outdated(tournament=tournament, seed=9, numbers=[3, 4])

    assert {number: seating(tournament, number) for number in (1, 2)} == kept
    for number in (3, 4):
        assert leaving.player_id not in seated(tournament, number)
        assert len(seated(tournament, number)) == 16
    assert redraw.repeats_after == count_repeats(selectors.tournament_seatings(tournament=tournament))
    assert draws.series_outdated(tournament=tournament) is None


def test_the_redraw_seats_exactly_what_its_preview_counted():
    tournament = TournamentFactory(series_count=4)
    regs = register_teams(tournament, teams=3, individuals=5)  # 17 players, then 16
    draws.series_draw(tournament=tournament, numbers="all", seed=3)
    start_playing(tournament, 1)
    registrations.registration_withdraw(registration=regs[-1], number=2)
    outdated = draws.series_outdated(tournament=tournament)
    preview = draws.series_redraw_preview(tournament=tournament, outdated=outdated, seed=77)
    draws.series_redraw_outdated(tournament=tournament, seed=77)
    drawn = [s for _, _, result in preview.groups for s in result.series]
    stored = selectors.tournament_seatings(tournament=tournament)[-len(drawn) :]
    assert [sorted(map(sorted, s.tables)) for s in stored] == [sorted(map(sorted, s.tables)) for s in drawn]
    assert preview.repeats_after == count_repeats(selectors.tournament_seatings(tournament=tournament))


def test_a_redraw_is_refused_when_a_series_started_after_the_offer_was_shown():
    tournament = TournamentFactory(series_count=3)
    register_teams(tournament, teams=4)
    draws.series_draw(tournament=tournament, numbers="all", seed=1)
    RegistrationFactory(tournament=tournament, first_series=2)
    assert draws.series_outdated(tournament=tournament).numbers == [2, 3]
    start_playing(tournament, 2)
    before = seating(tournament, 3)
    with pytest.raises(ValidationError, match="became 3"):
        draws.series_redraw_outdated(tournament=tournament, seed=1, numbers=[2, 3])
    assert seating(tournament, 3) == before
    assert not DrawLog.objects.filter(action=DrawLog.Action.REDRAW).exists()


# --- a swap that repeats a meeting -----------------------------------------------------


def repeating_swap(tournament, number: int, other: int) -> tuple[int, int, int]:
    """(x, moved, replaced) in series ``number``: ``moved`` sits with x in series ``other`` but not here;
    swapping ``moved`` with ``replaced``, x's neighbour here, seats the pair together once more."""
    here = dict(tournament.series.get(number=number).assignments.values_list("player_id", "table"))
    there = dict(tournament.series.get(number=other).assignments.values_list("player_id", "table"))
    for x in sorted(here):
        moved = next((p for p in sorted(there) if there[p] == there[x] and p != x and here[p] != here[x]), None)
        if moved is not None:
            return x, moved, next(p for p in sorted(here) if here[p] == here[x] and p != x)
    raise AssertionError("the two series seat the same tables")


def drawn_individuals(seed: int):
    """Two series of 16 individuals: every swap is legal, and players, not teams, decide the repeats."""
    tournament = TournamentFactory(series_count=2)
    register_teams(tournament, teams=0, individuals=16)
    draws.series_draw(tournament=tournament, numbers="all", seed=seed)
    return tournament, {r.player_id: r.player for r in tournament.registrations.select_related("player")}


def names_pair(text: str, a: str, b: str, phrase: str) -> bool:
    return f"{a} and {b} {phrase}" in text or f"{b} and {a} {phrase}" in text


def test_a_swap_that_repeats_a_meeting_is_saved_only_after_the_organiser_confirms_it(client, tournament):
    register_teams(tournament, teams=0, individuals=16)
    client.post(reverse("tournaments:draw", args=[tournament.slug]), {"action": "all", "seed": "12"})
    x, moved, replaced = repeating_swap(tournament, 2, 1)
    players = {r.player_id: r.player for r in tournament.registrations.select_related("player")}
    url = reverse("tournaments:swap", args=[tournament.slug, 2])
    before = seating(tournament, 2)

    response = client.post(url, {"swap2-player_a": moved, "swap2-player_b": replaced})
    page = response.content.decode()
    assert response.status_code == 200
    assert names_pair(page, players[x].full_name, players[moved].full_name, "have already played together in series 1.")
    assert "Swap anyway" in page
    assert seating(tournament, 2) == before
    assert not DrawLog.objects.filter(action=DrawLog.Action.SWAP).exists()

    response = client.post(url, {"swap2-player_a": moved, "swap2-player_b": replaced, "swap2-confirm": "True"})
    assert response.status_code == 302
    assert seating(tournament, 2) != before
    assert DrawLog.objects.filter(action=DrawLog.Action.SWAP, series__number=2).exists()


def test_the_swap_warning_names_a_later_series_where_the_pair_also_sits_together():
    tournament, players = drawn_individuals(seed=12)
    x, moved, replaced = repeating_swap(tournament, 1, 2)
    with pytest.raises(draws.RepeatedMeetings) as warning:
        draws.series_swap(series=tournament.series.get(number=1), player_a=players[moved], player_b=players[replaced])
    text = " ".join(warning.value.messages)
    assert names_pair(text, players[x].full_name, players[moved].full_name, "also sit together in series 2.")


def test_the_swap_warning_reads_in_polish():
    tournament, players = drawn_individuals(seed=12)
    x, moved, replaced = repeating_swap(tournament, 2, 1)
    with pytest.raises(draws.RepeatedMeetings) as warning:
        draws.series_swap(series=tournament.series.get(number=2), player_a=players[moved], player_b=players[replaced])
    with translation.override("pl"):
        text = " ".join(warning.value.messages)
    a, b = players[x].full_name, players[moved].full_name
    assert f"{a} i {b} grali już ze sobą w serii 1." in text or f"{b} i {a} grali już ze sobą w serii 1." in text


# --- teams larger than the tables --------------------------------------------------------


def register_team(tournament, size: int, name: str):
    team = TeamFactory(members=size, name=name)
    return [RegistrationFactory(tournament=tournament, player=m.player, team=team) for m in team.memberships.all()]


def test_a_team_of_five_at_four_tables_plays_with_one_member_sitting_out_each_series():
    tournament = TournamentFactory(series_count=3)
    team = register_team(tournament, 5, "Gryf")
    RegistrationFactory.create_batch(12, tournament=tournament)  # 17 players: 4 tables, 1 bye
    draws.series_draw(tournament=tournament, numbers="all", seed=4)
    members = {r.player_id for r in team}
    for series in tournament.series.all():
        assert set(series.byes.values_list("player_id", flat=True)) <= members
        tables = [t for t, p in series.assignments.values_list("table", "player_id") if p in members]
        assert sorted(tables) == sorted(set(tables)) and len(tables) == 4


def test_a_team_too_large_even_with_the_byes_is_refused_with_the_numbers_in_polish():
    tournament = TournamentFactory(series_count=2)
    register_team(tournament, 5, "Gryf")
    RegistrationFactory.create_batch(11, tournament=tournament)  # 16 players: 4 tables, nobody sits out
    with pytest.raises(ValidationError) as refusal:
        draws.series_draw(tournament=tournament, numbers="all", seed=1)
    with translation.override("pl"):
        message = refusal.value.messages[0]
    assert "Drużyna Gryf ma 5 zawodników, a stolików jest 4 i pauzuje 0" in message
    assert not tournament.series.exclude(status=Series.Status.PLANNED).exists()


# --- what organisers read ------------------------------------------------------------------


def test_the_draw_page_and_the_draw_log_show_each_series_seed_but_not_the_algorithm(client, tournament):
    register_teams(tournament, teams=4)
    client.post(reverse("tournaments:draw", args=[tournament.slug]), {"action": "next", "seed": "424242"})
    client.post(reverse("tournaments:draw", args=[tournament.slug]), {"action": "next", "seed": "515151"})
    for name in ("tournaments:draw", "tournaments:draw_log"):
        page = client.get(reverse(name, args=[tournament.slug])).content.decode()
        assert "424242" in page and "515151" in page
        assert ALGORITHM_VERSION not in page and "baska-draw" not in page and "python -m" not in page
    page = client.get(reverse("tournaments:draw", args=[tournament.slug])).content.decode()
    assert "Draw seed: 515151." in page


def test_drawing_the_next_series_of_a_new_tournament_draws_only_series_1(client, tournament):
    register_teams(tournament, teams=4)
    client.post(reverse("tournaments:draw", args=[tournament.slug]), {"action": "next", "seed": "1"})
    assert list(tournament.series.filter(status=Series.Status.DRAWN).values_list("number", flat=True)) == [1]


def test_a_player_registered_after_drawing_all_plays_from_the_first_series_without_results(tournament):
    tournament.series_count = 3
    tournament.save()
    register_teams(tournament, teams=4)
    draws.series_draw(tournament=tournament, numbers="all", seed=5)
    start_playing(tournament, 1)

    late = registrations.registration_create(tournament=tournament, player=PlayerFactory(), individual=True)

    assert (late.first_series, late.checked_in) == (2, True)
    assert draws.series_outdated(tournament=tournament).numbers == [2, 3]


def test_nobody_joins_once_every_series_has_results(tournament):
    tournament.series_count = 2
    tournament.save()
    register_teams(tournament, teams=4)
    draws.series_draw(tournament=tournament, numbers="all", seed=5)
    start_playing(tournament, 1)
    start_playing(tournament, 2)

    with pytest.raises(ValidationError) as refusal:
        registrations.registration_create(tournament=tournament, player=PlayerFactory())
    assert refusal.value.code == "all_series_played"
