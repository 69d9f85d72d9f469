"""A series being played under a 55-minute limit, its referee logged in, and ways to fill its tables."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.hall.views import ready_rooms
from league.results import services
from league.results.models import DealRow
from tests.factories import TournamentFactory, UserFactory, drawn_series

DEAL = {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}


@pytest.fixture(autouse=True)
def no_room_kept():
    """Each test builds its own fragments: none is kept from another test's database."""
    ready_rooms.clear()
    yield
    ready_rooms.clear()


@pytest.fixture
def referee(db):
    return UserFactory(username="sedzia-sali")


@pytest.fixture
def organiser(db):
    return UserFactory(username="organizator-sali")


@pytest.fixture
def series(referee, organiser):
    tournament = TournamentFactory(time_limit_minutes=55)
    tournament.referees.add(referee)
    tournament.organisers.add(organiser)
    return drawn_series(tournament, tables=5)


def room_url(series, name: str = "room") -> str:
    return reverse(f"hall:{name}", args=[series.tournament.slug, series.number])


def save_deal(series, table: int, user) -> None:
    """The next deal of ``table`` saved as a referee saves it."""
    protocol = series.protocols.get(table=table)
    services.protocol_row_save(
        protocol=protocol, number=protocol.rows.count() + 1, deal=DEAL, expected_version=protocol.version, user=user
    )


def fill(series, counts: dict[int, int]) -> None:
    """Give tables their numbers of deals at once (rows of zeros: only the counts matter here)."""
    for table, count in counts.items():
        protocol = series.protocols.get(table=table)
        DealRow.objects.bulk_create(
            DealRow(
                protocol=protocol,
                number=n,
                deal={"values": dict.fromkeys("ABCD", 0)},
                value_a=0,
                value_b=0,
                value_c=0,
                value_d=0,
            )
            for n in range(protocol.rows.count() + 1, protocol.rows.count() + count + 1)
        )


def started_ago(series, minutes: float, *, limit: int | None = 55) -> None:
    series.clock_started_at = timezone.now() - timedelta(minutes=minutes)
    series.clock_limit_minutes = limit
    series.save(update_fields=["clock_started_at", "clock_limit_minutes"])
