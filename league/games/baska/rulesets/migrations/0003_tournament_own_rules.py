"""Baśka's table of the own rules each tournament plays by (``TournamentOwnRuleset``), which takes
them over from the shared ``Tournament.own_ruleset`` column: league 0025 copies them here and drops it."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0024_tournament_game_no_default"),
        ("rulesets", "0002_history_rows_share_a_base"),
    ]

    operations = [
        migrations.CreateModel(
            name="TournamentOwnRuleset",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "ruleset",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="played_by",
                        to="rulesets.ownruleset",
                        verbose_name="own rules",
                    ),
                ),
                (
                    "tournament",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="own_rules",
                        to="league.tournament",
                        verbose_name="tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "own rules of a tournament",
                "verbose_name_plural": "own rules of tournaments",
            },
        ),
    ]
