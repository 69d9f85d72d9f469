"""The control room through the test client: who may open it, the tables' states, the late
filter, the poll answered with 304 while nothing changed, and the end of time."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league.models import Series
from league.results.models import PhoneContact, Protocol, ProtocolEvent
from league.results.table.queue import phone_contact_report
from tests.factories import TournamentFactory, UserFactory, drawn_series
from tests.hall.conftest import fill, room_url, save_deal, started_ago

pytestmark = pytest.mark.django_db


def rows(html: str) -> dict[int, str]:
    """Each shown table's row, as text without tags, by table number."""
    found = re.findall(r'<tr class="([^"]*)" data-table="(\d+)">(.*?)</tr>', html, re.S)
    return {int(table): cls + " " + re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)) for cls, table, body in found}


# --- who may open it -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["room", "tables", "time_up"])
def test_a_visitor_is_sent_to_log_in(client, series, name):
    response = client.get(room_url(series, name))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


@pytest.mark.parametrize("name", ["room", "tables"])
def test_another_tournaments_referee_is_refused(client, series, name):
    stranger = UserFactory()
    TournamentFactory().referees.add(stranger)
    client.force_login(stranger)
    assert client.get(room_url(series, name)).status_code == 403


def test_a_referee_may_run_the_clock_but_only_the_organiser_stops_the_tables(client, series, referee):
    client.force_login(referee)
    assert client.get(room_url(series)).status_code == 200
    assert client.post(room_url(series, "start")).status_code == 302
    assert client.get(room_url(series, "time_up")).status_code == 403
    assert client.post(room_url(series, "time_up"), {"table": [1, 2]}).status_code == 403


def test_a_series_that_does_not_exist_is_not_found(client, series, referee):
    client.force_login(referee)
    assert client.get(reverse("hall:room", args=[series.tournament.slug, 9])).status_code == 404


def test_the_referees_series_page_links_to_the_control_room(client, series, referee):
    client.force_login(referee)
    page = client.get(reverse("results:series", args=[series.tournament.slug, series.number])).content.decode()
    assert room_url(series) in page


# --- what it shows ---------------------------------------------------------------------


def test_every_table_with_its_deals_its_last_deal_and_its_state(client, series, referee):
    client.force_login(referee)
    save_deal(series, 2, referee)
    fill(series, {3: 40, 4: 40, 5: 12})
    Protocol.objects.filter(series=series, table=3).update(status="complete", declared_totals=dict.fromkeys("ABCD", 0))
    Protocol.objects.filter(series=series, table=4).update(status="confirmed", declared_totals=dict.fromkeys("ABCD", 0))
    # table 5 typed totals from a paper that does not add up with its rows
    Protocol.objects.filter(series=series, table=5).update(declared_totals={"A": 2, "B": -2, "C": 0, "D": 0})

    shown = rows(client.get(room_url(series)).content.decode())

    assert list(shown) == [1, 2, 3, 4, 5]
    assert "0/40" in shown[1] and "not started" in shown[1]
    assert "1/40" in shown[2] and "playing" in shown[2] and "0 min ago" in shown[2]
    assert "40/40" in shown[3] and "complete, awaiting confirmation" in shown[3]
    assert "confirmed" in shown[4]
    assert "12/40" in shown[5] and "paper totals differ" in shown[5]
    page = client.get(room_url(series)).content.decode()
    assert "Open tables: 3 of 5" in page
    assert reverse("results:protocol", args=[series.tournament.slug, 1, 5]) in page


def test_a_table_stopped_by_the_time_limit_says_so(client, series, referee):
    client.force_login(referee)
    Protocol.objects.filter(series=series, table=2).update(ended_early=True)
    assert "stopped by the time limit" in rows(client.get(room_url(series)).content.decode())[2]


def test_the_clock_before_the_start_shows_the_limit_and_without_a_limit_says_it_counts_up(client, series, referee):
    client.force_login(referee)
    assert "Limit 55 min; the clock has not been started." in client.get(room_url(series)).content.decode()
    series.tournament.time_limit_minutes = None
    series.tournament.save()
    assert "No time limit: once started, the clock counts up." in client.get(room_url(series)).content.decode()


