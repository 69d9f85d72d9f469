"""Series drawn before the draw made protocols get them from a data migration."""

import importlib

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from league.results.models import Protocol
from tests.factories import SeriesFactory, TableAssignmentFactory

pytestmark = pytest.mark.django_db

MIGRATION = ("results", "0003_protocols_of_drawn_series")


def run_migration() -> None:
    apps = MigrationLoader(connection).project_state(MIGRATION).apps
    importlib.import_module("league.results.migrations." + MIGRATION[1]).create_missing_protocols(apps, None)


def test_every_table_of_a_drawn_series_gets_one_protocol_and_planned_series_none():
    drawn = SeriesFactory(status="drawn")
    for table in (1, 2):
        for seat in "ABCD":
            TableAssignmentFactory(series=drawn, table=table, seat=seat)
    kept = Protocol.objects.create(series=drawn, table=1, pin="1234")
    planned = SeriesFactory(tournament=drawn.tournament, number=2, status="planned")

    run_migration()

    assert sorted(drawn.protocols.values_list("table", flat=True)) == [1, 2]
    assert drawn.protocols.get(table=1).pin == kept.pin
    pin = drawn.protocols.get(table=2).pin
    assert len(pin) == 4 and pin.isdigit()
    assert not planned.protocols.exists()
    run_migration()  # a second run finds nothing missing
    assert drawn.protocols.count() == 2
