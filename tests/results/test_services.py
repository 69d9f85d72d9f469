"""Results services: saving rows, totals, confirmation, closing and corrections."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from league.games.baska.shorthand import parse
from league.results import selectors, services
from league.results.models import DealRow, DealRowVersion, Protocol
from tests.factories import UserFactory, drawn_series, game_settings_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee():
    return UserFactory()


@pytest.fixture
def series(referee):
    series = drawn_series(tables=2, tournament=None)
    game_settings_set(series.tournament, deals_per_series=4)
    series.tournament.save()
    series.tournament.referees.add(referee)
    return series


LINES = ["ac60", "bd+", "ac+", "zak+"]
PAPER = {"A": 31, "B": -11, "C": -9, "D": -11}


def table_protocols_of(series):
    return list(series.protocols.order_by("table"))


def enter(protocol, lines, user):
    for line in lines:
        protocol = services.protocol_row_save(
            protocol=protocol,
            number=protocol.rows.count() + 1,
            deal=parse(line),
            expected_version=protocol.version,
            user=user,
        )
    return protocol


def finish(protocol, user, totals):
    protocol = services.protocol_totals_set(
        protocol=protocol, totals=totals, expected_version=protocol.version, user=user
    )
    protocol = services.protocol_complete(protocol=protocol, expected_version=protocol.version, user=user)
    return services.protocol_confirm(protocol=protocol, seat="B", expected_version=protocol.version)


def test_saving_rows_scores_them_and_keeps_history(series, referee):
    protocol = table_protocols_of(series)[0]
    protocol = enter(protocol, ["ac60", "zak+"], referee)
    assert [row.values for row in protocol.rows.all()] == [
        {"A": 1, "B": -1, "C": 1, "D": -1},
        {"A": 30, "B": -10, "C": -10, "D": -10},
    ]
    assert protocol.version == 2
    assert list(protocol.history.values_list("action", flat=True)) == ["add", "add"]
    series.refresh_from_db()
    assert series.results_entered and series.status == "in_play"


def test_an_invalid_deal_changes_nothing(series, referee):
    protocol = enter(table_protocols_of(series)[0], ["ac60"], referee)
    with pytest.raises(ValidationError, match="Deal 2"):
        services.protocol_row_save(
            protocol=protocol, number=2, deal=parse("bac-"), expected_version=protocol.version, user=referee
        )
    with pytest.raises(ValidationError):
        services.protocol_row_save(
            protocol=protocol, number=4, deal=parse("ac60"), expected_version=protocol.version, user=referee
        )
    protocol.refresh_from_db()
    assert protocol.version == 1
    assert protocol.rows.count() == 1 and protocol.history.count() == 1


def test_a_stale_version_is_refused(series, referee):
    protocol = enter(table_protocols_of(series)[0], ["ac60"], referee)
    with pytest.raises(services.StaleProtocol, match="Someone else changed"):
        services.protocol_row_save(protocol=protocol, number=1, deal=parse("bd+"), expected_version=0, user=referee)
    assert DealRow.objects.get(protocol=protocol).deal == parse("ac60")


def test_only_the_last_row_can_be_deleted(series, referee):
    protocol = enter(table_protocols_of(series)[0], ["ac60", "bd+"], referee)
    with pytest.raises(ValidationError):
        services.protocol_row_delete(protocol=protocol, number=1, expected_version=protocol.version, user=referee)
    protocol = services.protocol_row_delete(
        protocol=protocol, number=2, expected_version=protocol.version, user=referee
    )
    assert protocol.rows.count() == 1
    assert protocol.history.last().action == "delete"


def test_complete_is_refused_until_the_paper_agrees(series, referee):
    protocol = enter(table_protocols_of(series)[0], ["ac60", "bd+", "ac+", "zak+"], referee)
    protocol = services.protocol_totals_set(
        protocol=protocol,
        totals={"A": 32, "B": -11, "C": -9, "D": -12},
        expected_version=protocol.version,
        user=referee,
    )
    with pytest.raises(ValidationError, match="A \\+1, B \\+0, C \\+0, D -1"):
        services.protocol_complete(protocol=protocol, expected_version=protocol.version, user=referee)
    assert selectors.totals_difference(protocol=protocol) == {"A": 1, "B": 0, "C": 0, "D": -1}
    protocol = finish(protocol, referee, {"A": 31, "B": -11, "C": -9, "D": -11})
    assert protocol.status == "confirmed" and protocol.confirmed_by_seat == "B"


def test_an_unfinished_table_must_be_marked_as_stopped(series, referee):
    protocol = enter(table_protocols_of(series)[0], ["ac60"], referee)
    protocol = services.protocol_totals_set(
        protocol=protocol, totals={"A": 1, "B": -1, "C": 1, "D": -1}, expected_version=protocol.version, user=referee
    )
    with pytest.raises(ValidationError, match="1 of 4"):
        services.protocol_complete(protocol=protocol, expected_version=protocol.version, user=referee)
    protocol = services.protocol_complete(
        protocol=protocol, expected_version=protocol.version, ended_early=True, user=referee
    )
    assert protocol.status == "complete" and protocol.ended_early


def test_close_is_refused_with_an_incomplete_table(series, referee):
    first, second = table_protocols_of(series)
    finish(enter(first, ["ac60", "bd+", "ac+", "zak+"], referee), referee, {"A": 31, "B": -11, "C": -9, "D": -11})
    enter(second, ["ac60"], referee)
    with pytest.raises(ValidationError, match="Table 2"):
        services.series_close(series=series)
    series.refresh_from_db()
    assert series.status == "in_play"


def test_correction_after_closing_needs_a_referee_and_a_reason(series, referee):
    protocols = table_protocols_of(series)
    for protocol in protocols:
        finish(
            enter(protocol, ["ac60", "bd+", "ac+", "zak+"], referee), referee, {"A": 31, "B": -11, "C": -9, "D": -11}
        )
    services.series_close(series=series)
    protocol = Protocol.objects.get(pk=protocols[0].pk)
    with pytest.raises(PermissionDenied):
        services.protocol_row_save(
            protocol=protocol, number=1, deal=parse("ac40"), expected_version=protocol.version, author="table 1"
        )
    with pytest.raises(ValidationError, match="reason"):
        services.protocol_row_save(
            protocol=protocol, number=1, deal=parse("ac40"), expected_version=protocol.version, user=referee
        )
    services.protocol_row_save(
        protocol=protocol,
        number=1,
        deal=parse("ac40"),
        expected_version=protocol.version,
        user=referee,
        reason="Paper says 40",
    )
    change = DealRowVersion.objects.filter(protocol=protocol, action="change").get()
    assert change.old_values == {"A": 1, "B": -1, "C": 1, "D": -1}
    assert change.new_values == {"A": -2, "B": 2, "C": -2, "D": 2}
    assert (change.user, change.reason) == (referee, "Paper says 40")


def test_the_table_may_not_change_a_complete_protocol(series, referee):
    protocol = enter(table_protocols_of(series)[0], ["ac60", "bd+", "ac+", "zak+"], referee)
    protocol = finish(protocol, referee, {"A": 31, "B": -11, "C": -9, "D": -11})
    with pytest.raises(PermissionDenied):
        services.protocol_row_save(
            protocol=protocol, number=4, deal=parse("ac60"), expected_version=protocol.version, author="B"
        )
    protocol = services.protocol_row_save(
        protocol=protocol,
        number=4,
        deal=parse("ac60"),
        expected_version=protocol.version,
        user=referee,
        reason="Paper says 60 eyes",
    )
    assert protocol.status == "open"  # the paper must be checked and confirmed again


def confirmed_with_room_for_a_deal(series, referee):
    """Table 1's 4 deals confirmed, then the series found to be of 5 deals: a fifth may be typed."""
    protocol = finish(enter(table_protocols_of(series)[0], LINES, referee), referee, PAPER)
    game_settings_set(series.tournament, deals_per_series=5)
    series.tournament.save()
    return protocol


