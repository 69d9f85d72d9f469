import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("printing", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="printjob",
            name="updated",
            field=models.DateTimeField(default=django.utils.timezone.now, verbose_name="last progress"),
        ),
    ]
