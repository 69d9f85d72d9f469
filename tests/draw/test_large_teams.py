"""A team with more players present than there are tables: it fits when the byes let it."""

from __future__ import annotations

import pytest

from league.draw import DrawError, DrawPlayer, draw_tournament
from league.draw.model import teammates_apart


def field(team_size: int, individuals: int) -> list[DrawPlayer]:
    """One team ``t0`` of ``team_size`` and ``individuals`` players without a team."""
    return [DrawPlayer(f"t0p{k}", "t0") for k in range(team_size)] + [
        DrawPlayer(f"i{k}", None) for k in range(individuals)
    ]


@pytest.mark.parametrize("individuals_first", [False, True])
def test_a_team_one_larger_than_the_tables_sits_one_member_out_each_series(individuals_first):
    players = field(5, 12)  # 17 players: 4 tables and 1 bye a series
    result = draw_tournament(players, 4, seed=7, individuals_sit_out_first=individuals_first)
    teams = {p.id: p.team for p in players}
    assert teammates_apart(result.series, teams)
    byes = [bye for series in result.series for bye in series.byes]
    assert len(byes) == len(set(byes)) == 4
    assert all(teams[bye] == "t0" for bye in byes)


def test_two_teams_larger_than_the_tables_share_the_byes():
    players = [DrawPlayer(f"{t}p{k}", t) for t in ("a", "b") for k in range(5)] + [
        DrawPlayer(f"i{k}", None) for k in range(8)
    ]  # 18 players: 4 tables and 2 byes a series, each team one too many
    result = draw_tournament(players, 3, seed=3)
    teams = {p.id: p.team for p in players}
    assert teammates_apart(result.series, teams)
    assert all(sorted(teams[bye] for bye in series.byes) == ["a", "b"] for series in result.series)


def test_a_team_larger_than_tables_and_byes_together_is_refused_with_the_numbers():
    with pytest.raises(DrawError) as caught:
        draw_tournament(field(5, 11), 1, seed=1)  # 16 players: 4 tables, nobody sits out
    assert caught.value.code == "team_too_large"
    assert caught.value.params == {"team": "t0", "members": 5, "tables": 4, "byes": 0}


def test_teams_that_together_need_more_byes_than_a_series_has_are_refused():
    players = [DrawPlayer(f"{t}p{k}", t) for t in ("a", "b") for k in range(5)] + [
        DrawPlayer(f"i{k}", None) for k in range(7)
    ]  # 17 players: 4 tables and 1 bye, but each team needs one of its own
    with pytest.raises(DrawError) as caught:
        draw_tournament(players, 1, seed=1)
    assert caught.value.code == "teams_too_large"
    assert caught.value.params == {"teams": ["a", "b"], "needed": 2, "tables": 4, "byes": 1}


def test_a_large_team_that_runs_out_of_members_without_a_bye_is_refused():
    with pytest.raises(DrawError) as caught:
        draw_tournament(field(5, 12), 6, seed=1)  # one member out in each of 6 series, but only 5 members
    assert caught.value.code == "team_byes_exhausted"
    assert caught.value.params == {"team": "t0", "members": 5, "tables": 4, "excess": 1, "series": 6, "eligible": 5}


def test_a_large_team_counts_the_byes_its_members_already_had():
    players = field(5, 12)
    with pytest.raises(DrawError) as caught:
        draw_tournament(players, 4, seed=1, had_bye=["t0p0", "t0p1"])
    assert caught.value.params["eligible"] == 3
    result = draw_tournament(players, 3, seed=1, had_bye=["t0p0", "t0p1"])
    assert sorted(bye for series in result.series for bye in series.byes) == ["t0p2", "t0p3", "t0p4"]
