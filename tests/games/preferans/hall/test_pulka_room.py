"""The control room of a Preferans series: a table's progress is its pulka filled, its states
are the pulka's (full, closed by agreement, stopped by the time limit), the late filter reads the
share of the pulka filled, and the room is built within the query budget of a Baśka room."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.games.preferans import services as pulka_services
from league.hall.views import ready_rooms
from league.results.models import DealRow, Protocol
from league.standings.compute import tournament_standings
from scoring.preferans import keep_sheet, load_variant, settle
from tests.factories import PreferansTournamentFactory, RegistrationFactory, drawn_series, pulka_entered
from tests.hall.conftest import room_url, started_ago
from tests.hall.test_room import rows

pytestmark = pytest.mark.django_db


def made(contract: str, declarer: str) -> dict:
    """A contract nobody whisted: made, its price into the declarer's pulka."""
    return {"contract": contract, "declarer": declarer}


# a table of three to 10 (30 points): the three tens fill it; the seven makes 4 of it
FULL = [made("10S", "A"), made("10C", "B"), made("10D", "C")]
SEVEN = [made("7H", "A")]


@pytest.fixture
def preferans_series(referee, organiser):
    tournament = PreferansTournamentFactory(table_size=3, time_limit_minutes=55)
    tournament.referees.add(referee)
    tournament.organisers.add(organiser)
    return drawn_series(tournament, tables=3)


def enter(series, table: int, entries: list[dict], user) -> Protocol:
    """The table's pulka entries saved as a referee saves them."""
    return pulka_entered(series.protocols.get(table=table), entries, user)


def close(protocol: Protocol, user) -> None:
    pulka_services.protocol_pulka_close(protocol=protocol, closed=True, expected_version=protocol.version, user=user)


def test_each_table_shows_its_pulka_filled_and_whether_it_is_over_closed_or_playing(client, preferans_series, referee):
    enter(preferans_series, 1, FULL, referee)
    close(enter(preferans_series, 2, SEVEN, referee), referee)
    enter(preferans_series, 3, SEVEN, referee)
    client.force_login(referee)

    page = client.get(room_url(preferans_series)).content.decode()
    shown = rows(page)

    assert "pulka 30/30" in shown[1] and "3 entries" in shown[1] and "pulka full" in shown[1]
    assert "pulka 4/30" in shown[2] and "pulka closed by agreement" in shown[2]
    assert "pulka 4/30" in shown[3] and "1 entry" in shown[3] and "playing" in shown[3]
    assert "state-over" in shown[1] and "state-closed" in shown[2] and "state-playing" in shown[3]
    assert "median pulka 30/30" in page  # the closed pulka counts as full and ">Pulka<" in page


def test_a_table_not_started_and_a_confirmed_one_read_as_at_baska(client, preferans_series, referee):
    enter(preferans_series, 1, FULL, referee)
    Protocol.objects.filter(series=preferans_series, table=1).update(status="confirmed")
    client.force_login(referee)

    shown = rows(client.get(room_url(preferans_series)).content.decode())

    assert "confirmed" in shown[1]
    assert "pulka 0/30" in shown[2] and "not started" in shown[2]


def test_the_polish_room_says_pulka_and_its_states_in_polish(client, preferans_series, referee):
    enter(preferans_series, 1, FULL, referee)
    client.force_login(referee)

    page = client.get(room_url(preferans_series), HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    assert "pulka 30/30" in rows(page)[1] and "pulka pełna" in rows(page)[1]


def test_the_late_filter_reads_the_share_of_the_pulka_filled_and_a_closed_pulka_is_never_late(
    client, preferans_series, referee
):
    """20 minutes in, the median pulka holds 20 points (a minute a point): table 3 at 4 points is
    16 minutes behind; table 2, closed at 4 points, counts as full."""
    enter(preferans_series, 1, [made("10S", "A"), made("10C", "B")], referee)
    close(enter(preferans_series, 2, SEVEN, referee), referee)
    enter(preferans_series, 3, SEVEN, referee)
    started_ago(preferans_series, 20)
    client.force_login(referee)

    shown = rows(client.get(room_url(preferans_series), {"late": 5}).content.decode())

    assert list(shown) == [3]
    assert "16 min" in shown[3]


def test_the_end_of_time_stops_only_the_pulkas_still_played_and_says_they_settle_as_closed(
    client, preferans_series, organiser, referee
):
    enter(preferans_series, 1, FULL, referee)
    close(enter(preferans_series, 2, SEVEN, referee), referee)
    enter(preferans_series, 3, SEVEN, referee)
    started_ago(preferans_series, 56)
    client.force_login(organiser)

    confirm = client.get(room_url(preferans_series, "time_up")).content.decode()
    assert 'name="table" value="3"' in confirm and 'value="1"' not in confirm and 'value="2"' not in confirm
    assert "pulka 4/30" in confirm and "settled as if closed by agreement" in confirm

    client.post(room_url(preferans_series, "time_up"), {"table": ["3"]})
    shown = rows(client.get(room_url(preferans_series)).content.decode())
    assert "stopped by the time limit" in shown[3] and "pulka full" in shown[1]
    assert shown[3].count("stopped by the time limit") == 1  # the state, not the state and a badge
    # the stopped pulka counts in the standings as settled closed by agreement
    for assignment in preferans_series.assignments.all():
        RegistrationFactory(tournament=preferans_series.tournament, player=assignment.player)
    seated = {a.player_id: a.seat for a in preferans_series.assignments.filter(table=3)}
    standings = tournament_standings(preferans_series.tournament)["individual"]
    sheet = keep_sheet(players=("A", "B", "C"), variant=load_variant("sochi"), total=10, entries=SEVEN, closed=True)
    small = {seated[row["pk"]]: row["small_points"] for row in standings if row["pk"] in seated}
    assert small == settle(sheet).balance and any(small.values())


def pulka_rows(series, entries_per_table: dict[int, int]) -> None:
    """Give tables their numbers of valid pulka entries at once (a six by the player after the dealer)."""
    for table, count in entries_per_table.items():
        protocol = series.protocols.get(table=table)
        DealRow.objects.bulk_create(
            DealRow(
                protocol=protocol, number=n, deal=made("6S", "ABC"[n % 3]), value_a=0, value_b=0, value_c=0, value_d=0
            )
            for n in range(1, count + 1)
        )


def build_queries(client, series) -> tuple[int, int]:
    """The queries of building the polled fragment afresh (none kept ready) and of the whole room page."""
    client.get(room_url(series, "tables"))  # the session read once
    ready_rooms.clear()
    with CaptureQueriesContext(connection) as fragment:
        response = client.get(room_url(series, "tables"))
    assert len(rows(response.content.decode())) == series.protocols.count()
    with CaptureQueriesContext(connection) as page:
        client.get(room_url(series))
    return len(fragment), len(page)


@pytest.mark.parametrize("tables", [8, 64])
def test_a_preferans_room_is_built_within_the_baska_rooms_budget_however_many_tables(client, referee, tables):
    series = drawn_series(PreferansTournamentFactory(table_size=3, time_limit_minutes=55), tables=tables)
    pulka_rows(series, {table: table % 7 for table in range(1, tables + 1)})
    series.tournament.referees.add(referee)
    started_ago(series, 10)
    client.force_login(referee)

    fragment, page = build_queries(client, series)

    assert fragment <= 7 and page <= 7  # as tests/hall/test_room.py allows a Baśka room
