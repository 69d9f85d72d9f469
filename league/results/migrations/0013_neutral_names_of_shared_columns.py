"""The columns every game's rows and protocols share take names of no game (issue 39): a row the
game counts multiplied (``doubled``, Baśka's bok round) and a table closed by the players'
agreement (``closed_by_agreement``, Preferans' pulka). Renames only: PostgreSQL renames a column
without rewriting the table, so the biggest table (the deals) is not copied."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("results", "0012_table_token"),
    ]

    operations = [
        migrations.RenameField(model_name="dealrow", old_name="bok_round", new_name="doubled"),
        migrations.AlterField(
            model_name="dealrow",
            name="doubled",
            field=models.BooleanField(default=False, verbose_name="counted with a multiplier"),
        ),
        migrations.RenameField(model_name="protocol", old_name="pulka_closed", new_name="closed_by_agreement"),
        migrations.AlterField(
            model_name="protocol",
            name="closed_by_agreement",
            field=models.BooleanField(db_default=False, default=False, verbose_name="closed by agreement"),
        ),
    ]
