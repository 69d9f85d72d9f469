"""The renames of the columns and events every game shares (results 0013–0014, league 0024, issue 39)
keep every stored row's meaning, forward and back: a row counted multiplied stays so, a table
closed by agreement stays closed, its events keep saying closed and opened again, and a
tournament keeps its game."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league.models import Tournament
from league.results.models import DealRow, Protocol, ProtocolEvent

BEFORE = [("results", "0012_table_token"), ("league", "0023_tournament_game_settings")]
ACTIONS = ["completed", "pulka_closed", "pulka_open", "pulka_closed", "confirmed"]
RENAMED = ["completed", "agreed_close", "agreed_open", "agreed_close", "confirmed"]


def seat_values(value: int) -> dict:
    return {"value_a": value, "value_b": -value, "value_c": value, "value_d": -value}


@pytest.mark.django_db(transaction=True)
def test_the_rows_tables_and_events_read_the_same_after_the_renames_and_back():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    tournaments = [
        old.get_model("league", "Tournament").objects.create(
            name=f"Turniej {game}", slug=f"turniej-{game}", date="2026-05-01", game=game
        )
        for game in ("baska", "preferans")
    ]
    series = old.get_model("league", "Series").objects.create(tournament_id=tournaments[1].pk, number=1)
    protocols = old.get_model("results", "Protocol")
    closed = protocols.objects.create(series_id=series.pk, table=1, pin="1234", pulka_closed=True)
    playing = protocols.objects.create(series_id=series.pk, table=2, pin="4321")
    for number, bok in enumerate([False, True, True, False], start=1):
        old.get_model("results", "DealRow").objects.create(
            protocol_id=closed.pk, number=number, deal={"values": {}}, bok_round=bok, **seat_values(number)
        )
    events = old.get_model("results", "ProtocolEvent")
    for action in ACTIONS:
        events.objects.create(protocol_id=closed.pk, action=action, details={"reason": action})

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    rows = DealRow.objects.filter(protocol_id=closed.pk).order_by("number")
    assert [row.doubled for row in rows] == [False, True, True, False]
    assert Protocol.objects.get(pk=closed.pk).closed_by_agreement
    assert not Protocol.objects.get(pk=playing.pk).closed_by_agreement
    stored = list(ProtocolEvent.objects.filter(protocol_id=closed.pk).order_by("pk"))
    assert [event.action for event in stored] == RENAMED
    assert [event.details["reason"] for event in stored] == ACTIONS
    assert list(Tournament.objects.order_by("pk").values_list("game", flat=True)) == ["baska", "preferans"]

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    rows = old.get_model("results", "DealRow").objects.filter(protocol_id=closed.pk).order_by("number")
    assert [row.bok_round for row in rows] == [False, True, True, False]
    assert old.get_model("results", "Protocol").objects.get(pk=closed.pk).pulka_closed
    back = old.get_model("results", "ProtocolEvent").objects.filter(protocol_id=closed.pk).order_by("pk")
    assert [event.action for event in back] == ACTIONS

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # to the schema every other test expects