@pytest.mark.parametrize(
    ("minutes_ago", "shown", "warning"),
    [
        (20, "35:00", "Limit 55 min"),
        (45, "10:00", "10 minutes left"),
        (51, "4:00", "5 minutes left"),
        (56, "0:00", "Time is up"),
    ],
)
def test_the_clock_warns_at_10_and_5_minutes_and_says_when_the_time_is_up(
    client, series, referee, minutes_ago, shown, warning
):
    client.force_login(referee)
    started_ago(series, minutes_ago)
    page = client.get(room_url(series, "tables")).content.decode()
    time = re.search(r"data-clock-time>([^<]*)<", page).group(1)
    assert time in (shown, shown[:-1] + "1") or time.endswith(shown[-4:])  # a second may pass
    assert warning in page


def test_a_paused_clock_says_why_and_the_form_says_the_hall_reads_it_too(client, series, referee):
    client.force_login(referee)
    client.post(room_url(series, "start"))
    assert "Shown on the public projector" in client.get(room_url(series)).content.decode()
    client.post(room_url(series, "pause"), {"reason": "spór przy stole 3"})
    page = client.get(room_url(series)).content.decode()
    assert "Clock paused: spór przy stole 3" in page
    assert "Resume the clock" in page


def test_a_pause_without_a_reason_is_explained_next_to_the_field(client, series, referee):
    client.force_login(referee)
    client.post(room_url(series, "start"))
    response = client.post(room_url(series, "pause"), {"reason": ""})
    assert response.status_code == 200
    assert 'id="id_reason"' in response.content.decode() and "This field is required." in response.content.decode()
    assert Series.objects.get(pk=series.pk).clock_paused_at is None


# --- the late filter -------------------------------------------------------------------


def test_the_late_filter_shows_the_tables_more_than_n_minutes_behind_the_median(client, series, referee):
    """20 minutes played, the median table at 8 deals: 2.5 minutes a deal. Table 4 (4 deals) is 10 minutes
    behind, table 5 (8 deals) on pace; table 3, stopped and complete at 3 deals, is never late."""
    client.force_login(referee)
    fill(series, {1: 10, 2: 10, 3: 3, 4: 4, 5: 8})
    Protocol.objects.filter(series=series, table=3).update(status="complete", ended_early=True)
    started_ago(series, 20)

    assert list(rows(client.get(room_url(series) + "?late=5").content.decode())) == [4]
    assert list(rows(client.get(room_url(series) + "?late=9").content.decode())) == [4]
    late_12 = client.get(room_url(series) + "?late=12").content.decode()
    assert rows(late_12) == {} and "No table is late." in late_12
    everyone = rows(client.get(room_url(series)).content.decode())
    assert list(everyone) == [1, 2, 3, 4, 5]
    assert "late" in everyone[4].split()[:2] and "10 min" in everyone[4]
    assert "late" not in everyone[3].split()[:2] and "on pace" in everyone[5]
    # the polled fragment keeps the filter
    assert list(rows(client.get(room_url(series, "tables") + "?late=5").content.decode())) == [4]


def test_a_wrong_n_shows_every_table_and_says_what_is_wrong(client, series, referee):
    client.force_login(referee)
    page = client.get(room_url(series) + "?late=abc").content.decode()
    assert len(rows(page)) == 5 and "Enter a whole number." in page


def test_before_the_clock_starts_no_table_is_late(client, series, referee):
    client.force_login(referee)
    fill(series, {1: 10, 2: 10, 3: 10, 4: 0, 5: 10})
    page = client.get(room_url(series) + "?late=5").content.decode()
    assert rows(page) == {} and "Start the series clock to see which tables are late." in page


# --- polling: 304 while nothing changed ------------------------------------------------


