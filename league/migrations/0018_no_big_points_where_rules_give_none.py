"""Untick "big points" on Baśka tournaments whose rules give none for the places at a table (the
psb preset and copies of it): ranked by them, every list opened with a column of zeros."""

from django.db import migrations

import scoring


def rules_give_big_points(tournament) -> bool:
    if tournament.own_ruleset_id:
        data = tournament.own_ruleset.data
    elif tournament.ruleset_data:
        data = tournament.ruleset_data
    else:
        return bool(scoring.load_ruleset(tournament.ruleset_preset).placement.points)
    return bool(scoring.parse_ruleset(data).placement.points)


def untick(apps, schema_editor):
    Tournament = apps.get_model("league", "Tournament")
    chosen = Tournament.objects.filter(game="baska", uses_big_points=True).select_related("own_ruleset")
    none = [tournament.pk for tournament in chosen if not rules_give_big_points(tournament)]
    Tournament.objects.filter(pk__in=none).update(uses_big_points=False)


class Migration(migrations.Migration):
    dependencies = [("league", "0017_draw_log_undo"), ("rulesets", "0001_initial")]

    operations = [migrations.RunPython(untick, migrations.RunPython.noop)]
