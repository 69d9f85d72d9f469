"""A season adds up its tournaments by its scheme (docs/rules.md §6): small points summed
(psb example I), big points summed, or points for places in each tournament (psb example II:
100 + 0 + 25 = 125 with +128 small; teams 80 + 100 + 0 = 180 with +570), best K of N."""

from __future__ import annotations

from typing import Any

import pytest

from league.models import Season, SeasonScheme, Tournament
from league.seasons.forms import PSB_PLACE_POINTS, PSB_TEAM_PLACE_POINTS
from league.standings.cache import season_rankings
from league.standings.seasons import season_standings, season_uses_big_points
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TeamFactory,
    TournamentFactory,
    played_series,
)


def entry(pk: int, place: int, small: int, big: float = 0, name: str = "") -> dict[str, Any]:
    """One row of a tournament's standing list, as ``league.standings.compute`` gives it."""
    return {
        "pk": pk,
        "place": place,
        "label": f"{place}.",
        "name": name or f"#{pk}",
        "small_points": small,
        "big_points": big,
    }


P, Q, GRYF = 1, 2, 1
FILLERS = range(100, 124)  # 24 players ahead of P in the third tournament


def psb_lists() -> list[dict[str, list[dict[str, Any]]]]:
    """Three tournaments as psb example II tells them: P 1st with +178, unclassified with −100,
    25th with +50; the team Gryf 3rd with +280, 1st with +310, −20; Q unclassified with −20,
    1st with +30, 26th with +10."""
    return [
        {
            "individual": [entry(P, 1, 178, 14, "P"), entry(Q, 2, -20, 12, "Q")],
            "teams": [entry(2, 1, 400, 40), entry(3, 2, 300, 30), entry(GRYF, 3, 280, 20, "Gryf")],
        },
        {
            "individual": [entry(Q, 1, 30, 15, "Q"), entry(P, 2, -100, 3, "P")],
            "teams": [entry(GRYF, 1, 310, 35, "Gryf")],
        },
        {
            "individual": [
                *(entry(pk, place, 150 + 24 - place) for place, pk in enumerate(FILLERS, start=1)),
                entry(P, 25, 50, 2, "P"),
                entry(Q, 26, 10, 1, "Q"),
            ],
            "teams": [entry(GRYF, 1, -20, 5, "Gryf")],
        },
    ]


def psb_season(scheme: str, best_of: int | None = None) -> Season:
    return Season(
        scheme=scheme, best_of=best_of, place_points=PSB_PLACE_POINTS, team_place_points=PSB_TEAM_PLACE_POINTS
    )


def tournaments(count: int = 3, **fields: Any) -> list[Tournament]:
    return [Tournament(**fields) for _ in range(count)]


def row(rows: list[dict[str, Any]], pk: int) -> tuple[float, int, int]:
    found = next(r for r in rows if r["pk"] == pk)
    return found["big_points"], found["small_points"], found["counted"]


def test_the_example_table_offered_gives_the_seeds_figures():
    # psb example II: 1st 100, 25th 25 of the best 50 players; teams 3rd 80 of the best 15
    assert (len(PSB_PLACE_POINTS), PSB_PLACE_POINTS[0], PSB_PLACE_POINTS[24]) == (50, 100, 25)
    assert (len(PSB_TEAM_PLACE_POINTS), PSB_TEAM_PLACE_POINTS[0], PSB_TEAM_PLACE_POINTS[2]) == (15, 100, 80)
    assert sorted(PSB_PLACE_POINTS, reverse=True) == PSB_PLACE_POINTS


@pytest.mark.parametrize(
    ("scheme", "player", "team"),
    [
        # psb example I: +178 −100 +50 = +128; the team +280 +310 −20 = +570; no big points shown
        (SeasonScheme.SMALL, (0, 128, 3), (0, 570, 3)),
        # the tournaments' big points summed: 14 + 3 + 2; 20 + 35 + 5
        (SeasonScheme.BIG, (19, 128, 3), (60, 570, 3)),
        # psb example II: 100 + 0 + 25 = 125 with +128; teams 80 + 100 + 0 = 180 with +570
        (SeasonScheme.PLACES, (125, 128, 3), (180, 570, 3)),
    ],
)
def test_each_scheme_adds_up_the_same_three_tournaments(scheme, player, team):
    tables = season_standings(psb_season(scheme), tournaments(), psb_lists())

    assert row(tables["individual"], P) == player
    assert row(tables["teams"], GRYF) == team