def test_a_poll_gets_304_until_a_deal_is_saved_then_the_new_row(client, series, referee, still_clock):
    client.force_login(referee)
    first = client.get(room_url(series, "tables"))
    etag = first["ETag"]
    assert first.status_code == 200 and "no-cache" in first["Cache-Control"]

    again = client.get(room_url(series, "tables"), headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""

    save_deal(series, 3, referee)
    after = client.get(room_url(series, "tables"), headers={"if-none-match": etag})
    assert after.status_code == 200 and after["ETag"] != etag
    assert "1/40" in rows(after.content.decode())[3]


def test_a_table_whose_phone_reports_waiting_deals_shows_as_offline_until_it_reports_them_sent(client, series, referee):
    client.force_login(referee)
    protocol = Protocol.objects.get(series=series, table=2)
    etag = client.get(room_url(series, "tables"))["ETag"]

    phone_contact_report(protocol=protocol, grant="phone-1", seat="A", waiting=3, online=False)
    waiting = client.get(room_url(series, "tables"), headers={"if-none-match": etag})
    assert waiting.status_code == 200
    assert "offline: 3 deals waiting on the phone" in rows(waiting.content.decode())[2]
    assert "offline" not in rows(waiting.content.decode())[1]

    phone_contact_report(protocol=protocol, grant="phone-1", seat="A", waiting=0, online=True)
    sent = client.get(room_url(series, "tables"), headers={"if-none-match": waiting["ETag"]})
    assert sent.status_code == 200 and "offline" not in rows(sent.content.decode())[2]


def test_a_table_whose_phone_went_quiet_for_3_heartbeats_shows_as_offline_and_for_how_long(client, series, referee):
    client.force_login(referee)
    protocol = Protocol.objects.get(series=series, table=2)
    phone_contact_report(protocol=protocol, grant="phone-1", seat="A", waiting=0, online=True)
    assert "offline" not in rows(client.get(room_url(series, "tables")).content.decode())[2]

    # the phone's last heartbeat 59 s ago (the heartbeat is 20 s): still within its 3 beats
    PhoneContact.objects.update(seen_at=timezone.now() - timedelta(seconds=59))
    assert "offline" not in rows(client.get(room_url(series, "tables")).content.decode())[2]

    PhoneContact.objects.update(seen_at=timezone.now() - timedelta(seconds=61))
    quiet = rows(client.get(room_url(series, "tables")).content.decode())
    assert "offline: no contact for 1 min" in quiet[2] and "offline" not in quiet[1]

    PhoneContact.objects.update(seen_at=timezone.now() - timedelta(minutes=4, seconds=10))
    assert "offline: no contact for 4 min" in rows(client.get(room_url(series, "tables")).content.decode())[2]

    phone_contact_report(protocol=protocol, grant="phone-1", seat="A", waiting=0, online=True)
    assert "offline" not in rows(client.get(room_url(series, "tables")).content.decode())[2]


def test_the_room_page_is_never_kept_by_a_browser_or_a_proxy(client, series, referee):
    client.force_login(referee)
    cache_control = client.get(room_url(series))["Cache-Control"]
    assert "private" in cache_control and "no-cache" in cache_control


def test_starting_the_clock_changes_the_etag(client, series, referee):
    client.force_login(referee)
    etag = client.get(room_url(series, "tables"))["ETag"]
    client.post(room_url(series, "start"))
    assert client.get(room_url(series, "tables"), headers={"if-none-match": etag}).status_code == 200


@pytest.mark.parametrize("tables", [8, 64])
def test_the_poll_takes_the_same_queries_for_few_and_many_tables(
    client, referee, tables, django_assert_max_num_queries, still_clock
):
    tournament = TournamentFactory(time_limit_minutes=55)
    tournament.referees.add(referee)
    series = drawn_series(tournament, tables=tables)
    fill(series, {table: table % 7 for table in range(1, tables + 1)})
    started_ago(series, 10)
    client.force_login(referee)
    client.get(room_url(series, "tables"))  # the session read once
    with django_assert_max_num_queries(7):  # the door, the series, its tables, last deals, phones' reports
        response = client.get(room_url(series, "tables"))
    assert len(rows(response.content.decode())) == tables
    with django_assert_max_num_queries(3):
        assert client.get(room_url(series, "tables"), headers={"if-none-match": response["ETag"]}).status_code == 304
    with django_assert_max_num_queries(7):
        assert len(rows(client.get(room_url(series)).content.decode())) == tables


def test_a_second_referee_gets_the_fragment_built_already_and_the_organiser_their_own(
    client, series, referee, organiser
):
    second = UserFactory()
    series.tournament.referees.add(second)
    started_ago(series, 56)
    client.force_login(referee)
    built = client.get(room_url(series, "tables"))
    assert "Stop the" not in built.content.decode()  # stopping tables is the organiser's

    client.force_login(second)
    client.get(reverse("home"))  # the session read once
    with CaptureQueriesContext(connection) as queries:
        again = client.get(room_url(series, "tables"))
    assert again.content == built.content and again["ETag"] == built["ETag"]
    assert not [q for q in queries.captured_queries if "results_dealrow" in q["sql"]]  # nothing was built

    client.force_login(organiser)
    assert "Stop the 5 tables still playing" in client.get(room_url(series, "tables")).content.decode()


# --- the end of time -------------------------------------------------------------------


def test_at_zero_the_organiser_confirms_and_only_the_unfinished_tables_are_stopped(client, series, organiser):
    client.force_login(organiser)
    fill(series, {1: 30, 2: 40, 3: 40, 4: 0})
    Protocol.objects.filter(series=series, table=2).update(status="complete")
    Protocol.objects.filter(series=series, table=3).update(status="confirmed")
    started_ago(series, 56)
    tables_page = client.get(room_url(series, "tables")).content.decode()
    assert "Stop the 3 tables still playing" in tables_page

    confirm = client.get(room_url(series, "time_up")).content.decode()
    assert not Protocol.objects.filter(series=series, ended_early=True).exists()  # asking changed nothing
    assert re.findall(r'name="table" value="(\d+)"', confirm) == ["1", "4", "5"]

    response = client.post(room_url(series, "time_up"), {"table": ["1", "4", "5"]})
    assert response.status_code == 302
    stopped = Protocol.objects.filter(series=series, ended_early=True)
    assert sorted(stopped.values_list("table", flat=True)) == [1, 4, 5]
    assert ProtocolEvent.objects.filter(action="time_limit", user=organiser).count() == 3
    assert all(p.version == 1 for p in stopped)  # a page opened before must be reloaded

    client.post(room_url(series, "time_up"), {"table": ["1", "4", "5"]})  # a retry changes nothing
    assert ProtocolEvent.objects.filter(action="time_limit").count() == 3
    assert "Stop the" not in client.get(room_url(series, "tables")).content.decode()


def test_a_table_completed_after_the_confirmation_page_is_left_alone(client, series, organiser):
    client.force_login(organiser)
    started_ago(series, 56)
    Protocol.objects.filter(series=series, table=2).update(status="complete")
    client.post(room_url(series, "time_up"), {"table": ["1", "2"]})
    assert list(Protocol.objects.filter(series=series, ended_early=True).values_list("table", flat=True)) == [1]


def test_before_the_time_is_up_no_table_is_stopped(client, series, organiser):
    client.force_login(organiser)
    started_ago(series, 30)
    asking = client.get(room_url(series, "time_up")).content.decode()
    assert "not up yet" in asking and 'name="table"' not in asking
    client.post(room_url(series, "time_up"), {"table": ["1", "2"]})
    assert not Protocol.objects.filter(series=series, ended_early=True).exists()
    started_ago(series, 56, limit=None)  # a clock without a limit never runs out
    client.post(room_url(series, "time_up"), {"table": ["1", "2"]})
    assert not Protocol.objects.filter(series=series, ended_early=True).exists()


def test_a_new_limit_set_before_the_start_reaches_the_polling_room(client, series, referee):
    client.force_login(referee)
    etag = client.get(room_url(series, "tables"))["ETag"]
    series.tournament.time_limit_minutes = 60
    series.tournament.save()
    after = client.get(room_url(series, "tables"), headers={"if-none-match": etag})
    assert after.status_code == 200 and "Limit 60 min" in after.content.decode()
