"""The test game installed for one test: in the settings, the registry and the URL conf, and out again after."""

import importlib

import pytest
from django.urls import clear_url_caches

from league.games import registered_games
from tests.games.plain_game.rules import ZERO

# The URL confs built from registered_games() at import time, each before the one including it.
URL_MODULES = ("league.results.referee.urls", "league.results.table.urls", "league.urls")


def urls_rebuilt() -> None:
    registered_games.cache_clear()
    for name in URL_MODULES:
        importlib.reload(importlib.import_module(name))
    clear_url_caches()


@pytest.fixture
def zero_game(settings):
    """The test game installed beside Baśka and Preferans, its pages in the URL conf; both undone after."""
    installed = settings.BASKA_GAMES
    settings.BASKA_GAMES = [*installed, "tests.games.plain_game.rules.ZERO"]
    urls_rebuilt()
    yield ZERO
    settings.BASKA_GAMES = installed
    urls_rebuilt()
