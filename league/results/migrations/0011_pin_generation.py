"""Issue 24: the PIN generation, under which the cache counts wrong PINs per phone and address."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("results", "0010_history_rows_share_a_base"),
    ]

    operations = [
        migrations.AddField(
            model_name="protocol",
            name="pin_generation",
            field=models.PositiveIntegerField(db_default=0, default=0, verbose_name="PIN generation"),
        ),
    ]
