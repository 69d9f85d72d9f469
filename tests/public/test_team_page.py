"""The team page (issue 14): for each tournament, which members' results counted for the team
— for its small and its big points separately — and the rule that says so."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league.models import TeamRanking
from league.standings.summaries import player_results_rebuild
from tests.factories import PlayerFactory, RegistrationFactory, TeamFactory, TournamentFactory, played_series

pytestmark = pytest.mark.django_db


def team_evening(**fields):
    """A team of four at four tables of one series: Adam +40 but 3rd at his table, Bożena +10
    and 1st at hers, Cezary +20 (1st), Dorota −30 but 2nd."""
    tournament = TournamentFactory(draw_published=True, **fields)
    team = TeamFactory(name="Kaszubskie Asy")
    names = [("Adam", "Aaa"), ("Bożena", "Bbb"), ("Cezary", "Ccc"), ("Dorota", "Ddd")]
    members = [PlayerFactory(first_name=first, last_name=last) for first, last in names]
    for member in members:
        team.memberships.create(player=member)
        RegistrationFactory(tournament=tournament, player=member, team=team)
    adam, bozena, cezary, dorota = members
    tables = []
    for member, points, rest in [
        (adam, 40, (60, 50, -150)),
        (bozena, 10, (0, -5, -5)),
        (cezary, 20, (10, -10, -20)),
        (dorota, -30, (100, -35, -35)),
    ]:
        others = PlayerFactory.create_batch(3)
        for other in others:
            RegistrationFactory(tournament=tournament, player=other)
        tables.append([(member, points), *zip(others, rest, strict=True)])
    played_series(tournament, 1, tables)
    return tournament, team


def marks(page: str) -> dict[str, list[str]]:
    """Each member's row: small points and their mark, big points and theirs."""
    body = page.split('class="data team-members"')[1].split("<tbody>")[1].split("</tbody>")[0]
    rows = {}
    for row in body.split("<tr>")[1:]:
        cells = [
            " ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        rows[cells[0]] = cells[1:]
    return rows


def test_best_three_of_four_marks_who_counted_for_small_and_for_big_points_separately(client):
    tournament, team = team_evening(team_ranking=TeamRanking.BEST, team_best_of=3)

    page = client.get(reverse("public:team", args=[team.pk])).content.decode()

    assert "The team ranking counts the best 3 results of 4." in page
    assert marks(page) == {
        # Adam's +40 counts for small points, but his 3rd place (1 + a third of the bonus of 3)
        # gives the team's least big points; Dorota's −30 is the least small points, her 2nd place 3
        "Adam Aaa": ["+40 ✓ counted", "2 not counted"],
        "Bożena Bbb": ["+10 ✓ counted", "8 ✓ counted"],
        "Cezary Ccc": ["+20 ✓ counted", "6.5 ✓ counted"],
        "Dorota Ddd": ["−30 not counted", "3 ✓ counted"],
    }


def test_the_sum_of_all_members_counts_everyone(client):
    tournament, team = team_evening(team_ranking=TeamRanking.SUM)

    page = client.get(reverse("public:team", args=[team.pk])).content.decode()

    assert "The team ranking counts the sum of all the team&#x27;s players." in page
    assert all(small.endswith("✓ counted") and big.endswith("✓ counted") for small, big in marks(page).values())


def test_the_rule_reads_in_polish(client):
    _, team = team_evening(team_ranking=TeamRanking.BEST, team_best_of=3)

    page = client.get(reverse("public:team", args=[team.pk]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    assert "Do klasyfikacji drużyn liczą się 3 najlepsze wyniki z 4." in page
    assert "liczony" in page and "nie liczony" in page


def test_a_member_who_did_not_play_is_listed_without_results(client):
    tournament, team = team_evening(team_ranking=TeamRanking.BEST, team_best_of=3)
    reserve = PlayerFactory(first_name="Edward", last_name="Eee")
    team.memberships.create(player=reserve)
    RegistrationFactory(tournament=tournament, player=reserve, team=team)

    page = client.get(reverse("public:team", args=[team.pk])).content.decode()

    assert marks(page)["Edward Eee"] == ["did not play"]
    assert "The team ranking counts the best 3 results of 5." in page


@pytest.mark.parametrize(("gender", "said"), [("F", "nie grała"), ("M", "nie grał")])
def test_a_member_who_did_not_play_is_said_so_with_the_verb_of_their_gender(client, gender, said):
    tournament, team = team_evening(team_ranking=TeamRanking.BEST, team_best_of=3)
    reserve = PlayerFactory(first_name="Ola", last_name="Eee", gender=gender)
    team.memberships.create(player=reserve)
    RegistrationFactory(tournament=tournament, player=reserve, team=team)

    page = client.get(reverse("public:team", args=[team.pk]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    assert marks(page)["Ola Eee"] == [said]


def test_a_draft_tournament_is_not_on_the_team_page(client):
    tournament, team = team_evening(team_ranking=TeamRanking.BEST, published=False)

    page = client.get(reverse("public:team", args=[team.pk])).content.decode()

    assert tournament.name not in page and "team-members" not in page


@pytest.mark.parametrize("tournaments", [1, 12])
def test_a_teams_page_lists_ten_tournaments_newest_first_and_the_older_on_the_next_page(
    client, tournaments, django_assert_max_num_queries
):
    """Issue 40: a team of many seasons had every tournament on one page (512 KB of HTML at 300
    tournaments, built in 0.85 s); paged as a player's page, a page costs the same at any length."""
    team = TeamFactory(name="Kaszubskie Asy")
    member = PlayerFactory(first_name="Adam", last_name="Aaa")
    team.memberships.create(player=member)
    for n in range(tournaments):
        tournament = TournamentFactory(name=f"Turniej {n + 1:02}", date=f"2026-01-{n + 1:02}", draw_published=True)
        RegistrationFactory(tournament=tournament, player=member, team=team)
    player_results_rebuild()  # the rows, as the recompute task leaves them
    url = reverse("public:team", args=[team.pk])

    with django_assert_max_num_queries(16):
        first = client.get(url).content.decode()

    names = re.findall(r"Turniej \d\d", first)
    assert names == [f"Turniej {n:02}" for n in range(tournaments, max(tournaments - 10, 0), -1)]
    if tournaments > 10:
        assert "Starsze turnieje" in first or "Older tournaments" in first
        second = client.get(url, {"strona": 2}).content.decode()
        assert re.findall(r"Turniej \d\d", second) == ["Turniej 02", "Turniej 01"]
