"""A Preferans table's protocol is its pulka: entries saved, valued as settled whists, corrected, closed."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from league.games.preferans import services as pulka_services
from league.games.preferans.pulka import protocol_pulka
from league.results import services
from league.results.models import DealRowVersion, ProtocolEvent
from league.standings.compute import tournament_standings
from scoring.preferans import keep_sheet, load_variant, settle
from tests.factories import PreferansTournamentFactory, RegistrationFactory, UserFactory, drawn_series, pulka_entered

pytestmark = pytest.mark.django_db

MADE_BY_B = {"contract": "7H", "declarer": "B", "tricks": 7, "whisters": [{"player": "C", "tricks": 3}]}
FAILED_BY_C = {"contract": "8S", "declarer": "C", "tricks": 6, "whisters": [{"player": "D", "tricks": 4}]}


@pytest.fixture
def referee():
    return UserFactory()


def protocol_of(referee, **tournament):
    series = drawn_series(PreferansTournamentFactory(**tournament), tables=1)
    series.tournament.referees.add(referee)
    for assignment in series.assignments.all():
        RegistrationFactory(tournament=series.tournament, player=assignment.player)
    return series.protocols.get()


enter = pulka_entered


def settled_closed(entries, players=("A", "B", "C", "D"), total=10):
    sheet = keep_sheet(players=players, variant=load_variant("sochi"), total=total, entries=entries, closed=True)
    return settle(sheet).balance


def test_each_saved_entry_stores_its_share_of_the_settled_whists(referee):
    protocol = enter(protocol_of(referee), [MADE_BY_B, FAILED_BY_C], referee)
    rows = list(protocol.rows.order_by("number"))
    totals = {seat: sum(row.values[seat] for row in rows) for seat in "ABCD"}
    assert totals == settled_closed([MADE_BY_B, FAILED_BY_C])
    assert all(sum(row.values.values()) == 0 for row in rows)


def test_a_table_of_three_keeps_seat_d_at_zero_and_ranks_three_players(referee):
    deal = {"contract": "6NT", "declarer": "A", "tricks": 6, "whisters": [{"player": "B", "tricks": 4}]}
    protocol = enter(protocol_of(referee, table_size=3), [deal], referee)
    assert protocol.rows.get().value_d == 0
    standings = tournament_standings(protocol.series.tournament)["individual"]
    assert [row["big_points"] for row in standings] == [2, 1, 0]
    assert sum(row["small_points"] for row in standings) == 0


def test_the_engine_refuses_an_impossible_entry_in_the_users_words_and_nothing_is_stored(referee):
    protocol = protocol_of(referee)
    dealer_plays = {"contract": "6S", "declarer": "A"}  # A deals the first deal and sits it out
    with pytest.raises(ValidationError) as error:
        enter(protocol, [dealer_plays], referee)
    assert "deals this deal" in error.value.messages[0]
    assert not protocol.rows.exists()


def test_correcting_an_earlier_entry_moves_the_points_after_it_and_is_kept_in_the_history(referee):
    protocol = enter(protocol_of(referee), [MADE_BY_B, FAILED_BY_C], referee)
    corrected = {**MADE_BY_B, "tricks": 8, "whisters": [{"player": "C", "tricks": 2}]}
    protocol = services.protocol_row_save(
        protocol=protocol, number=1, deal=corrected, expected_version=protocol.version, user=referee, reason="8 lew"
    )
    totals = {seat: sum(row.values[seat] for row in protocol.rows.all()) for seat in "ABCD"}
    assert totals == settled_closed([corrected, FAILED_BY_C])
    change = DealRowVersion.objects.get(protocol=protocol, action="change")
    assert (change.old_deal, change.new_deal, change.reason) == (MADE_BY_B, corrected, "8 lew")


def test_a_pulka_closed_by_agreement_takes_no_more_deals_but_a_penalty_and_closing_twice_is_one_change(referee):
    protocol = enter(protocol_of(referee), [MADE_BY_B], referee)
    version = protocol.version
    protocol = pulka_services.protocol_pulka_close(
        protocol=protocol, closed=True, expected_version=version, user=referee
    )
    again = pulka_services.protocol_pulka_close(protocol=protocol, closed=True, expected_version=version, user=referee)
    assert again.closed_by_agreement and ProtocolEvent.objects.filter(action="agreed_close").count() == 1
    with pytest.raises(ValidationError) as error:
        enter(protocol, [FAILED_BY_C], referee)
    assert error.value.code == "pulka_closed"
    penalty = {"penalty": "pulka", "player": "B", "size": 2, "reason": "dopisał 2 za dużo"}
    protocol = enter(protocol, [penalty], referee)
    assert protocol.rows.count() == 2
    assert protocol_pulka(protocol=protocol).settlement is not None


def test_the_standings_rank_by_big_points_for_places_then_settled_whists(referee):
    protocol = enter(protocol_of(referee), [MADE_BY_B, FAILED_BY_C], referee)
    balance = settled_closed([MADE_BY_B, FAILED_BY_C])
    rows = tournament_standings(protocol.series.tournament)["individual"]
    seats = dict(protocol.series.assignments.values_list("player_id", "seat"))
    assert [row["small_points"] for row in rows] == sorted(balance.values(), reverse=True)
    assert {seats[row["pk"]]: row["small_points"] for row in rows} == balance
    assert rows[0]["big_points"] == 3 and rows[-1]["big_points"] == 0


def test_a_pulka_is_complete_only_when_over_closed_or_stopped_by_the_time_limit(referee):
    protocol = enter(protocol_of(referee), [MADE_BY_B], referee)
    protocol = services.protocol_totals_set(
        protocol=protocol, totals=settled_closed([MADE_BY_B]), expected_version=protocol.version, user=referee
    )
    with pytest.raises(ValidationError) as error:
        services.protocol_complete(protocol=protocol, expected_version=protocol.version, user=referee)
    assert error.value.code == "incomplete"
    protocol.refresh_from_db()
    protocol = pulka_services.protocol_pulka_close(
        protocol=protocol, closed=True, expected_version=protocol.version, user=referee
    )
    protocol = services.protocol_complete(protocol=protocol, expected_version=protocol.version, user=referee)
    assert protocol.status == "complete"


def test_the_table_itself_may_close_its_open_pulka_and_the_log_names_its_seat(referee):
    protocol = enter(protocol_of(referee), [MADE_BY_B], referee)
    protocol = pulka_services.protocol_pulka_close(
        protocol=protocol, closed=True, expected_version=protocol.version, seat="C", grant="g1"
    )
    event = ProtocolEvent.objects.get(action="agreed_close")
    assert protocol.closed_by_agreement and (event.user, event.seat, event.grant) == (None, "C", "g1")


def test_the_table_may_correct_only_its_last_entry_the_pencil_rule(referee):
    protocol = enter(protocol_of(referee), [MADE_BY_B, FAILED_BY_C], None, author="stolik 1", seat="A")
    corrected = {**MADE_BY_B, "tricks": 8, "whisters": [{"player": "C", "tricks": 2}]}
    with pytest.raises(PermissionDenied):
        services.protocol_row_save(
            protocol=protocol, number=1, deal=corrected, expected_version=protocol.version, author="stolik 1"
        )
    protocol.refresh_from_db()
    assert protocol.rows.get(number=1).deal == MADE_BY_B
    last = {**FAILED_BY_C, "tricks": 7, "whisters": [{"player": "D", "tricks": 3}]}
    protocol = services.protocol_row_save(
        protocol=protocol, number=2, deal=last, expected_version=protocol.version, author="stolik 1"
    )
    assert protocol.rows.get(number=2).deal == last
