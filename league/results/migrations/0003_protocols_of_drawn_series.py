"""Give every drawn series its protocols.

The draw now creates one protocol (with its PIN) per table; before, the
referee's and the printing pages created them on first sight, which a GET no
longer does. Series drawn before this change get the protocols they lack.
"""

import secrets

from django.db import migrations


def create_missing_protocols(apps, schema_editor):
    Series = apps.get_model("league", "Series")
    TableAssignment = apps.get_model("league", "TableAssignment")
    Protocol = apps.get_model("results", "Protocol")
    drawn = Series.objects.exclude(status="planned")
    tables = set(TableAssignment.objects.filter(series__in=drawn).values_list("series_id", "table").distinct())
    existing = set(Protocol.objects.filter(series__in=drawn).values_list("series_id", "table"))
    Protocol.objects.bulk_create(
        # The same PIN as league.results.models.new_pin makes, written out so the migration never changes.
        Protocol(series_id=series, table=table, pin=f"{secrets.randbelow(10_000):04d}")
        for series, table in sorted(tables - existing)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0004_longer_algorithm_names"),
        ("results", "0002_protocol_completed_by_seat"),
    ]

    operations = [
        # Going back keeps the protocols: they are valid rows of the older schema too.
        migrations.RunPython(create_missing_protocols, migrations.RunPython.noop),
    ]
