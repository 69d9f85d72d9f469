"""Merging (scalanie) one person entered twice, and deleting a player entered by mistake (issue 25,
"one clean register"): what moves, what is refused and why, who may, and that standings, seasons
and exports afterwards are those of the person as one player all along."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from league.exchange import export_tournament, import_tournament
from league.models import Registration, Season, Tournament
from league.ranking_lists import PUBLISH_FIELDS
from league.standings.cache import season_rankings, tournament_rankings
from players import selectors, services
from players.models import Player, PlayerRemoval, TeamMember
from tests.exchange.files import load
from tests.factories import (
    ByeFactory,
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TableAssignmentFactory,
    TeamFactory,
    TeamMemberFactory,
    TournamentFactory,
    UserFactory,
    drawn_series,
)

pytestmark = pytest.mark.django_db

FILE_PLAYERS = [entry["id"] for entry in load("small_puck")["players"]]


def organiser_of(*tournaments):
    user = UserFactory()
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_player", "change_player"]))
    for tournament in tournaments:
        tournament.organisers.add(user)
    return user


# --- the property: a merge leaves everything as if the person had always been one -----------


def second_evening(*, entered_again_as: str | None = None) -> dict[str, Any]:
    """small_puck played again a month later; ``entered_again_as``: the file's id of the player
    whose name this time was typed differently (and without the licence), as a new entry."""
    data = load("small_puck")
    data["tournament"] |= {"name": "Mały turniej II", "slug": "maly-turniej-2", "date": "2026-06-13"}
    for entry in data["players"]:
        if entry["id"] == entered_again_as:
            entry["last_name"] += "x"
            entry.pop("licence", None)
    return data


def league_of_two_evenings(entered_again_as: str | None = None) -> Season:
    season = SeasonFactory()
    for data in (load("small_puck"), second_evening(entered_again_as=entered_again_as)):
        import_tournament(data)
    Tournament.objects.update(season=season, **dict.fromkeys(PUBLISH_FIELDS, True))
    return season


def without_pks(value: Any) -> Any:
    """Standings or an export with the primary keys and the tournament's exchange id left out: the two
    databases number differently, and each import of a file without an id gives the tournament its own."""
    if isinstance(value, dict):
        return {key: without_pks(item) for key, item in value.items() if key not in ("pk", "tournament_id")}
    if isinstance(value, list):
        return [without_pks(item) for item in value]
    return value


def everything_published(season: Season) -> dict[str, Any]:
    """The tournaments' and the season's standings as the public site serves them (through the
    cache, so a merge the cache's stamp missed would show the split person still) and the exports."""
    tournaments = list(Tournament.objects.order_by("date"))
    season.refresh_from_db()
    return without_pks(
        {
            "tournaments": [tournament_rankings(tournament) for tournament in tournaments],
            "season": season_rankings(season),
            "exports": [export_tournament(tournament) for tournament in tournaments],
        }
    )


@pytest.mark.parametrize("duplicated", FILE_PLAYERS)
def test_after_a_merge_standings_seasons_and_exports_equal_those_of_one_player_all_along(
    duplicated,
):
    one_player = everything_published(league_of_two_evenings())
    Tournament.objects.all().delete()
    Player.objects.all().delete()

    season = league_of_two_evenings(entered_again_as=duplicated)
    first, again = Registration.objects.filter(external_id=duplicated).order_by("tournament__date")
    assert first.player != again.player  # the second evening made a second entry
    assert everything_published(season) != one_player  # and the season split the person in two

    services.player_merge(kept=first.player, merged=again.player, user=UserFactory(is_superuser=True), reason="x")

    assert everything_published(season) == one_player


# --- what a merge moves ---------------------------------------------------------------------


def test_a_merge_moves_registrations_seats_byes_teams_and_captaincy_and_logs_who_when_why():
    superuser = UserFactory(is_superuser=True)
    kept = PlayerFactory(first_name="Józef", last_name="Recław", licence="")
    merged = PlayerFactory(first_name="Jozef", last_name="Reclaw", licence="KASZ-7")
    series = drawn_series()
    registration = RegistrationFactory(tournament=series.tournament, player=merged)
    seat = TableAssignmentFactory(series=series, player=merged, table=9, seat="A")
    later = drawn_series(number=2, tournament=series.tournament)
    bye = ByeFactory(series=later, player=merged)
    team = TeamFactory(captain=merged)
    TeamMemberFactory(team=team, player=merged)

    preview = selectors.player_merge_preview(kept=kept, merged=merged)
    assert preview.conflicts == []
    assert {move.label: move.count for move in preview.moves} == {
        "teams": 1,  # as the captain
        "team members": 1,
        "registrations": 1,
        "seats at tables": 1,
        "byes": 1,
    }

    removal = services.player_merge(kept=kept, merged=merged, user=superuser, reason="wpisany dwa razy")

    assert not Player.objects.filter(pk=merged.pk).exists()
    for row in (registration, seat, bye, team):
        row.refresh_from_db()
    assert (registration.player, seat.player, bye.player, team.captain) == (kept, kept, kept, kept)
    assert list(team.members.all()) == [kept]
    kept.refresh_from_db()
    assert kept.licence == "KASZ-7"  # the licence only the second entry had stays with the person
    assert (removal.user, removal.reason, removal.merged_into, removal.player_pk) == (
        superuser,
        "wpisany dwa razy",
        kept,
        merged.pk,
    )
    assert removal.old["name"] == "Jozef Reclaw"
    assert removal.moved["registrations"] == 1


def test_a_team_both_entries_belong_to_keeps_one_membership():
    kept, merged = PlayerFactory(), PlayerFactory()
    team = TeamFactory()
    TeamMemberFactory(team=team, player=kept)
    TeamMemberFactory(team=team, player=merged)

    services.player_merge(kept=kept, merged=merged, user=UserFactory(is_superuser=True), reason="x")

    assert list(TeamMember.objects.values_list("team", "player")) == [(team.pk, kept.pk)]


def test_both_registered_for_one_tournament_is_refused_with_the_reason_and_nothing_changes():
    tournament = TournamentFactory(name="Puchar Wójta")
    kept = RegistrationFactory(tournament=tournament).player
    merged = RegistrationFactory(tournament=tournament).player

    with pytest.raises(ValidationError) as refused:
        services.player_merge(kept=kept, merged=merged, user=UserFactory(is_superuser=True), reason="x")

    assert "Puchar Wójta" in " ".join(refused.value.messages)
    assert Registration.objects.filter(player=merged).count() == 1
    assert not PlayerRemoval.objects.exists()


def test_two_different_active_teams_are_refused():
    kept, merged = PlayerFactory(), PlayerFactory()
    TeamMemberFactory(team=TeamFactory(name="Gryf"), player=kept)
    TeamMemberFactory(team=TeamFactory(name="Kaszëbë"), player=merged)

    with pytest.raises(ValidationError, match="Gryf"):
        services.player_merge(kept=kept, merged=merged, user=UserFactory(is_superuser=True), reason="x")
    assert Player.objects.filter(pk=merged.pk).exists()


def test_a_player_is_not_merged_with_themself():
    player = PlayerFactory()
    with pytest.raises(ValidationError):
        services.player_merge(kept=player, merged=player, user=UserFactory(is_superuser=True), reason="x")
    assert Player.objects.filter(pk=player.pk).exists()


def test_only_who_may_change_both_players_may_merge_them():
    mine, theirs = TournamentFactory(), TournamentFactory()
    organiser = organiser_of(mine)
    kept = RegistrationFactory(tournament=mine).player
    merged = RegistrationFactory(tournament=theirs).player

    with pytest.raises(PermissionDenied):
        services.player_merge(kept=kept, merged=merged, user=organiser, reason="x")
    assert Registration.objects.filter(player=merged).exists()

    theirs.organisers.add(organiser)
    services.player_merge(kept=kept, merged=merged, user=organiser, reason="x")
    assert Registration.objects.filter(player=kept).count() == 2


# --- deleting -------------------------------------------------------------------------------


def test_a_player_in_no_tournament_is_deleted_and_the_deletion_logged():
    user = UserFactory(is_superuser=True)
    player = PlayerFactory(first_name="Żaneta", last_name="Łęcka")

    services.player_delete(player=player, user=user, reason="pomyłka")

    assert not Player.objects.filter(pk=player.pk).exists()
    removal = PlayerRemoval.objects.get()
    assert (removal.user, removal.reason, removal.old["name"], removal.merged_into) == (
        user,
        "pomyłka",
        "Żaneta Łęcka",
        None,
    )


@pytest.mark.parametrize("holds", ["registration", "seat", "bye", "team"])
def test_a_player_with_a_registration_seat_bye_or_team_is_not_deleted(holds):
    player = PlayerFactory()
    series = drawn_series()
    if holds == "registration":
        RegistrationFactory(player=player)
    elif holds == "seat":
        TableAssignmentFactory(series=series, player=player, table=5, seat="B")
    elif holds == "bye":
        ByeFactory(series=series, player=player)
    else:
        TeamMemberFactory(team=TeamFactory(), player=player)

    with pytest.raises(ValidationError, match="Merge the player instead"):
        services.player_delete(player=player, user=UserFactory(is_superuser=True))

    assert Player.objects.filter(pk=player.pk).exists()
    assert not PlayerRemoval.objects.exists()


# --- the pages --------------------------------------------------------------------------------


def test_the_organiser_finds_the_other_entry_sees_what_moves_and_merges_from_the_player_page(client):
    tournament = TournamentFactory(name="Puchar Wójta")
    organiser = organiser_of(tournament)
    client.force_login(organiser)
    kept = PlayerFactory(first_name="Józef", last_name="Recław")
    merged = RegistrationFactory(
        tournament=tournament, player__first_name="Jozef", player__last_name="Reclaw", player__active=False
    ).player  # a second entry somebody retired: still found to be merged

    assert (
        reverse("players:player_merge", args=[kept.pk])
        in client.get(reverse("players:player_edit", args=[kept.pk])).content.decode()
    )
    url = reverse("players:player_merge", args=[kept.pk])
    found = client.get(url, {"q": "reclaw"}).content.decode()
    assert f"?inny={merged.pk}" in found
    preview = client.get(url, {"inny": merged.pk}).content.decode()
    assert "Registrations: 1" in preview and "Puchar Wójta" in preview

    response = client.post(url, {"other": merged.pk, "reason": "ta sama osoba"})

    assert response.url == reverse("players:player_edit", args=[kept.pk])
    assert tournament.registrations.get().player == kept
    assert PlayerRemoval.objects.get().reason == "ta sama osoba"


def test_the_merge_page_shows_the_conflict_and_offers_no_merge(client):
    tournament = TournamentFactory(name="Puchar Wójta")
    client.force_login(UserFactory(is_superuser=True))
    kept = RegistrationFactory(tournament=tournament).player
    merged = RegistrationFactory(tournament=tournament).player

    page = client.get(reverse("players:player_merge", args=[kept.pk]), {"inny": merged.pk}).content.decode()

    assert "Both are registered for Puchar Wójta" in page and 'name="reason"' not in page


def test_the_delete_page_deletes_after_confirmation_and_refuses_a_player_with_results(client):
    client.force_login(UserFactory(is_superuser=True))
    spare = PlayerFactory()
    playing = RegistrationFactory().player

    page = client.get(reverse("players:player_delete", args=[playing.pk])).content.decode()
    assert "cannot be deleted" in page and reverse("players:player_merge", args=[playing.pk]) in page
    client.post(reverse("players:player_delete", args=[playing.pk]))
    assert Player.objects.filter(pk=playing.pk).exists()

    response = client.post(reverse("players:player_delete", args=[spare.pk]), {"reason": "pomyłka"})
    assert response.url == reverse("players:player_list")
    assert not Player.objects.filter(pk=spare.pk).exists()


def test_an_organiser_may_not_open_the_merge_or_delete_page_of_someone_elses_player(client):
    client.force_login(organiser_of(TournamentFactory()))
    theirs = RegistrationFactory().player
    for name in ("players:player_merge", "players:player_delete"):
        assert client.get(reverse(name, args=[theirs.pk])).status_code == 403
    assert client.post(reverse("players:player_delete", args=[theirs.pk])).status_code == 403
    assert Player.objects.filter(pk=theirs.pk).exists()
