"""The organiser changes a tournament's settings, archives it or deletes it, on the app's own screens."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.games.baska.settings import own_ruleset_of, own_ruleset_set, tournament_ruleset
from league.models import Registration, Series, Tournament
from league.tournaments import services
from league.tournaments.forms import TournamentForm
from players.models import Player
from tests.factories import (
    OwnRulesetFactory,
    RegistrationFactory,
    SeasonFactory,
    SeriesFactory,
    UserFactory,
    drawn_series,
    game_settings,
    game_settings_set,
    played_series,
    tournament_form_data,
)

pytestmark = pytest.mark.django_db


def settings_of(tournament, **changes) -> dict:
    """What the settings screen posts back for ``tournament`` unchanged, with ``changes``."""
    stored = {
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "ruleset_preset": game_settings(tournament).ruleset_preset,
        "series_count": tournament.series_count,
        "deals_per_series": game_settings(tournament).deals_per_series,
    }
    return tournament_form_data(**{**stored, **changes})


def played(tournament):
    """Series 1 of ``tournament`` with one deal entered at its one table."""
    players = [RegistrationFactory(tournament=tournament).player for _ in range(4)]
    return played_series(tournament, 1, [list(zip(players, (30, 10, -10, -30), strict=True))], status="in_play")


def test_the_tournament_page_leads_to_its_settings(client, tournament):
    page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    assert reverse("tournaments:update", args=[tournament.slug]) in page


def test_an_organiser_changes_the_name_venue_and_time_limit(client, tournament):
    url = reverse("tournaments:update", args=[tournament.slug])
    response = client.post(
        url, settings_of(tournament, name="Puchar Sołtysa", venue="Władysławowo", time_limit_minutes=50)
    )
    assert response.url == reverse("tournaments:detail", args=[tournament.slug])
    tournament.refresh_from_db()
    assert (tournament.name, tournament.venue, tournament.time_limit_minutes) == ("Puchar Sołtysa", "Władysławowo", 50)


def test_the_rules_change_while_no_deal_is_played(client, tournament):
    drawn_series(tournament)
    client.post(
        reverse("tournaments:update", args=[tournament.slug]),
        settings_of(tournament, ruleset_preset="gorzow", deals_per_series=20),
    )
    tournament.refresh_from_db()
    assert (game_settings(tournament).ruleset_preset, game_settings(tournament).deals_per_series) == ("gorzow", 20)


def test_a_new_preset_replaces_the_own_copy_of_the_old_one(tournament):
    game_settings_set(tournament, ruleset_data={"id": "own"})
    tournament.save()
    changed = services.tournament_update(tournament=tournament, ruleset_preset="gorzow")
    assert game_settings(changed).ruleset_data is None
    assert tournament_ruleset(changed).id == "gorzow"


def test_once_a_deal_is_played_the_rules_are_refused_and_stay(tournament):
    played(tournament)
    with pytest.raises(ValidationError, match="Deals have been played"):
        services.tournament_update(tournament=tournament, ruleset_preset="gorzow")
    with pytest.raises(ValidationError, match="Deals have been played"):
        services.tournament_update(tournament=tournament, deals_per_series=20)
    tournament.refresh_from_db()
    assert (game_settings(tournament).ruleset_preset, game_settings(tournament).deals_per_series) == ("puck", 40)


def test_once_a_deal_is_played_the_settings_screen_keeps_the_rules_and_saves_the_rest(client, tournament):
    played(tournament)
    url = reverse("tournaments:update", args=[tournament.slug])
    assert "Deals have been played" in client.get(url).content.decode()
    client.post(url, settings_of(tournament, ruleset_preset="gorzow", deals_per_series=20, venue="Hel"))
    tournament.refresh_from_db()
    settings = game_settings(tournament)
    assert (settings.ruleset_preset, settings.deals_per_series, tournament.venue) == ("puck", 40, "Hel")


def test_fewer_series_than_the_last_drawn_one_are_refused_with_its_number(client, tournament):
    drawn_series(tournament, number=1)
    drawn_series(tournament, number=2)
    response = client.post(
        reverse("tournaments:update", args=[tournament.slug]), settings_of(tournament, series_count=1)
    )
    assert response.status_code == 200
    assert "Series 2 has been drawn: the tournament needs at least 2 series." in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).series_count == 2
    assert tournament.series.count() == 2


def test_more_series_are_planned_at_once(client, tournament):
    drawn_series(tournament, number=1)
    client.post(reverse("tournaments:update", args=[tournament.slug]), settings_of(tournament, series_count=4))
    assert list(tournament.series.values_list("number", "status")) == [
        (1, "drawn"),
        (2, "planned"),
        (3, "planned"),
        (4, "planned"),
    ]


def test_fewer_series_drop_the_planned_ones_beyond_the_count(client, tournament):
    drawn_series(tournament, number=1)
    SeriesFactory(tournament=tournament, number=2, status="planned")
    client.post(reverse("tournaments:update", args=[tournament.slug]), settings_of(tournament, series_count=1))
    assert list(tournament.series.values_list("number", flat=True)) == [1]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("series_count", 13, "Enter a whole number from 1 to 12."),
        ("deals_per_series", 3, "Enter a whole number from 4 to 96."),
        ("time_limit_minutes", 300, "Enter a whole number from 10 to 240."),
    ],
)
def test_numbers_out_of_bounds_are_refused_with_the_one_message(client, tournament, field, value, message):
    before = Tournament.objects.filter(pk=tournament.pk).values().get()
    response = client.post(
        reverse("tournaments:update", args=[tournament.slug]), settings_of(tournament, **{field: value})
    )
    assert message in response.content.decode()
    assert Tournament.objects.filter(pk=tournament.pk).values().get() == before


def test_an_undrawn_tournament_is_deleted_after_the_organiser_confirms(client, tournament):
    registration = RegistrationFactory(tournament=tournament)
    url = reverse("tournaments:delete", args=[tournament.slug])
    assert "Yes, delete the tournament" in client.get(url).content.decode()
    assert Tournament.objects.filter(pk=tournament.pk).exists()

    response = client.post(url)
    assert response.url == reverse("tournaments:list")
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Registration.objects.filter(pk=registration.pk).exists()
    assert Player.objects.filter(pk=registration.player_id).exists()


def test_a_drawn_tournament_cannot_be_deleted(client, tournament):
    drawn_series(tournament)
    url = reverse("tournaments:delete", args=[tournament.slug])
    assert "Yes, delete the tournament" not in client.get(url).content.decode()
    response = client.post(url, follow=True)
    assert "can no longer be deleted" in response.content.decode()
    assert Series.objects.filter(tournament=tournament).exists()


def test_an_archived_tournament_leaves_the_active_lists_and_its_results_stay_readable(client, tournament):
    tournament.draw_published = True
    tournament.save()
    played(tournament)
    client.post(reverse("tournaments:archive", args=[tournament.slug]))

    mine = client.get(reverse("tournaments:list")).context
    assert [row[0] for row in mine["rows"]] == []
    assert [row[0] for row in mine["archived_rows"]] == [tournament]
    assert tournament.name not in client.get(reverse("home")).content.decode()
    assert client.get(reverse("public:standings", args=[tournament.slug])).status_code == 200
    assert client.get(reverse("public:series", args=[tournament.slug, 1])).status_code == 200

    client.post(reverse("tournaments:archive", args=[tournament.slug]))
    assert tournament.name in client.get(reverse("home")).content.decode()


# --- own rules ("Własne zasady") and seasons in the tournament form -------------------------------


def own_rules_of(user, *, zolo_base: int = 7, **fields):
    """An own ruleset of ``user``: psb with zolo worth ``zolo_base``."""
    own = OwnRulesetFactory(owner=user, **fields)
    own.data["contracts"]["zolo"]["base"] = zolo_base
    own.save()
    return own


def test_the_form_offers_my_own_rules_and_never_another_organisers(client, organiser):
    mine = own_rules_of(organiser, name="Moje zasady")
    theirs = own_rules_of(UserFactory(), name="Zasady sąsiada")
    choices = TournamentForm(user=organiser).fields["own_ruleset"].queryset
    assert list(choices) == [mine]
    response = client.post(reverse("tournaments:create"), tournament_form_data(own_ruleset=theirs.pk))
    assert "own_ruleset" in response.context["form"].errors
    assert not Tournament.objects.exists()


def test_own_rules_chosen_replace_the_preset(client, organiser):
    own = own_rules_of(organiser)
    client.post(reverse("tournaments:create"), tournament_form_data(ruleset_preset="puck", own_ruleset=own.pk))
    tournament = Tournament.objects.get()
    assert (own_ruleset_of(tournament), game_settings(tournament).ruleset_preset) == (own, "psb")
    assert tournament_ruleset(tournament).contract("zolo").base == 7


def test_the_settings_keep_offering_the_own_rules_already_chosen_by_another_organiser(organiser, tournament):
    theirs = own_rules_of(UserFactory())
    own_ruleset_set(tournament=tournament, ruleset=theirs)
    assert theirs in TournamentForm(instance=tournament, user=organiser).fields["own_ruleset"].queryset


def test_once_a_deal_is_played_the_own_rules_stay(client, organiser, tournament):
    played(tournament)
    own = own_rules_of(organiser)
    url = reverse("tournaments:update", args=[tournament.slug])
    client.post(url, settings_of(tournament, own_ruleset=own.pk, venue="Hel"))
    tournament.refresh_from_db()
    assert (own_ruleset_of(tournament), tournament.venue) == (None, "Hel")
    with pytest.raises(ValidationError, match="Deals have been played"):
        services.tournament_update(tournament=tournament, own_ruleset=own)


@pytest.mark.parametrize(
    ("deals", "refused"),
    [(40, False), (20, False), (30, True), (42, True)],
)
def test_rules_that_play_multiples_of_four_refuse_other_deal_counts(client, organiser, deals, refused):
    own = own_rules_of(organiser)
    assert own.ruleset().deals_multiple == 4
    response = client.post(
        reverse("tournaments:create"),
        tournament_form_data(own_ruleset=own.pk, deals_per_series=deals),
        headers={"Accept-Language": "pl"},
    )
    assert Tournament.objects.exists() is not refused
    if refused:
        assert response.context["form"].errors["deals_per_series"] == [
            "Przy tych zasadach liczba rozdań w serii musi być wielokrotnością 4."
        ]


def test_a_preset_that_plays_any_number_of_deals_takes_30(client, organiser):
    client.post(reverse("tournaments:create"), tournament_form_data(ruleset_preset="puck", deals_per_series=30))
    assert game_settings(Tournament.objects.get()).deals_per_series == 30


def test_the_season_choices_are_the_seasons_i_organise_and_the_one_already_set(organiser, tournament):
    mine, theirs, set_before = SeasonFactory(), SeasonFactory(), SeasonFactory()
    mine.organisers.add(organiser)
    tournament.season = set_before
    tournament.save()
    seasons = set(TournamentForm(instance=tournament, user=organiser).fields["season"].queryset)
    assert seasons == {mine, set_before}
    assert theirs not in seasons


def test_a_superuser_may_pick_any_season(tournament):
    seasons = [SeasonFactory(), SeasonFactory()]
    admin = UserFactory(is_superuser=True)
    assert set(TournamentForm(instance=tournament, user=admin).fields["season"].queryset) == set(seasons)


def test_a_tournament_needs_a_preset_or_own_rules(client, organiser):
    response = client.post(reverse("tournaments:create"), tournament_form_data(ruleset_preset=""))
    assert response.context["form"].errors["ruleset_preset"] == ["Choose the rules: a preset or your own."]
    assert not Tournament.objects.exists()


def test_big_points_ticked_by_default_follow_rules_that_give_none(client, organiser):
    client.post(reverse("tournaments:create"), tournament_form_data(ruleset_preset="psb", uses_big_points="on"))
    client.post(reverse("tournaments:create"), tournament_form_data(name="Puck", uses_big_points="on"))
    ticked = {
        game_settings(tournament).ruleset_preset: tournament.uses_big_points for tournament in Tournament.objects.all()
    }
    assert ticked == {"psb": False, "puck": True}


def test_big_points_ticked_under_rules_that_give_none_are_refused_saying_what_the_rules_do_instead(client, organiser):
    client.post(reverse("tournaments:create"), tournament_form_data(ruleset_preset="psb"))
    tournament = Tournament.objects.get()
    response = client.post(
        reverse("tournaments:update", args=[tournament.slug]),
        tournament_form_data(ruleset_preset="psb", uses_big_points="on"),
        headers={"Accept-Language": "pl"},
    )
    [message] = response.context["form"].errors["uses_big_points"]
    assert "„Baśka z asem (przepisy ogólne)” nie dają dużych punktów za miejsca przy stoliku" in message
    assert "według małych punktów" in message and "psb" not in message
    tournament.refresh_from_db()
    assert not tournament.uses_big_points


def test_the_migration_unticks_big_points_only_where_the_rules_give_none():
    from importlib import import_module
    from types import SimpleNamespace

    migration = import_module("league.migrations.0018_no_big_points_where_rules_give_none")
    psb = SimpleNamespace(own_ruleset_id=None, ruleset_data=None, ruleset_preset="psb")
    puck = SimpleNamespace(own_ruleset_id=None, ruleset_data=None, ruleset_preset="puck")
    assert (migration.rules_give_big_points(psb), migration.rules_give_big_points(puck)) == (False, True)
