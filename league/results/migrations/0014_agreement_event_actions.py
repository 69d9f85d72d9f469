"""The events of a table closed by the players' agreement and opened again are stored under names
of no game (issue 39): "pulka_closed" becomes "agreed_close", "pulka_open" "agreed_open"; back
down, the old names return. The exchange file carries no events, so no file changes."""

from django.db import migrations, models

RENAMED = {"pulka_closed": "agreed_close", "pulka_open": "agreed_open"}


def rename_actions(renames):
    def run(apps, schema_editor):
        events = apps.get_model("results", "ProtocolEvent")
        for old, new in renames.items():
            events.objects.filter(action=old).update(action=new)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("results", "0013_neutral_names_of_shared_columns"),
    ]

    operations = [
        migrations.AlterField(
            model_name="protocolevent",
            name="action",
            field=models.CharField(
                choices=[
                    ("totals", "totals on paper entered"),
                    ("completed", "marked complete"),
                    ("confirmed", "confirmed"),
                    ("reopened", "back to being entered"),
                    ("pin_renewed", "new PIN"),
                    ("unlocked", "PIN page unlocked"),
                    ("time_limit", "stopped by the time limit"),
                    ("agreed_close", "closed by agreement"),
                    ("agreed_open", "opened again"),
                ],
                max_length=12,
                verbose_name="action",
            ),
        ),
        migrations.RunPython(
            rename_actions(RENAMED), rename_actions({new: old for old, new in RENAMED.items()}), elidable=False
        ),
    ]
