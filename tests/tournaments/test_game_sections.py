"""The tournament form shows each game's own settings under its heading, and a setting two games
read (the players at a table) once: one input, one id, one value posted (issue 39: with a third
game listing it too, a Preferans tournament for tables of three was stored as four)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.games import registered_games
from league.games.preferans.rules import Preferans
from league.tournaments.forms import TournamentForm

pytestmark = pytest.mark.django_db


class Trojka(Preferans):
    """A third game for the form alone: it reads the players at a table, as Preferans does."""

    key = "trojka"
    tournament_fields = ("table_size",)


@pytest.fixture
def three_games(monkeypatch):
    games = dict(registered_games()) | {"trojka": Trojka()}
    monkeypatch.setattr("league.tournaments.forms.registered_games", lambda: games)
    return games


def test_a_setting_two_games_read_is_shown_once_in_a_section_of_both(three_games):
    sections = {key: [field.name for field in fields] for key, _legend, fields in TournamentForm().sections()}
    assert sections["preferans trojka"] == ["table_size"]
    assert sections["preferans"] == ["pulka_variant", "pulka_total"]
    assert "trojka" not in sections  # it has no setting of its own left
    assert sections["baska"] == ["ruleset_preset", "own_ruleset", "deals_per_series"]


def test_the_organisers_page_holds_one_players_at_a_table_input(client, organiser, three_games):
    page = client.get(reverse("tournaments:create"), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert page.count('id="id_table_size"') == 1
    assert 'data-game="preferans trojka"' in page
