"""Registering the regulars in one action (issue 25): a whole team, a whole club or everyone from an
earlier tournament, with a preview; tick all and untick all for the rows a filter shows; the filter;
and the registration search that finds the players of a team or a club."""

import datetime
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from league.tournaments import draws, regulars
from tests.factories import (
    ClubFactory,
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    TeamFactory,
    TournamentFactory,
    register_teams,
)

pytestmark = pytest.mark.django_db

# session, user, tournament and organiser check, the menu's two permission reads, then the page's own:
# the preview's choices and candidates; the list's search (clubs, teams, players), filter and clubs to build a team
PREVIEW_BUDGET = 12
FILTERED_LIST_BUDGET = 12


def url(name, tournament, *args):
    return reverse(f"tournaments:{name}", args=[tournament.slug, *args])


def messages_of(response) -> str:
    return " ".join(str(message) for message in response.wsgi_request._messages)


def token_of(page: str) -> str:
    return re.search(r'name="entries" value="([^"]+)"', page).group(1)


@pytest.fixture
def last_month(tournament, organiser):
    """The organiser's tournament a month earlier: a team of four and two individuals."""
    earlier = TournamentFactory(date=tournament.date - datetime.timedelta(days=30), name="Turniej listopadowy")
    earlier.organisers.add(organiser)
    register_teams(earlier, teams=1, size=4, individuals=2)
    return earlier


def preview(client, tournament, **source):
    return client.get(url("add_many", tournament), {name: value.pk for name, value in source.items()})


def registered(tournament) -> dict[str, str | None]:
    return {
        r.player.full_name: r.team and r.team.name for r in tournament.registrations.select_related("player", "team")
    }


# --- add many: the preview and its confirmation ----------------------------------------------------


def test_everyone_from_last_month_is_previewed_and_then_registered_with_their_teams(client, tournament, last_month):
    page = preview(client, tournament, earlier=last_month).text
    assert "6 players will be registered" in page
    assert not tournament.registrations.exists()  # the preview saves nothing

    response = client.post(url("add_many", tournament), {"entries": token_of(page)})

    assert response.url == url("registrations", tournament)
    assert "6 players registered." in messages_of(response)
    assert registered(tournament) == registered(last_month)


def test_the_preview_names_who_is_registered_already_and_who_is_inactive(client, tournament, last_month):
    here, away, *_ = last_month.registrations.select_related("player").order_by("pk")
    RegistrationFactory(tournament=tournament, player=here.player)
    away.player.active = False
    away.player.save()

    page = preview(client, tournament, earlier=last_month).text

    assert "4 players will be registered" in page
    already = page.split("Already registered, skipped (1)")[1].split("</ul>")[0]
    assert here.player.full_name in already
    inactive = page.split("Inactive in the register, skipped (1)")[1].split("</ul>")[0]
    assert away.player.full_name in inactive
    client.post(url("add_many", tournament), {"entries": token_of(page)})
    assert tournament.registrations.count() == 5
    assert not tournament.registrations.filter(player=away.player).exists()


def test_confirming_the_same_preview_twice_registers_nobody_twice(client, tournament, last_month):
    token = token_of(preview(client, tournament, earlier=last_month).text)
    client.post(url("add_many", tournament), {"entries": token})

    again = client.post(url("add_many", tournament), {"entries": token})

    assert tournament.registrations.count() == 6
    assert "Nobody new to register" in messages_of(again)


def test_a_changed_preview_registers_nobody(client, tournament, last_month):
    token = token_of(preview(client, tournament, earlier=last_month).text)
    stranger = PlayerFactory()
    forged = regulars.entries_signed(tournament_pk=tournament.pk, entries=[(stranger.pk, None)])[:-1] + "x"

    for entries in (token[:-2] + "zz", forged, ""):
        response = client.post(url("add_many", tournament), {"entries": entries})
        assert "The preview was changed" in messages_of(response)
    assert not tournament.registrations.exists()


def test_a_preview_of_another_tournament_registers_nobody_here(client, tournament, last_month, organiser):
    other = TournamentFactory(date=tournament.date)
    other.organisers.add(organiser)
    token = token_of(preview(client, other, earlier=last_month).text)

    response = client.post(url("add_many", tournament), {"entries": token})

    assert "The preview was changed" in messages_of(response)
    assert not tournament.registrations.exists()


