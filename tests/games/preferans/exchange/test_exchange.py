"""A Preferans tournament in the exchange file: its game, pulka settings and each table's pulka entries."""

import json

import pytest
from django.utils import translation

from league.exchange import ExchangeError, export_tournament, import_tournament
from league.exchange.standings import file_standings
from league.games.preferans import services as pulka_services
from league.models import Tournament
from league.results import services
from league.results.models import Protocol
from players.models import Club, Player, Team
from tests.factories import PreferansTournamentFactory, RegistrationFactory, UserFactory, drawn_series

pytestmark = pytest.mark.django_db

# players by seat; A deals first and, at a table of four, sits the first deal out
AT_FOUR = [
    {"contract": "7H", "declarer": "B", "tricks": 7, "whisters": [{"player": "C", "tricks": 3}]},
    {"contract": "8S", "declarer": "C", "tricks": 6, "whisters": [{"player": "D", "tricks": 4}]},
    {"penalty": "pulka", "player": "B", "size": 2, "reason": "dopisał 2 za dużo"},
]
AT_THREE = [
    {"contract": "6NT", "declarer": "A", "tricks": 6, "whisters": [{"player": "B", "tricks": 4}]},
    {"contract": "misere", "declarer": "C", "tricks": 1},
]


def played_tournament(table_size: int) -> Tournament:
    """Two tables of ``table_size``; the first table's pulka closed by agreement."""
    tournament = PreferansTournamentFactory(table_size=table_size, pulka_variant="leningrad")
    referee = UserFactory()
    tournament.referees.add(referee)
    series = drawn_series(tournament, tables=2)
    for assignment in series.assignments.all():
        RegistrationFactory(tournament=tournament, player=assignment.player)
    for protocol in series.protocols.order_by("table"):
        for number, entry in enumerate(AT_FOUR if table_size == 4 else AT_THREE, start=1):
            protocol = services.protocol_row_save(
                protocol=protocol, number=number, deal=entry, expected_version=protocol.version, user=referee
            )
        if protocol.table == 1:
            pulka_services.protocol_pulka_close(
                protocol=protocol, closed=True, expected_version=protocol.version, user=referee
            )
    return tournament


def empty_the_database():
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    Team.objects.all().delete()
    Club.objects.all().delete()


@pytest.mark.parametrize("table_size", [4, 3])
def test_a_preferans_tournament_exports_and_imports_back_to_the_same_standings(table_size):
    tournament = played_tournament(table_size)
    before = file_standings(tournament)
    exported = json.loads(json.dumps(export_tournament(tournament)))
    assert exported["tournament"]["game"] == "preferans"
    assert exported["tournament"]["pulka"] == {"variant": "leningrad", "total": 10, "table_size": table_size}
    first, second = exported["series"][0]["tables"]
    assert sorted(first["seats"]) == ["A", "B", "C", "D"][:table_size]
    assert first["deals"] == (AT_FOUR if table_size == 4 else AT_THREE)
    assert (first["pulka_closed"], second["pulka_closed"]) == (True, False)

    empty_the_database()
    again = import_tournament(exported)
    assert file_standings(again) == before
    assert before["individual"][0]["small_points"] > 0
    assert list(Protocol.objects.order_by("table").values_list("closed_by_agreement", flat=True)) == [True, False]
    assert export_tournament(again)["series"][0] == exported["series"][0]


def test_a_baska_file_names_no_game_and_no_pulka():
    from tests.factories import TournamentFactory

    exported = export_tournament(TournamentFactory())
    assert "game" not in exported["tournament"] and "pulka" not in exported["tournament"]


def exported_four() -> dict:
    exported = json.loads(json.dumps(export_tournament(played_tournament(4))))
    empty_the_database()
    return exported


@pytest.mark.parametrize(
    ("spoil", "path", "message"),
    [
        (
            lambda file: file["series"][0]["tables"][1]["deals"][0].update(contract="11H"),
            "series[0].tables[1].deals[0].contract",
            'Nieznany kontrakt "11H"',
        ),
        (
            lambda file: file["series"][0]["tables"][1]["deals"][0].update(declarer="A"),
            "series[0].tables[1].deals[0].declarer",
            "A rozdaje w tym rozdaniu",
        ),
        (
            lambda file: file["series"][0]["tables"][0]["seats"].update(D="p0"),
            "series[0].tables[0].seats.D",
            "",
        ),
        (lambda file: file["tournament"]["pulka"].update(total=500), "tournament.pulka.total", ""),
        (lambda file: file["tournament"]["pulka"].update(table_size=5), "tournament.pulka.table_size", ""),
        (lambda file: file["tournament"]["pulka"].update(variant="moskwa"), "tournament.pulka.variant", ""),
        (lambda file: file["tournament"].update(game="baska"), "tournament.pulka", ""),
        (lambda file: file["tournament"].pop("pulka"), "tournament.pulka", ""),
    ],
)
def test_a_bad_pulka_is_refused_at_its_place_and_nothing_is_stored(spoil, path, message):
    file = exported_four()
    file["series"][0]["tables"][1]["pulka_closed"] = False
    spoil(file)
    with translation.override("pl"), pytest.raises(ExchangeError) as error:
        import_tournament(file)
    assert error.value.path == path
    assert message in error.value.message
    assert not Tournament.objects.exists()