@pytest.mark.parametrize(("number", "reason"), [(5, ""), (4, "   ")], ids=["a new deal", "a deal changed"])
def test_a_deal_on_a_confirmed_protocol_without_a_reason_is_refused_and_changes_nothing(
    series, referee, number, reason
):
    protocol = confirmed_with_room_for_a_deal(series, referee)

    with pytest.raises(ValidationError, match="give the reason") as refused:
        services.protocol_row_save(
            protocol=protocol,
            number=number,
            deal=parse("ac60"),
            expected_version=protocol.version,
            user=referee,
            reason=reason,
        )

    assert refused.value.code == "reason"
    protocol.refresh_from_db()
    assert (protocol.status, protocol.rows.count(), protocol.history.count()) == ("confirmed", 4, 4)


def test_a_deal_on_a_confirmed_protocol_with_a_reason_undoes_the_confirmation_and_the_history_keeps_why(
    series, referee
):
    protocol = confirmed_with_room_for_a_deal(series, referee)

    protocol = services.protocol_row_save(
        protocol=protocol,
        number=5,
        deal=parse("ac60"),
        expected_version=protocol.version,
        user=referee,
        reason="Deal 5 was played but left off the paper",
    )

    assert protocol.status == "open"
    added = protocol.history.get(number=5)
    assert (added.action, added.user, added.reason) == ("add", referee, "Deal 5 was played but left off the paper")


