"""Two writers on one protocol at the same moment: exactly one wins, nothing is lost."""

import threading

import pytest
from django.db import connection

from league.games.baska.shorthand import parse
from league.results import services
from league.results.models import Protocol
from tests.factories import UserFactory, drawn_series


@pytest.mark.django_db(transaction=True)
def test_two_writers_with_the_same_version_one_wins_the_other_is_told():
    referee = UserFactory()
    series = drawn_series()
    series.tournament.referees.add(referee)
    protocol = series.protocols.get()
    start = threading.Barrier(2)
    outcomes: dict[str, object] = {}

    def write(name: str, line: str) -> None:
        try:
            start.wait()
            services.protocol_row_save(protocol=protocol, number=1, deal=parse(line), expected_version=0, user=referee)
            outcomes[name] = "saved"
        except services.StaleProtocol as error:
            outcomes[name] = error
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=write, args=(name, line)) for name, line in [("one", "ac60"), ("two", "bd+")]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(map(str, outcomes.values())).count("saved") == 1
    loser = next(value for value in outcomes.values() if value != "saved")
    assert "Someone else changed this protocol" in loser.messages[0]
    protocol = Protocol.objects.get(pk=protocol.pk)
    assert protocol.version == 1
    row = protocol.rows.get()
    winner = "ac60" if outcomes["one"] == "saved" else "bd+"
    assert row.deal == parse(winner)
    assert protocol.history.count() == 1
