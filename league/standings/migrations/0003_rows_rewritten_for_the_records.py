"""The records read the players' kept rows instead of the deals (issue 40), and they need where
each contract was won, which rows written before now do not keep (``tally["won_at"]``). Their stamp
is cleared so that the deploy's ``rebuild_statistics --stale`` (docker/entrypoint.sh) rewrites
them all from the deals, once; until then every page reads such a tournament afresh, as it does
any tournament whose rows are behind its stamp."""

from django.db import migrations


def rows_behind(apps, schema_editor):
    apps.get_model("standings", "PlayerResult").objects.update(stamp="")


class Migration(migrations.Migration):
    dependencies = [("standings", "0002_player_result_teams")]

    operations = [migrations.RunPython(rows_behind, migrations.RunPython.noop)]