def test_the_database_refuses_a_row_that_does_not_sum_to_zero(series):
    protocol = table_protocols_of(series)[0]
    with pytest.raises(IntegrityError), transaction.atomic():
        DealRow.objects.create(protocol=protocol, number=1, deal={}, value_a=1, value_b=1, value_c=-1, value_d=0)


def complete(protocol, user=None, seat=""):
    protocol = enter(protocol, ["ac60", "bd+", "ac+", "zak+"], user)
    protocol = services.protocol_totals_set(
        protocol=protocol, totals={"A": 31, "B": -11, "C": -9, "D": -11}, expected_version=protocol.version, user=user
    )
    return services.protocol_complete(protocol=protocol, expected_version=protocol.version, user=user, seat=seat)


def test_the_seat_that_marked_complete_may_not_confirm(series, referee):
    protocol = complete(table_protocols_of(series)[0], referee, seat="C")
    assert Protocol.objects.get(pk=protocol.pk).completed_by_seat == "C"
    with pytest.raises(ValidationError, match="Seat C marked the protocol complete") as refused:
        services.protocol_confirm(protocol=protocol, seat="C", expected_version=protocol.version)
    assert refused.value.code == "same_seat"
    protocol.refresh_from_db()
    assert protocol.status == "complete" and protocol.confirmed_by_seat == ""
    protocol = services.protocol_confirm(protocol=protocol, seat="D", expected_version=protocol.version)
    assert protocol.status == "confirmed" and protocol.confirmed_by_seat == "D"


def test_a_referee_may_mark_complete_without_a_seat(series, referee):
    protocol = complete(table_protocols_of(series)[0], referee)
    assert protocol.completed_by_seat == ""
    assert (
        services.protocol_confirm(protocol=protocol, seat="A", expected_version=protocol.version).status == "confirmed"
    )


def test_an_unknown_completing_seat_is_refused(series, referee):
    with pytest.raises(ValidationError, match="Unknown seat E"):
        complete(table_protocols_of(series)[0], referee, seat="E")


def test_reopening_forgets_the_completing_seat(series, referee):
    protocol = complete(table_protocols_of(series)[0], referee, seat="A")
    protocol = services.protocol_row_save(
        protocol=protocol, number=4, deal=parse("ac60"), expected_version=protocol.version, user=referee
    )
    assert protocol.status == "open" and protocol.completed_by_seat == ""


