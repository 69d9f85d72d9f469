"""Historia zmian: the rows of every kept history, stored before their models shared one base
(league.history), are read whole after the migrations that moved them onto it."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league.games.baska.rulesets.models import OwnRulesetVersion
from league.models import DrawLog, SeasonVersion
from league.results.models import DealRowVersion, PenaltyVersion, ProtocolEvent, SeriesEvent
from tests.factories import OwnRulesetFactory, PlayerFactory, UserFactory

BEFORE = [("league", "0011_preferans_tournaments"), ("results", "0009_pulka_closed"), ("rulesets", "0001_initial")]


def stored(row) -> dict:
    return {field.attname: field.value_from_object(row) for field in row._meta.concrete_fields}


@pytest.mark.django_db(transaction=True)
def test_history_rows_stored_before_the_base_survive_its_migrations():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    user = UserFactory()
    # the season, tournament, series and protocol as the old schema stores them: today's
    # models have columns added since
    old = executor.loader.project_state(BEFORE).apps
    tournament = old.get_model("league", "Tournament").objects.create(
        name="Turniej", slug="turniej", date="2025-06-01", ruleset_preset="puck"
    )
    series = old.get_model("league", "Series").objects.create(tournament_id=tournament.pk, number=1)
    season = old.get_model("league", "Season").objects.create(name="Sezon", slug="sezon", year=2025)
    protocol = old.get_model("results", "Protocol").objects.create(series_id=series.pk, table=1, pin="1234")
    rows = [
        SeasonVersion.objects.create(
            season_id=season.pk, action="change", old={"year": 2025}, new={"year": 2026}, user=user, reason="rok"
        ),
        DrawLog.objects.create(series_id=series.pk, action="draw", seed=7, user=user, details={"tables": 1}),
        ProtocolEvent.objects.create(protocol_id=protocol.pk, action="completed", seat="B", grant="g1", user=user),
        SeriesEvent.objects.create(series_id=series.pk, action="reopened", user=user, reason="błąd w stole 1"),
        DealRowVersion.objects.create(
            protocol_id=protocol.pk,
            number=1,
            action="add",
            new_deal={"points": [1, -1, 0, 0]},
            author="stolik 1",
            seat="A",
        ),
        PenaltyVersion.objects.create(
            series_id=series.pk,
            player=PlayerFactory(),
            penalty_key=1,
            action="add",
            new={"small_points": -5, "big_points": "0", "reason": "spóźnienie"},
            user=user,
            reason="sędzia",
        ),
        OwnRulesetVersion.objects.create(ruleset=OwnRulesetFactory(), old_data={"name": "stare"}, user=user),
    ]
    before = [stored(row) for row in rows]

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert [stored(type(row).objects.get(pk=row.pk)) for row in rows] == before
