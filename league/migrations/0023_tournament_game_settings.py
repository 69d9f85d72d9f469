"""A game's own settings become one value, ``Tournament.game_settings``: Baśka's rules preset, own
copy and deals per series, Preferans' pulka variant and total move there from their columns, each
tournament's exactly (``settings_of_columns``); the players at a table stay a column of every game."""

from typing import Any

from django.db import migrations, models

# The columns that become settings, as 0022 left them.
COLUMNS = ("ruleset_preset", "ruleset_data", "deals_per_series", "pulka_variant", "pulka_total")
# What a tournament of another game gets back on the way down for a column its settings lack: the
# columns' defaults (the rules column had none; every tournament had to fill it, a Preferans one with the general preset).
COLUMN_DEFAULTS = {
    "ruleset_preset": "psb",
    "ruleset_data": None,
    "deals_per_series": 40,
    "pulka_variant": "sochi",
    "pulka_total": 20,
}


def settings_of_columns(game: str, columns: dict[str, Any]) -> dict[str, Any]:
    """A tournament's ``game_settings`` from its columns (``COLUMNS``), as its game's settings class
    reads them (league/games/<game>/settings.py). A Preferans tournament keeps the rules preset and
    deals per series the exchange format asks every file for, so its file stays the same; a game
    other than these two (a plain-rows game) read Baśka's columns, and keeps them."""
    if game == "preferans":
        return {
            "pulka_variant": columns["pulka_variant"],
            "pulka_total": columns["pulka_total"],
            "file_ruleset": columns["ruleset_preset"],
            "file_deals_per_series": columns["deals_per_series"],
        }
    return {name: columns[name] for name in ("ruleset_preset", "ruleset_data", "deals_per_series")}


def columns_of_settings(game: str, settings: dict[str, Any]) -> dict[str, Any]:
    """The inverse of ``settings_of_columns``: the columns back, their defaults where the settings lack one."""
    if game == "preferans":
        settings = {
            **settings,
            "ruleset_preset": settings.get("file_ruleset", COLUMN_DEFAULTS["ruleset_preset"]),
            "deals_per_series": settings.get("file_deals_per_series", COLUMN_DEFAULTS["deals_per_series"]),
        }
    return {name: settings.get(name, default) for name, default in COLUMN_DEFAULTS.items()}


def columns_to_settings(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("league", "Tournament")
    tournaments = list(Tournament.objects.only("game", *COLUMNS))
    for tournament in tournaments:
        columns = {name: getattr(tournament, name) for name in COLUMNS}
        tournament.game_settings = settings_of_columns(tournament.game, columns)
    Tournament.objects.bulk_update(tournaments, ["game_settings"], batch_size=500)


def settings_to_columns(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("league", "Tournament")
    tournaments = list(Tournament.objects.only("game", "game_settings"))
    for tournament in tournaments:
        for name, value in columns_of_settings(tournament.game, tournament.game_settings).items():
            setattr(tournament, name, value)
    Tournament.objects.bulk_update(tournaments, list(COLUMNS), batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0022_tournament_seeded_draw"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="game_settings",
            field=models.JSONField(blank=True, default=dict, verbose_name="the game's settings"),
        ),
        # on the way down the rules column is filled before it is required again
        migrations.AlterField(
            model_name="tournament",
            name="ruleset_preset",
            field=models.CharField(blank=True, default="psb", max_length=20, verbose_name="rules"),
        ),
        migrations.RunPython(columns_to_settings, settings_to_columns),
        migrations.RemoveConstraint(model_name="tournament", name="league_tournament_baska_tables_of_four"),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("table_size__in", (3, 4))),
                name="league_tournament_tables_of_three_or_four",
                violation_error_message="A table seats three or four players.",
            ),
        ),
        migrations.RemoveField(model_name="tournament", name="ruleset_preset"),
        migrations.RemoveField(model_name="tournament", name="ruleset_data"),
        migrations.RemoveField(model_name="tournament", name="deals_per_series"),
        migrations.RemoveField(model_name="tournament", name="pulka_variant"),
        migrations.RemoveField(model_name="tournament", name="pulka_total"),
    ]
