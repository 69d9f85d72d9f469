"""Referee penalties (kary sędziowskie): the services, the referee's screens and every ranking counting them."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from league.models import Series
from league.results.models import Penalty, PenaltyVersion
from league.results.penalties import services as penalties
from league.standings.cache import season_rankings, stamps, tournament_rankings
from league.standings.compute import tournament_standings
from players.models import Gender
from scoring import load_ruleset, ruleset_to_dict
from tests.factories import (
    ByeFactory,
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TournamentFactory,
    UserFactory,
    game_settings_set,
    played_series,
    register_teams,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee():
    return UserFactory(username="sedzia", first_name="Jan", last_name="Sędzia")


@pytest.fixture
def tournament(referee):
    """Two teams of four (Anna and Ewa the women of the first), one closed series of two tables."""
    tournament = TournamentFactory(name="Turniej o Puchar Wójta", team_ranking="sum")
    tournament.referees.add(referee)
    registrations = register_teams(tournament, teams=2)
    players = [r.player for r in registrations]
    for player, name in zip(players[:2], ("Anna", "Ewa"), strict=True):
        player.first_name, player.gender = name, Gender.WOMAN
        player.save()
    tables = [
        list(zip(players[:4], (30, 10, -10, -30), strict=True)),
        list(zip(players[4:], (20, 5, -5, -20), strict=True)),
    ]
    played_series(tournament, 1, tables)
    return tournament


def series_of(tournament, number=1):
    return Series.objects.get(tournament=tournament, number=number)


def player(tournament, index):
    return tournament.registrations.order_by("pk")[index].player


def entry(rows, pk):
    return next(row for row in rows if row["pk"] == pk)


def add(tournament, referee, who=0, small=-10, reason="wpis niezgodny z przebiegiem gry", **kwargs):
    return penalties.penalty_add(
        series=series_of(tournament),
        player=player(tournament, who),
        small_points=small,
        reason=reason,
        user=referee,
        **kwargs,
    )


# --- the services -----------------------------------------------------------------


def test_a_penalty_is_kept_with_its_version_and_counts_in_the_standings(tournament, referee):
    anna = player(tournament, 0)
    before = entry(tournament_standings(tournament)["individual"], anna.pk)["small_points"]

    penalty = add(tournament, referee)

    assert (penalty.small_points, penalty.big_points, penalty.reason) == (-10, 0, "wpis niezgodny z przebiegiem gry")
    version = PenaltyVersion.objects.get()
    assert (version.action, version.old, version.user, version.penalty_key) == ("add", None, referee, penalty.pk)
    assert version.new == {"small_points": -10, "big_points": 0, "reason": "wpis niezgodny z przebiegiem gry"}
    assert entry(tournament_standings(tournament)["individual"], anna.pk)["small_points"] == before - 10


def test_a_change_keeps_the_old_and_the_new_values_and_why(tournament, referee):
    penalty = add(tournament, referee)

    penalties.penalty_change(
        penalty=penalty, small_points=-20, reason="dwa złe wpisy", change_reason="druga pomyłka", user=referee
    )

    change = PenaltyVersion.objects.get(action="change")
    assert change.old["small_points"] == -10 and change.new == {
        "small_points": -20,
        "big_points": 0,
        "reason": "dwa złe wpisy",
    }
    assert change.reason == "druga pomyłka" and change.user == referee
    assert Penalty.objects.get().small_points == -20


def test_a_change_that_changes_nothing_is_not_a_version(tournament, referee):
    penalty = add(tournament, referee)
    penalties.penalty_change(
        penalty=penalty, small_points=-10, reason=penalty.reason, change_reason="bez zmian", user=referee
    )
    assert PenaltyVersion.objects.count() == 1


def test_a_removed_penalty_leaves_its_history_and_no_longer_counts(tournament, referee):
    anna = player(tournament, 0)
    before = entry(tournament_standings(tournament)["individual"], anna.pk)["small_points"]
    penalty = add(tournament, referee)

    penalties.penalty_remove(penalty=penalty, change_reason="pomyłka sędziego", user=referee)
    penalties.penalty_remove(penalty=penalty, change_reason="pomyłka sędziego", user=referee)  # sent again

    assert not Penalty.objects.exists()
    removal = PenaltyVersion.objects.get(action="delete")
    assert (removal.old["small_points"], removal.new, removal.penalty_key) == (-10, None, penalty.pk)
    assert entry(tournament_standings(tournament)["individual"], anna.pk)["small_points"] == before


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"small": 0}, "small_points", "give a number other than 0"),
        ({"reason": "  "}, "reason", "Give the reason for the penalty."),
        ({"big_points": Decimal("-1")}, "big_points", "allow penalties in small points only"),
        ({"who": "outsider"}, "player", "neither played nor had a bye in series 1"),
    ],
)
def test_a_refused_penalty_says_why_next_to_its_field_and_changes_nothing(tournament, referee, changes, field, message):
    if changes.pop("who", None):
        outsider = PlayerFactory()
        RegistrationFactory(tournament=tournament, player=outsider)
        changes["who"] = tournament.registrations.count() - 1
    with pytest.raises(ValidationError) as refusal:
        add(tournament, referee, **changes)
    assert message in " ".join(refusal.value.message_dict[field])
    assert not Penalty.objects.exists() and not PenaltyVersion.objects.exists()


def test_a_change_or_removal_needs_its_reason(tournament, referee):
    penalty = add(tournament, referee)
    with pytest.raises(ValidationError) as refusal:
        penalties.penalty_change(penalty=penalty, small_points=-5, reason="x", change_reason=" ", user=referee)
    assert "change_reason" in refusal.value.message_dict
    with pytest.raises(ValidationError):
        penalties.penalty_remove(penalty=penalty, change_reason="", user=referee)
    assert Penalty.objects.get().small_points == -10 and PenaltyVersion.objects.count() == 1


def test_the_same_penalty_sent_twice_within_a_minute_is_stored_once(tournament, referee):
    first = add(tournament, referee)
    assert add(tournament, referee) == first
    assert Penalty.objects.count() == 1 and PenaltyVersion.objects.count() == 1
    # another referee's, a different one, or the same a minute later: a penalty of its own
    add(tournament, UserFactory())
    add(tournament, referee, small=-5)
    PenaltyVersion.objects.filter(penalty_key=first.pk).update(created=first.created - timedelta(minutes=2))
    add(tournament, referee)
    assert Penalty.objects.count() == 4


def test_a_bye_player_may_be_penalised(tournament, referee):
    bye = PlayerFactory()
    RegistrationFactory(tournament=tournament, player=bye)
    ByeFactory(series=series_of(tournament), player=bye)
    penalties.penalty_add(series=series_of(tournament), player=bye, small_points=-3, reason="spóźnienie", user=referee)
    assert Penalty.objects.get().player == bye


def test_big_points_where_the_rules_allow_them(tournament, referee):
    rules = ruleset_to_dict(load_ruleset("puck")) | {"penalty_big_points": True}
    game_settings_set(tournament, ruleset_data=rules)
    tournament.save()
    anna = player(tournament, 0)
    before = entry(tournament_standings(tournament)["individual"], anna.pk)["big_points"]

    add(tournament, referee, small=0, big_points=Decimal("-1.5"))

    assert entry(tournament_standings(tournament)["individual"], anna.pk)["big_points"] == before - 1.5


# --- every ranking counts it --------------------------------------------------------


def test_the_public_standings_of_a_closed_series_move_at_once(tournament, referee):
    stamp = stamps(type(tournament).objects.filter(pk=tournament.pk))[tournament.pk]
    ewa, men = player(tournament, 1), player(tournament, 2)
    before = tournament_rankings(tournament)

    add(tournament, referee, who=1, small=-40)  # Ewa, second at her table, of the first team
    add(tournament, referee, who=2, small=15)  # a man of the first team, given points back

    assert stamps(type(tournament).objects.filter(pk=tournament.pk))[tournament.pk] != stamp
    after = tournament_rankings(tournament)

    def moved(ranking, pk):
        return entry(after[ranking], pk)["small_points"] - entry(before[ranking], pk)["small_points"]

    team = player(tournament, 0).registrations.get(tournament=tournament).team_id
    assert (moved("individual", ewa.pk), moved("women", ewa.pk), moved("men", men.pk), moved("teams", team)) == (
        -40,
        -40,
        15,
        -25,
    )


def test_a_season_counts_the_penalties_of_its_tournaments(tournament, referee):
    tournament.season = SeasonFactory()
    tournament.save()
    anna = player(tournament, 0)
    before = entry(season_rankings(tournament.season)["individual"], anna.pk)["small_points"]
    add(tournament, referee, small=-7)
    assert entry(season_rankings(tournament.season)["individual"], anna.pk)["small_points"] == before - 7


# --- the referee's screens ----------------------------------------------------------


def url(tournament, name, *args):
    return reverse(f"results:{name}", args=[tournament.slug, 1, *args])


@pytest.fixture
def signed_in(client, referee):
    client.force_login(referee)
    return client


def test_the_series_page_lists_the_penalties_and_adds_one(signed_in, tournament):
    anna = player(tournament, 0)
    page = url(tournament, "series")
    assert "No penalties in this series." in signed_in.get(page).content.decode()

    data = {"penalty-player": anna.pk, "penalty-small_points": "−10", "penalty-reason": "wpis niezgodny", "next": page}
    response = signed_in.post(url(tournament, "penalty_add"), data)
    signed_in.post(url(tournament, "penalty_add"), data)  # the double click

    assert response.status_code == 302 and response["Location"] == page
    assert Penalty.objects.get().small_points == -10
    html = signed_in.get(page).content.decode()
    assert anna.full_name in html and "−10" in html and "wpis niezgodny" in html and "Jan Sędzia" in html
    assert 'name="penalty-big_points"' not in html  # puck allows small points only


def test_the_protocol_page_offers_the_players_of_its_table_only(signed_in, tournament):
    html = signed_in.get(url(tournament, "protocol", 2)).content.decode()
    assert 'id="penalties"' in html
    assert f'value="{player(tournament, 4).pk}"' in html and f'value="{player(tournament, 0).pk}"' not in html

    response = signed_in.post(
        url(tournament, "table_penalty_add", 2),
        {"penalty-player": player(tournament, 0).pk, "penalty-small_points": -5, "penalty-reason": "x"},
    )

    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not Penalty.objects.exists()


def test_a_refused_penalty_is_shown_again_with_the_error_in_polish_next_to_the_field(signed_in, tournament):
    data = {"penalty-player": player(tournament, 0).pk, "penalty-small_points": "0", "penalty-reason": "brak"}
    response = signed_in.post(url(tournament, "penalty_add"), data, HTTP_ACCEPT_LANGUAGE="pl")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Kara zmienia małe lub duże punkty" in html
    assert html.index("Kara zmienia") > html.index('name="penalty-small_points"')  # under its field
    assert not Penalty.objects.exists()


def test_a_penalty_is_changed_and_removed_with_reasons_and_shows_in_the_tables_history(signed_in, tournament, referee):
    penalty = add(tournament, referee)
    edit = url(tournament, "penalty", penalty.pk)
    assert signed_in.get(edit).status_code == 200

    refused = signed_in.post(edit, {"small_points": -20, "reason": "dwa wpisy", "change_reason": ""})
    assert "This field is required." in refused.content.decode()
    signed_in.post(edit, {"small_points": -20, "reason": "dwa wpisy", "change_reason": "druga pomyłka"})
    assert Penalty.objects.get().small_points == -20

    remove = url(tournament, "penalty_remove", penalty.pk)
    assert signed_in.post(remove, {"remove-change_reason": "pomyłka sędziego"}).status_code == 302
    again = signed_in.post(remove, {"remove-change_reason": "pomyłka sędziego"}, follow=True)
    assert "The penalty was removed already." in again.content.decode()
    assert not Penalty.objects.exists()

    history = signed_in.get(url(tournament, "history", 1)).content.decode()
    for text in ("druga pomyłka", "pomyłka sędziego", "−20", "deleted", "changed", "added"):
        assert text in history


@pytest.mark.parametrize("who", ["visitor", "another tournament's referee"])
def test_only_the_tournaments_referees_touch_its_penalties(client, tournament, referee, who):
    penalty = add(tournament, referee)
    if who != "visitor":
        stranger = UserFactory()
        TournamentFactory().referees.add(stranger)
        client.force_login(stranger)
    new = {"penalty-player": player(tournament, 1).pk, "penalty-small_points": -5, "penalty-reason": "x"}
    answers = [
        client.post(url(tournament, "penalty_add"), new),
        client.post(url(tournament, "penalty", penalty.pk), {"small_points": -1, "reason": "x", "change_reason": "y"}),
        client.post(url(tournament, "penalty_remove", penalty.pk), {"remove-change_reason": "y"}),
    ]
    expected = 302 if who == "visitor" else 403
    assert [a.status_code for a in answers] == [expected] * 3
    if who == "visitor":
        assert all("/login" in a["Location"] or "logowanie" in a["Location"] for a in answers)
    assert list(Penalty.objects.values_list("small_points", flat=True)) == [-10]
    assert PenaltyVersion.objects.count() == 1


@pytest.mark.parametrize(
    ("gender", "said"), [("F", "nie grała w serii 1 ani nie miała"), ("M", "nie grał w serii 1 ani nie miał")]
)
def test_a_penalty_for_a_player_outside_the_series_is_refused_with_the_verb_of_their_gender(
    tournament, referee, gender, said
):
    outsider = PlayerFactory(gender=gender)
    RegistrationFactory(tournament=tournament, player=outsider)
    with translation.override("pl"), pytest.raises(ValidationError) as refusal:
        add(tournament, referee, who=tournament.registrations.count() - 1)
    assert said in " ".join(refusal.value.message_dict["player"])
