"""A Preferans exchange file at tables of three: a seat D is refused, and said why (found by an attack)."""

import json

import pytest

from league.exchange import ExchangeError, export_tournament, import_tournament
from league.models import Tournament
from tests.games.preferans.exchange.test_exchange import empty_the_database, played_tournament

pytestmark = pytest.mark.django_db


def test_a_seat_d_at_a_table_of_three_is_refused_naming_the_three_seats_there_are():
    exported = json.loads(json.dumps(export_tournament(played_tournament(3))))
    empty_the_database()
    seats = exported["series"][0]["tables"][0]["seats"]
    seats["D"] = seats["A"]
    with pytest.raises(ExchangeError) as error:
        import_tournament(exported)
    assert not Tournament.objects.exists()
    # not the Baśka message, "Unknown seat D; the seats are A, B, C and D.", naming D itself
    assert "D" not in str(error.value).split(";", 1)[1]
