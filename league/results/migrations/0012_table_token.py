"""Issue 24: the token in a table's link (the printed QR code's door) and the count of wrong PINs at its short address."""

import league.results.models
from django.db import migrations, models


def give_each_table_its_own_token(apps, schema_editor):
    """Adding the column left every existing protocol without a token: draw a token per protocol."""
    Protocol = apps.get_model("results", "Protocol")
    protocols = list(Protocol.objects.only("pk"))
    for protocol in protocols:
        protocol.table_token = league.results.models.new_table_token()
    Protocol.objects.bulk_update(protocols, ["table_token"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("results", "0011_pin_generation"),
    ]

    operations = [
        migrations.AddField(
            model_name="protocol",
            name="hand_wrong_pins",
            field=models.PositiveSmallIntegerField(
                db_default=0, default=0, verbose_name="wrong PINs at the short address since the last unlock"
            ),
        ),
        migrations.AddField(
            model_name="protocol",
            name="table_token",
            field=models.CharField(
                db_default="", default=league.results.models.new_table_token, max_length=32, verbose_name="table token"
            ),
        ),
        migrations.RunPython(give_each_table_its_own_token, migrations.RunPython.noop),
    ]