def test_an_hour_old_preview_is_shown_again_before_registering(client, tournament, last_month, monkeypatch):
    token = token_of(preview(client, tournament, earlier=last_month).text)
    monkeypatch.setattr(regulars, "PREVIEW_MAX_AGE", -1)

    response = client.post(url("add_many", tournament), {"entries": token})

    assert "more than an hour old" in messages_of(response)
    assert not tournament.registrations.exists()


def test_a_whole_team_is_registered_for_it(client, tournament):
    team = TeamFactory(members=5)
    page = preview(client, tournament, team=team).text
    client.post(url("add_many", tournament), {"entries": token_of(page)})
    assert set(registered(tournament).values()) == {team.name}
    assert tournament.registrations.count() == 5


def test_a_whole_club_is_registered_each_for_their_current_team(client, tournament):
    club = ClubFactory(name="Kaszëbë")
    team = TeamFactory(club=club, members=4)
    loner = PlayerFactory(club=club)
    PlayerFactory()  # of another club
    page = preview(client, tournament, club=club).text
    client.post(url("add_many", tournament), {"entries": token_of(page)})
    teams = registered(tournament)
    assert len(teams) == 5
    assert teams.pop(loner.full_name) is None
    assert set(teams.values()) == {team.name}


def test_a_team_that_would_exceed_its_size_is_named_and_the_rest_play_as_individuals(client, tournament, organiser):
    team = TeamFactory(members=4)
    earlier = TournamentFactory(date=tournament.date)
    earlier.organisers.add(organiser)
    RegistrationFactory.create_batch(3, tournament=earlier, team=team)  # three of last month's, not members now
    RegistrationFactory.create_batch(3, tournament=tournament, team=team)

    page = preview(client, tournament, earlier=earlier).text
    assert re.search(rf"{team.name} is full: .+ will play as individuals", page)
    client.post(url("add_many", tournament), {"entries": token_of(page)})

    assert tournament.registrations.filter(team=team).count() == 5
    assert tournament.registrations.filter(team=None).count() == 1


def test_after_the_draw_the_regulars_are_late_arrivals(client, tournament, last_month):
    register_teams(tournament, teams=0, individuals=8)
    draws.series_draw(tournament=tournament, numbers=[1], seed=1)
    page = preview(client, tournament, earlier=last_month).text
    assert "late arrivals" in page
    client.post(url("add_many", tournament), {"entries": token_of(page)})
    late = tournament.registrations.filter(player__registrations__tournament=last_month)
    assert late.count() == 6
    assert all(r.checked_in and r.first_series == 1 for r in late)


def test_a_tournament_over_the_limit_registers_nobody(client, tournament, last_month, monkeypatch):
    monkeypatch.setattr("league.tournaments.selectors.MAX_PLAYERS", 5)
    page = preview(client, tournament, earlier=last_month).text
    assert "A tournament takes at most 5 players." in page
    assert 'name="entries"' not in page
    monkeypatch.setattr("league.tournaments.registrations.MAX_PLAYERS", 5)
    token = regulars.entries_signed(
        tournament_pk=tournament.pk, entries=list(last_month.registrations.values_list("player_id", "team_id"))
    )
    response = client.post(url("add_many", tournament), {"entries": token})
    assert "at most 5 players" in messages_of(response)
    assert not tournament.registrations.exists()


def test_only_the_organisers_own_earlier_tournaments_are_offered_newest_first(client, tournament, organiser):
    older = TournamentFactory(date=tournament.date - datetime.timedelta(days=60), name="Wrzesień")
    newer = TournamentFactory(date=tournament.date - datetime.timedelta(days=30), name="Październik")
    later = TournamentFactory(date=tournament.date + datetime.timedelta(days=30), name="Grudzień")
    foreign = TournamentFactory(date=tournament.date - datetime.timedelta(days=1), name="Cudzy")
    for own in (older, newer, later):
        own.organisers.add(organiser)

    page = client.get(url("add_many", tournament)).text
    select = re.search(r'<select name="earlier".*?</select>', page, flags=re.S).group()

    assert re.findall(r">([^<(]+) \(", select) == ["Październik", "Wrzesień"]
    refused = preview(client, tournament, earlier=foreign).text
    assert "Select a valid choice" in refused
    assert 'name="entries"' not in refused


