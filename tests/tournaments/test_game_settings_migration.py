"""The migration to one value of a game's settings (league 0023) keeps every tournament's settings exactly."""

import itertools
from importlib import import_module

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

import scoring
from league.games import game_of
from league.games.baska.settings import BaskaSettings, tournament_ruleset
from league.games.plain.settings import PlainSettings
from league.games.preferans.settings import PreferansSettings
from league.models import Tournament
from tests.factories import game_settings

BEFORE = [("league", "0022_tournament_seeded_draw")]
migration = import_module("league.migrations.0023_tournament_game_settings")

OWN_COPY = scoring.ruleset_to_dict(scoring.load_ruleset("pomorska")) | {"name": "Pomorska klubu"}
# every value each column held that a game reads: presets, own copies, bounds of the numbers, variants
COMBINATIONS = list(
    itertools.product(
        ("baska", "preferans", "zero"),
        scoring.PRESETS,
        (None, OWN_COPY),
        (4, 40, 96),
        ("sochi", "leningrad"),
        (2, 20, 200),
    )
)


def columns(preset, data, deals, variant, total) -> dict:
    return {
        "ruleset_preset": preset,
        "ruleset_data": data,
        "deals_per_series": deals,
        "pulka_variant": variant,
        "pulka_total": total,
    }


# the columns each game read: what its settings keep, and give back on the way down
READ_BY = {
    "baska": ("ruleset_preset", "ruleset_data", "deals_per_series"),
    "zero": ("ruleset_preset", "ruleset_data", "deals_per_series"),  # a game of plain rows read Baśka's
    "preferans": ("ruleset_preset", "deals_per_series", "pulka_variant", "pulka_total"),
}
SETTINGS = {"baska": BaskaSettings, "zero": PlainSettings, "preferans": PreferansSettings}


@pytest.mark.parametrize("game", ["baska", "preferans", "zero"])
def test_every_combination_of_the_columns_is_read_by_the_game_and_comes_back_the_same_way_down(game):
    for _game, *values in (combination for combination in COMBINATIONS if combination[0] == game):
        stored = columns(*values)
        settings = migration.settings_of_columns(game, stored)
        read = SETTINGS[game].from_stored(settings)
        if game == "preferans":
            assert (read.pulka_variant, read.pulka_total) == (stored["pulka_variant"], stored["pulka_total"])
            assert (read.file_ruleset, read.file_deals_per_series) == (
                stored["ruleset_preset"],
                stored["deals_per_series"],
            )
        else:
            assert read.deals_per_series == stored["deals_per_series"]
        back = migration.columns_of_settings(game, settings)
        assert {name: back[name] for name in READ_BY[game]} == {name: stored[name] for name in READ_BY[game]}


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_tournaments_settings_as_its_game_reads_them():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("league", "Tournament")
    for number, (game, preset, data, deals, variant, total) in enumerate(COMBINATIONS):
        if game == "zero":
            continue  # a test game is installed only for its own tests; its mapping is checked above
        old.objects.create(
            name=f"Turniej {number}",
            slug=f"turniej-{number}",
            date="2026-05-01",
            game=game,
            table_size=3 if game == "preferans" and number % 2 else 4,
            **columns(preset, data, deals, variant, total),
        )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # past 0023, to the schema every other test expects
    stored = {tournament.slug: tournament for tournament in Tournament.objects.all()}
    for number, (game, preset, data, deals, variant, total) in enumerate(COMBINATIONS):
        if game == "zero":
            continue
        tournament = stored[f"turniej-{number}"]
        settings = game_settings(tournament)
        if game == "baska":
            assert (settings.ruleset_preset, settings.ruleset_data, settings.deals_per_series) == (preset, data, deals)
            assert tournament_ruleset(tournament).name == (data["name"] if data else scoring.load_ruleset(preset).name)
        else:
            assert (settings.pulka_variant, settings.pulka_total) == (variant, total)
            assert (settings.file_ruleset, settings.file_deals_per_series) == (preset, deals)
            assert tournament.table_size == (3 if number % 2 else 4)
            assert game_of(tournament).rules_name(tournament).endswith(f"pulka to {total}")
