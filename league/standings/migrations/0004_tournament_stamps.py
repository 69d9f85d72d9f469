"""The standings' stamp stored per tournament (issue 40) instead of read by a scan. No row is
written here: a tournament no change has touched has the stamp "0", so every kept result
(``PlayerResult``, under the scanned stamp) is behind until the deploy's ``rebuild_statistics
--stale`` (docker/entrypoint.sh) rewrites it; until then the pages read those tournaments afresh."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0022_tournament_seeded_draw'),
        ('standings', '0003_rows_rewritten_for_the_records'),
    ]

    operations = [
        migrations.CreateModel(
            name='TournamentStamp',
            fields=[
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='standings_stamp', serialize=False, to='league.tournament')),
                ('token', models.CharField(max_length=32, verbose_name='stamp')),
                ('changed', models.DateTimeField(verbose_name='changed')),
            ],
            options={
                'verbose_name': 'standings stamp',
                'verbose_name_plural': 'standings stamps',
            },
        ),
    ]