def test_in_a_league_the_leagues_earlier_tournaments_are_offered_and_its_drafts_only_to_its_organisers(
    client, tournament, organiser
):
    league = LeagueFactory()
    tournament.league = league
    tournament.save()
    played = TournamentFactory(date=tournament.date - datetime.timedelta(days=30), name="Ligowy", league=league)
    draft = TournamentFactory(
        date=tournament.date - datetime.timedelta(days=10), name="Szkic", league=league, published=False
    )
    own = TournamentFactory(date=tournament.date - datetime.timedelta(days=5), name="Poza ligą")
    own.organisers.add(organiser)

    def offered() -> list[str]:
        page = client.get(url("add_many", tournament)).text
        return re.findall(r">([^<(]+) \(", re.search(r'<select name="earlier".*?</select>', page, flags=re.S).group())

    assert offered() == ["Ligowy"]  # another organiser's draft and tournaments outside the league are not
    league.organisers.add(organiser)
    assert offered() == [draft.name, played.name]


def test_choosing_nothing_or_two_sources_asks_for_one(client, tournament, last_month):
    team = TeamFactory(members=4)
    page = client.get(url("add_many", tournament), {"team": team.pk, "earlier": last_month.pk}).text
    assert "Choose one team, one club or one tournament." in page
    assert 'name="entries"' not in page


@pytest.mark.parametrize("players", [1, 10])
def test_the_preview_takes_the_same_queries_for_few_and_many_players(
    client, tournament, organiser, players, django_assert_max_num_queries
):
    earlier = TournamentFactory(date=tournament.date)
    earlier.organisers.add(organiser)
    register_teams(earlier, teams=players, size=4, individuals=players)
    register_teams(tournament, teams=players, size=2, individuals=players)
    with django_assert_max_num_queries(PREVIEW_BUDGET):
        page = preview(client, tournament, earlier=earlier).text
    assert f"{5 * players} players will be registered" in page


# --- the filter and tick all / untick all ------------------------------------------------------------


@pytest.fixture
def door(tournament):
    """A team of Kaszëbë Puck (club Gryf Wejherowo) and two individuals, nobody present or paid yet."""
    team = TeamFactory(name="Kaszëbë Puck", club=ClubFactory(name="Gryf Wejherowo"), members=4)
    rows = [RegistrationFactory(tournament=tournament, player=m.player, team=team) for m in team.memberships.all()]
    rows += [
        RegistrationFactory(tournament=tournament, player__first_name="Żaneta", player__last_name="Łęcka"),
        RegistrationFactory(tournament=tournament, player__club=ClubFactory(name="Żuraw Gdańsk")),
    ]
    tournament.registrations.update(checked_in=False, fee_paid=False)
    return rows


def shown(client, tournament, **filter) -> set[str]:
    """The names on the registration list with ``filter``."""
    page = client.get(url("registrations", tournament), filter).text
    return set(re.findall(r'<td class="who"><strong>([^<]+)</strong>', page))


@pytest.mark.parametrize(
    ("who", "count"),
    [("kaszebe", 4), ("KASZËBË", 4), ("gryf", 4), ("zaneta lecka", 1), ("zuraw", 1), ("lecka puck", 0)],
)
def test_the_filter_finds_names_clubs_and_teams_with_or_without_polish_letters(client, tournament, door, who, count):
    assert len(shown(client, tournament, who=who)) == count


def test_the_filter_shows_who_is_not_present_or_has_not_paid(client, tournament, door):
    tournament.registrations.filter(pk=door[0].pk).update(checked_in=True)
    tournament.registrations.filter(pk=door[1].pk).update(fee_paid=True)
    assert door[0].player.full_name not in shown(client, tournament, absent="on")
    assert len(shown(client, tournament, absent="on")) == 5
    assert len(shown(client, tournament, absent="on", unpaid="on")) == 4
    assert len(shown(client, tournament)) == 6


def test_tick_all_marks_every_filtered_row_and_only_them_and_comes_back_to_the_same_rows(client, tournament, door):
    foreign = RegistrationFactory(checked_in=False)
    response = client.post(url("registrations_all", tournament), {"flag": "checked_in", "value": "1", "who": "puck"})
    assert set(tournament.registrations.filter(checked_in=True)) == set(door[:4])
    assert "Ticked: 4." in messages_of(response)
    assert parse_qs(urlsplit(response.url).query) == {"who": ["puck"]}
    foreign.refresh_from_db()
    assert not foreign.checked_in


