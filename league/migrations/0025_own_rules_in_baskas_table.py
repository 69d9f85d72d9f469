"""Baśka's own rules a tournament plays by move from the shared ``Tournament.own_ruleset`` column to
a row of Baśka's own table (``rulesets.TournamentOwnRuleset``, made by rulesets 0003), which keeps the
database's refusal to delete rules a tournament plays by; every tournament's choice is copied there
(and back on the way down) before the column goes."""

from typing import Any

from django.db import migrations


def column_to_rows(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("league", "Tournament")
    TournamentOwnRuleset = apps.get_model("rulesets", "TournamentOwnRuleset")
    chosen = Tournament.objects.filter(own_ruleset__isnull=False).values_list("pk", "own_ruleset_id")
    TournamentOwnRuleset.objects.bulk_create(
        (TournamentOwnRuleset(tournament_id=pk, ruleset_id=ruleset) for pk, ruleset in chosen.iterator()),
        batch_size=500,
    )


def rows_to_column(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("league", "Tournament")
    TournamentOwnRuleset = apps.get_model("rulesets", "TournamentOwnRuleset")
    tournaments = []
    for pk, ruleset in TournamentOwnRuleset.objects.values_list("tournament_id", "ruleset_id").iterator():
        tournaments.append(Tournament(pk=pk, own_ruleset_id=ruleset))
    Tournament.objects.bulk_update(tournaments, ["own_ruleset"], batch_size=500)
    TournamentOwnRuleset.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0024_tournament_game_no_default"),
        ("rulesets", "0003_tournament_own_rules"),
    ]

    operations = [
        migrations.RunPython(column_to_rows, rows_to_column),
        migrations.RemoveField(model_name="tournament", name="own_ruleset"),
    ]