@pytest.mark.parametrize(
    ("scheme", "first"),
    [
        # small points: the best of the 24 players ahead of P in the third tournament has +173
        (SeasonScheme.SMALL, "#100"),
        (SeasonScheme.BIG, "Q"),  # 12 + 15 + 1 = 28 big points beat P's 19
        (SeasonScheme.PLACES, "P"),  # 100 + 0 + 25 = 125 beat Q's 0 + 100 + 24
    ],
)
def test_the_scheme_decides_who_leads_the_season(scheme, first):
    tables = season_standings(psb_season(scheme), tournaments(), psb_lists())

    assert tables["individual"][0]["name"] == first


def test_best_of_counts_the_best_results_by_the_schemes_own_figure():
    tables = season_standings(psb_season(SeasonScheme.PLACES, best_of=2), tournaments(), psb_lists())

    # P's best two by season points: 100 (+178) and 25 (+50); the 0 with −100 is dropped
    assert row(tables["individual"], P) == (125, 228, 2)
    # Q: 100 (+30) and 24 (+10) count, the 0 with −20 is dropped
    assert row(tables["individual"], Q) == (124, 40, 2)
    assert next(r for r in tables["individual"] if r["pk"] == P)["tournaments"] == 3


def test_best_of_under_small_points_keeps_the_best_small_points():
    tables = season_standings(psb_season(SeasonScheme.SMALL, best_of=2), tournaments(), psb_lists())

    assert row(tables["individual"], P) == (0, 228, 2)


def test_a_negative_result_earns_no_points_for_its_place_and_does_not_take_one():
    """Only a positive result is placed: a negative 1st leaves the 100 points to the next positive."""
    lists = [{"individual": [entry(P, 1, -5, 10), entry(Q, 2, 7, 8)], "teams": []}]

    tables = season_standings(psb_season(SeasonScheme.PLACES), tournaments(1), lists)

    assert [(r["pk"], r["big_points"]) for r in tables["individual"]] == [(Q, 100), (P, 0)]


@pytest.mark.parametrize(
    ("scheme", "uses_big_points", "shown"),
    [
        (SeasonScheme.SMALL, True, False),
        (SeasonScheme.BIG, True, True),
        (SeasonScheme.BIG, False, False),
        (SeasonScheme.PLACES, False, True),
    ],
)
def test_big_points_are_shown_where_the_scheme_has_them(scheme, uses_big_points, shown):
    assert season_uses_big_points(psb_season(scheme), tournaments(uses_big_points=uses_big_points)) is shown


# --- through the database ------------------------------------------------------


@pytest.mark.django_db
def test_points_for_places_through_the_database():
    """Three psb tournaments of twelve players, the team Gryf, Remus and four individuals:
    P 1st with +178, −100, 3rd with +50 under places [100, 80, 60]; Gryf 2nd with +280 (80),
    1st with +310 (100), −20 (0) under team places [100, 80]."""
    season = SeasonFactory(scheme=SeasonScheme.PLACES, place_points=[100, 80, 60], team_place_points=[100, 80])
    gryf, remus = TeamFactory(name="Gryf", members=4), TeamFactory(name="Remus", members=4)
    g = [m.player for m in gryf.memberships.order_by("pk")]
    r = [m.player for m in remus.memberships.order_by("pk")]
    p, *x = (PlayerFactory(last_name=name) for name in ("P", "X1", "X2", "X3"))
    # small points per tournament, table by table: [P, X1, G1, R1], [X2, G2, G3, R2], [X3, G4, R3, R4]
    results = [
        [(178, -323, 70, 75), (-215, 70, 70, 75), (-220, 70, 75, 75)],
        [(-100, 30, 80, -10), (-150, 80, 80, -10), (-40, 70, -15, -15)],
        [(50, -105, -5, 60), (-60, -5, -5, 70), (-15, -5, 10, 10)],
    ]
    seats = [[p, x[0], g[0], r[0]], [x[1], g[1], g[2], r[1]], [x[2], g[3], r[2], r[3]]]
    for number, tables in enumerate(results, start=1):
        tournament = TournamentFactory(season=season, ruleset_preset="psb", uses_big_points=False, slug=f"psb-{number}")
        for player in (p, *x):
            RegistrationFactory(tournament=tournament, player=player)
        for team, members in ((gryf, g), (remus, r)):
            for player in members:
                RegistrationFactory(tournament=tournament, player=player, team=team)
        played_series(
            tournament, 1, [list(zip(table, values, strict=True)) for table, values in zip(seats, tables, strict=True)]
        )

    tables = season_rankings(season)

    assert row(tables["individual"], p.pk) == (160, 128, 3)
    assert row(tables["teams"], gryf.pk) == (180, 570, 3)