def test_untick_all_takes_the_fee_back_from_everyone_shown(client, tournament, door):
    tournament.registrations.update(fee_paid=True)
    response = client.post(url("registrations_all", tournament), {"flag": "fee_paid", "value": "0", "q": "kow"})
    assert not tournament.registrations.filter(fee_paid=True).exists()
    assert "Unticked: 6." in messages_of(response)
    assert parse_qs(urlsplit(response.url).query) == {"q": ["kow"]}


@pytest.mark.parametrize("data", [{"flag": "player", "value": "1"}, {"flag": "fee_paid", "value": "yes"}])
def test_a_tampered_tick_all_changes_nothing(client, tournament, door, data):
    response = client.post(url("registrations_all", tournament), data)
    assert not tournament.registrations.filter(fee_paid=True).exists()
    assert "Select a valid choice" in messages_of(response)


def test_the_list_keeps_its_filter_in_every_form(client, tournament, door):
    page = client.get(url("registrations", tournament), {"who": "puck", "unpaid": "on", "q": "kow"}).text
    forms = re.findall(r"<form method=\"post\".*?</form>", page, flags=re.S)
    assert len(forms) > 2
    for form in forms:
        assert 'name="who" value="puck"' in form
        assert 'name="unpaid" value="on"' in form


def test_the_search_keeps_the_filter_in_the_address_and_in_its_results(client, tournament, door):
    newcomer = PlayerFactory(last_name="Kowalska")
    page = client.get(url("registrations", tournament), {"who": "puck"}).text
    search = re.search(r'<form method="get" hx-get.*?</form>', page, flags=re.S).group()
    assert '<input type="hidden" name="who" value="puck">' in search
    found = client.get(
        url("registrations", tournament),
        {"q": "kowalska", "who": "puck"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="search-results",
    ).text
    assert newcomer.full_name in found
    assert '<input type="hidden" name="who" value="puck">' in found.split("<form")[1]


def test_a_single_toggle_keeps_the_filter(client, tournament, door):
    response = client.post(url("check_in", tournament, door[0].pk), {"who": "puck", "absent": "on"})
    assert parse_qs(urlsplit(response.url).query) == {"who": ["puck"], "absent": ["on"]}


@pytest.mark.parametrize("players", [2, 40])
def test_the_filtered_list_takes_the_same_queries_for_few_and_many_players(
    client, tournament, players, django_assert_max_num_queries
):
    register_teams(tournament, teams=1, size=2, individuals=players - 2)
    with django_assert_max_num_queries(FILTERED_LIST_BUDGET):
        response = client.get(url("registrations", tournament), {"who": "kowalski", "unpaid": "on", "q": "k"})
    assert response.content.decode().count('name="after_series"') == players


# --- the registration search finds a team's or a club's players -------------------------------------


@pytest.mark.parametrize("text", ["kaszebe", "Kaszëbë Puck", "wejherowo"])
def test_the_registration_search_finds_the_players_of_a_team_or_a_club(client, tournament, text):
    club = ClubFactory(name="Gryf Wejherowo")
    team = TeamFactory(name="Kaszëbë Puck", club=club, members=4)
    registered_one = team.memberships.first().player
    RegistrationFactory(tournament=tournament, player=registered_one)
    stranger = PlayerFactory()
    found = client.get(
        url("registrations", tournament), {"q": text}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="search-results"
    ).text
    names = {m.player.full_name for m in team.memberships.exclude(player=registered_one)}
    offered = found.split("already-registered")[0]  # the players offered, before those named as registered
    assert all(name in offered for name in names)
    assert registered_one.full_name not in offered  # named apart, as registered already
    assert stranger.full_name not in found


# --- the team size kept, as a rule of its own -------------------------------------------------------


@given(
    entries=st.lists(st.tuples(st.integers(1, 60), st.none() | st.integers(1, 4)), unique_by=lambda e: e[0]),
    registered=st.dictionaries(st.integers(1, 4), st.integers(0, 6)),
)
def test_no_team_grows_past_its_size_and_nobody_is_left_out(entries, registered):
    fitted = regulars.teams_fitted(entries, registered=registered, limit=5)
    assert [player for player, _team in fitted.entries] == [player for player, _team in entries]
    for team in {team for _player, team in entries if team is not None}:
        joined = sum(1 for _player, chosen in fitted.entries if chosen == team)
        before = registered.get(team, 0)
        assert joined == max(0, min(5 - before, sum(1 for _player, wanted in entries if wanted == team)))
        assert len(fitted.overflow.get(team, [])) == sum(1 for _p, wanted in entries if wanted == team) - joined
