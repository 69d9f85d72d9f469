"""The tournament form chooses the game: Baśka, or Preferans with its pulka and tables of 4 or 3."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from league.games.preferans.settings import PreferansSettings
from league.models import Tournament
from league.tournaments.services import tournament_update
from tests.factories import PreferansTournamentFactory, drawn_series, game_settings

pytestmark = pytest.mark.django_db

PREFERANS = {
    "game": "preferans",
    "name": "Wieczór preferansa",
    "date": "2026-04-18",
    "pulka_variant": "leningrad",
    "pulka_total": 20,
    "table_size": 3,
    "series_count": 3,
    "deals_per_series": 40,
    "team_ranking": "sum",
    "team_best_of": 3,
    "uses_big_points": "on",
}


def create(client, **changes):
    return client.post(reverse("tournaments:create"), PREFERANS | changes, HTTP_ACCEPT_LANGUAGE="pl")


def test_an_organiser_creates_a_preferans_evening_without_any_baska_rules(client, organiser):
    response = create(client)
    tournament = Tournament.objects.get(slug="wieczor-preferansa")
    assert response.url == tournament.get_absolute_url()
    settings = game_settings(tournament)
    assert (tournament.game, settings.pulka_variant, settings.pulka_total, tournament.table_size) == (
        "preferans",
        "leningrad",
        20,
        3,
    )
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Leningrad" in page and "pulka" in page


def test_the_form_puts_each_games_settings_under_its_own_heading_for_the_script(client, organiser):
    page = client.get(reverse("tournaments:create")).content.decode()
    assert page.index('name="game"') < page.index('name="name"')
    baska, preferans = page.index('data-game="baska"'), page.index('data-game="preferans"')
    assert baska < page.index('name="deals_per_series"') < preferans < page.index('name="pulka_total"')
    assert "js/tournament-form.js" in page


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"game": "baska", "ruleset_preset": "puck"}, "table_size", "Stoły trzyosobowe"),
        ({"pulka_total": 1}, "pulka_total", "2"),
        ({"pulka_total": 201}, "pulka_total", "200"),
    ],
)
def test_refused_settings_are_named_in_polish(client, organiser, changes, field, message):
    response = create(client, **changes)
    assert response.status_code == 200
    with translation.override("pl"):
        assert message in response.context["form"].errors[field][0]
    assert not Tournament.objects.exists()


def test_the_game_and_table_size_cannot_change_once_a_series_is_drawn(client, organiser):
    tournament = PreferansTournamentFactory()
    tournament.organisers.add(organiser)
    drawn_series(tournament)
    url = reverse("tournaments:update", args=[tournament.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    client.post(url, PREFERANS | {"name": tournament.name, "game": "baska", "table_size": 4, "ruleset_preset": "puck"})
    assert "Stoły zostały już rozlosowane: tego nie można już zmienić." in page
    tournament.refresh_from_db()
    assert (tournament.game, tournament.table_size) == ("preferans", 4)


def test_the_service_refuses_a_new_game_after_the_draw_even_without_the_form():
    tournament = PreferansTournamentFactory()
    drawn_series(tournament)
    with translation.override("pl"), pytest.raises(ValidationError) as error:
        tournament_update(tournament=tournament, game="baska")
    assert "gry i liczby graczy przy stole nie można już zmienić" in error.value.messages[0]


def test_the_service_refuses_baska_at_tables_of_three_even_without_the_form(tournament):
    with translation.override("pl"), pytest.raises(ValidationError) as error:
        tournament_update(tournament=tournament, table_size=3)
    assert error.value.message_dict["table_size"] == ["Gra Baśka nie dopuszcza stolików 3-osobowych."]
    tournament.refresh_from_db()
    assert tournament.table_size == 4


def test_the_list_names_the_game_and_the_rules(client, organiser):
    tournament = PreferansTournamentFactory(pulka_total=30)
    tournament.organisers.add(organiser)
    page = client.get(reverse("tournaments:list")).content.decode()
    assert "Preferans, Sochi (with help), pulka to 30" in page


def test_a_preferans_evening_keeps_none_of_the_baska_settings_an_older_page_posts(client, organiser):
    create(client, ruleset_preset="gorzow", deals_per_series=24, own_ruleset="")
    tournament = Tournament.objects.get(slug="wieczor-preferansa")
    assert game_settings(tournament) == PreferansSettings(pulka_variant="leningrad", pulka_total=20)
    assert set(tournament.game_settings) == set(PreferansSettings.names())


def test_a_baska_tournament_changed_to_preferans_before_its_draw_keeps_only_the_pulka(client, organiser, tournament):
    response = client.post(reverse("tournaments:update", args=[tournament.slug]), PREFERANS | {"name": tournament.name})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.game, game_settings(tournament)) == (
        "preferans",
        PreferansSettings(pulka_variant="leningrad", pulka_total=20),
    )