def test_confirming_is_refused_once_the_series_is_closed(series, referee):
    protocol = complete(table_protocols_of(series)[0], referee, seat="A")
    series.status = series.Status.CLOSED
    series.save()
    with pytest.raises(ValidationError, match="series is closed") as refused:
        services.protocol_confirm(protocol=protocol, seat="B", expected_version=protocol.version)
    assert refused.value.code == "closed"
    protocol.refresh_from_db()
    assert protocol.status == "complete"


def test_a_phone_cannot_confirm_what_it_marked_complete_even_as_another_seat(series, referee):
    protocol = enter(table_protocols_of(series)[0], ["ac60", "bd+", "ac+", "zak+"], referee)
    protocol = services.protocol_totals_set(
        protocol=protocol, totals={"A": 31, "B": -11, "C": -9, "D": -11}, expected_version=protocol.version
    )
    protocol = services.protocol_complete(protocol=protocol, expected_version=protocol.version, seat="A", grant="g1")
    with pytest.raises(ValidationError) as refused:
        services.protocol_confirm(protocol=protocol, seat="C", grant="g1", expected_version=protocol.version)
    assert refused.value.code == "same_grant"
    protocol.refresh_from_db()
    assert protocol.status == "complete"
    protocol = services.protocol_confirm(protocol=protocol, seat="C", grant="g2", expected_version=protocol.version)
    assert (protocol.confirmed_by_seat, protocol.confirmed_by_grant, protocol.confirmed_by_user) == ("C", "g2", None)


def test_reopening_forgets_who_completed_and_confirmed(series, referee):
    protocol = complete(table_protocols_of(series)[0], referee, seat="A")
    protocol = services.protocol_confirm(protocol=protocol, seat="B", user=referee, expected_version=protocol.version)
    assert protocol.confirmed_by_user == referee
    protocol = services.protocol_row_save(
        protocol=protocol, number=4, deal=parse("ac60"), expected_version=protocol.version, user=referee, reason="x"
    )
    protocol.refresh_from_db()
    assert protocol.status == "open" and protocol.confirmed_by_user is None and protocol.confirmed_by_seat == ""
    # the log keeps them, and says the correction of deal 4 sent the protocol back
    assert [event.action for event in protocol.events.all()] == ["totals", "completed", "confirmed", "reopened"]
    assert (protocol.events.last().user, protocol.events.last().details) == (referee, {"deal": 4})


def test_no_new_pin_or_unlocking_once_the_series_is_closed(series, referee):
    protocol = table_protocols_of(series)[0]
    series.status = series.Status.CLOSED
    series.save()
    protocol.refresh_from_db()
    old_pin = protocol.pin
    for renew in (
        lambda: services.protocol_pin_renew(protocol=protocol, user=referee),
        lambda: services.protocol_pin_unlock(protocol=protocol, user=referee),
        lambda: services.series_pins_renew(series=series, user=referee),
    ):
        with pytest.raises(ValidationError, match="series is closed"):
            renew()
    protocol.refresh_from_db()
    assert protocol.pin == old_pin and not protocol.events.exists()


def test_a_new_pin_differs_from_the_old_and_unlocks_the_table(series, referee, monkeypatch):
    protocol = table_protocols_of(series)[0]
    Protocol.objects.filter(pk=protocol.pk).update(pin="1234", wrong_pins=Protocol.PIN_LOCK_TRIES)
    protocol.refresh_from_db()
    drawn = iter(["1234", "1234", "5678"])  # the PIN generator first repeats the old PIN
    monkeypatch.setattr(services, "new_pin", lambda: next(drawn))
    services.protocol_pin_renew(protocol=protocol, user=referee)
    protocol.refresh_from_db()
    assert protocol.pin == "5678" and not protocol.pin_locked
    assert protocol.events.get().user == referee
