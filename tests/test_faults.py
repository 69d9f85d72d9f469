"""Faults: the database dropping connections, the broker down, a print worker killed.

Runs on SQLite and on PostgreSQL; the tests that kill a server connection need
PostgreSQL (``DATABASE_URL=postgres://…``) and are skipped elsewhere.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import OperationalError, close_old_connections, connection
from django.test import Client
from django.urls import include, path, reverse
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

import league.urls
from league.celery import app as celery_app
from league.models import Series, TableAssignment, Tournament
from league.printing import tasks as printing_tasks
from league.printing.models import STALE_AFTER, STOPPED_MESSAGE, PrintJob
from league.results import services
from league.results.models import DealRow, DealRowVersion, Protocol
from league.standings import tasks
from league.standings.cache import stamps, tournament_rankings
from league.standings.refresh import standings_touch
from tests.factories import PlayerFactory, TournamentFactory, UserFactory, table_protocols

# The project's URLs with the printing app and the 500 handler the lead wires in.
urlpatterns = [path("turnieje/", include("league.printing.urls")), *league.urls.urlpatterns]
handler500 = "league.errors.server_error"
MIDDLEWARE = "league.errors.DatabaseUnavailableMiddleware"

on_postgres = pytest.mark.skipif(connection.vendor != "postgresql", reason="kills a PostgreSQL backend")
pytestmark = pytest.mark.urls(__name__)


@pytest.fixture
def with_middleware(settings):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, MIDDLEWARE]


@pytest.fixture
def series() -> Series:
    tournament = TournamentFactory(deals_per_series=4)
    series = Series.objects.create(tournament=tournament, number=1, status=Series.Status.IN_PLAY)
    for seat in "ABCD":
        TableAssignment.objects.create(series=series, table=1, seat=seat, player=PlayerFactory())
    table_protocols(series)
    return series


def table_url(protocol: Protocol, name: str = "protocol") -> str:
    s = protocol.series
    return reverse(f"table:{name}", args=[s.tournament.slug, s.number, protocol.table])


def phone(protocol: Protocol) -> Client:
    client = Client()
    assert client.post(table_url(protocol, "pin"), {"pin": protocol.pin, "seat": "A"}).status_code == 302
    return client


def save(client: Client, protocol: Protocol, line: str = "ac60"):
    protocol.refresh_from_db()
    data = {"number": protocol.rows.count() + 1, "version": protocol.version, "line": line}
    return client.post(table_url(protocol, "save"), data)


def assert_consistent(protocol: Protocol, count: int) -> None:
    """``count`` rows numbered 1..count, each added once, version = writes."""
    protocol.refresh_from_db()
    assert list(protocol.rows.values_list("number", flat=True)) == list(range(1, count + 1))
    assert DealRowVersion.objects.filter(protocol=protocol).count() == count
    assert protocol.version == count
    for row in protocol.rows.all():
        assert sum(row.values.values()) == 0


# --- (a) the database drops the connection ---------------------------------------


def _terminate(pid: int) -> None:
    """Kill backend ``pid`` from a second, independent connection."""
    import psycopg

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(
        **{k: v for k, v in params.items() if k in {"host", "port", "user", "password", "dbname"}}, autocommit=True
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.mark.django_db
def test_a_database_error_in_a_view_is_a_clear_503_and_nothing_is_written(series, with_middleware, monkeypatch):
    protocol = series.protocols.get()
    client = phone(protocol)

    def lost(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services, "protocol_row_save", lost)
    response = save(client, protocol)
    assert response.status_code == 503 and response["Retry-After"]
    page = response.content.decode()
    assert "<h1>" in page and "Traceback" not in page and "OperationalError" not in page
    assert DealRow.objects.count() == 0


@pytest.mark.django_db
def test_the_500_handler_answers_a_database_error_elsewhere_with_the_same_page(series, monkeypatch):
    protocol = series.protocols.get()
    client = phone(protocol)
    client.raise_request_exception = False
    monkeypatch.setattr(services, "protocol_row_save", lambda **kw: (_ for _ in ()).throw(OperationalError("gone")))
    assert save(client, protocol).status_code == 503
    monkeypatch.setattr(services, "protocol_row_save", lambda **kw: (_ for _ in ()).throw(RuntimeError("bug")))
    assert save(client, protocol).status_code == 500


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_a_connection_killed_between_requests_is_replaced(series):
    """CONN_HEALTH_CHECKS: the request after a dropped connection reconnects and succeeds."""
    protocol = series.protocols.get()
    client = phone(protocol)
    assert save(client, protocol).status_code == 302
    connection.ensure_connection()
    _terminate(connection.connection.info.backend_pid)
    close_old_connections()  # what Django does when a request starts (the test client skips it)
    assert save(client, protocol, "bd40").status_code == 302
    assert_consistent(protocol, 2)


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_a_connection_killed_during_a_save_rolls_it_back_whole(series, with_middleware, monkeypatch):
    protocol = series.protocols.get()
    client = phone(protocol)
    assert save(client, protocol).status_code == 302
    write_rows = services.deal_rows_write

    def killed_midway(protocol, rows, deals, result):
        write_rows(protocol, rows, deals, result)  # the row is written inside the transaction...
        _terminate(connection.connection.info.backend_pid)  # ...then the server drops us

    monkeypatch.setattr(services, "deal_rows_write", killed_midway)
    response = save(client, protocol, "bd40")
    assert response.status_code == 503 and "Traceback" not in response.content.decode()
    monkeypatch.setattr(services, "deal_rows_write", write_rows)
    close_old_connections()
    assert_consistent(protocol, 1)  # the version bump, the row and the history all rolled back

    # the phone sends the same form again (old version): it goes through, exactly once
    assert save(client, protocol, "bd40").status_code == 302
    assert_consistent(protocol, 2)
    assert save(client, protocol, "bd40").status_code == 302  # a genuinely new third deal
    assert_consistent(protocol, 3)


# --- (b) the broker is down ----------------------------------------------------


@pytest.fixture
def broker_down(monkeypatch):
    """Tasks go to a broker on a closed port, as when Redis is down."""
    conf = celery_app.conf
    closed_port = "redis://127.0.0.1:1/0"
    saved = {key: conf[key] for key in ("task_always_eager", "broker_url", "broker_read_url", "broker_write_url")}
    # with CELERY_BROKER_URL set Celery also fills the read/write URLs, which win over broker_url
    conf.update(
        task_always_eager=False, broker_url=closed_port, broker_read_url=closed_port, broker_write_url=closed_port
    )
    # drop pooled connections to the real broker, if a test before us made any
    monkeypatch.setattr(celery_app, "_pool", None)
    monkeypatch.setattr(celery_app.amqp, "_producer_pool", None)
    yield
    conf.update(saved)


@pytest.mark.slow
@pytest.mark.django_db
def test_delay_fails_against_a_closed_broker_port(broker_down, monkeypatch):
    """The premise of the tests below: the real publish raises kombu's OperationalError."""
    monkeypatch.setattr(tasks.recompute_standings, "run", lambda tournament_id: None)
    with pytest.raises(BrokerError):
        tasks.recompute_standings.apply_async((1,), retry=False)


@pytest.mark.django_db
def test_with_the_broker_down_a_saved_deal_still_succeeds_and_standings_are_computed(
    series, broker_down, django_capture_on_commit_callbacks, django_assert_num_queries
):
    protocol = series.protocols.get()
    client = phone(protocol)
    with django_capture_on_commit_callbacks(execute=True):
        assert save(client, protocol).status_code == 302
        standings_touch(tournament_id=series.tournament_id)
    assert_consistent(protocol, 1)
    # computed in-process instead of by the worker: the next reader only reads the stamp
    tournament = Tournament.objects.get(pk=series.tournament_id)
    with django_assert_num_queries(1):
        tournament_rankings(tournament)


@pytest.mark.django_db
def test_with_the_broker_down_standings_touch_never_raises(series, monkeypatch, django_capture_on_commit_callbacks):
    def refuse(*args, **kwargs):
        raise BrokerError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    computed = []
    monkeypatch.setattr(tasks.recompute_standings, "delay", refuse)
    monkeypatch.setattr(tasks.recompute_standings, "run", computed.append)
    with django_capture_on_commit_callbacks(execute=True):
        standings_touch(tournament_id=series.tournament_id)
    assert computed == [series.tournament_id]

    monkeypatch.setattr(tasks.recompute_standings, "run", lambda tid: 1 / 0)  # even a failing fallback
    with django_capture_on_commit_callbacks(execute=True):
        standings_touch(tournament_id=series.tournament_id)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # printed in a thread, which must see the committed job
def test_with_the_broker_down_a_batch_print_still_gives_the_file(client, series, broker_down, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    organiser = UserFactory()
    series.tournament.organisers.add(organiser)
    client.force_login(organiser)

    response = client.post(reverse("printing:protocols_job", args=[series.tournament.slug, series.number]))
    printing_tasks.wait_for_background_prints()

    job = PrintJob.objects.get()
    assert response.status_code == 302 and response.url == reverse(
        "printing:job", args=[series.tournament.slug, job.pk]
    )
    assert job.status == PrintJob.Status.DONE and job.file  # printed here instead of by the worker


def test_every_task_is_queued_through_the_fallback():
    """A bare ``.delay`` is a server error whenever the broker is down (see league.queueing)."""
    from pathlib import Path

    import league

    root = Path(league.__file__).parent
    bare = [
        str(p.relative_to(root)) for p in root.rglob("*.py") if ".delay(" in p.read_text() and p.name != "queueing.py"
    ]
    assert bare == []


@pytest.mark.django_db
def test_deals_of_an_open_series_leave_the_public_standings_cached(series):
    """Under load every deal saved in the hall must not throw the published standings out of the cache."""
    tournament = Tournament.objects.get(pk=series.tournament_id)
    before = stamps(Tournament.objects.filter(pk=tournament.pk))[tournament.pk]
    protocol = series.protocols.get()
    services.protocol_row_save(
        protocol=protocol,
        number=1,
        deal={"values": {"A": 3, "B": -3, "C": 0, "D": 0}},
        expected_version=protocol.version,
        author="test",
    )
    assert stamps(Tournament.objects.filter(pk=tournament.pk))[tournament.pk] == before


# --- (c) a print worker killed mid-PDF -------------------------------------------


@pytest.fixture
def organiser(client, series):
    user = UserFactory()
    series.tournament.organisers.add(user)
    client.force_login(user)
    return user


@pytest.fixture(autouse=False)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def dead_job(series: Series, minutes: float) -> PrintJob:
    """A job its worker left "printing" at table 12 of 64 ``minutes`` ago."""
    job = PrintJob.objects.create(
        series=series, kind=PrintJob.Kind.PROTOCOLS, status=PrintJob.Status.RUNNING, progress=12, total=64
    )
    PrintJob.objects.filter(pk=job.pk).update(updated=timezone.now() - timedelta(minutes=minutes))
    job.refresh_from_db()
    return job


@pytest.mark.django_db
def test_a_job_still_moving_keeps_printing(client, series, organiser):
    job = dead_job(series, minutes=1)
    page = client.get(reverse("printing:job", args=[series.tournament.slug, job.pk])).content.decode()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.RUNNING and "hx-trigger" in page


@pytest.mark.django_db(transaction=True)
def test_a_job_left_running_by_a_dead_worker_says_so_and_can_be_restarted(client, series, organiser, media_root):
    slug = series.tournament.slug
    job = dead_job(series, minutes=STALE_AFTER.total_seconds() / 60 + 1)
    page = client.get(reverse("printing:job", args=[slug, job.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert str(STOPPED_MESSAGE) in page and "hx-trigger" not in page  # the page says so and stops polling
    job.refresh_from_db()
    assert job.status == PrintJob.Status.RUNNING  # a GET writes nothing

    response = client.post(reverse("printing:restart_job", args=[slug, job.pk]))
    printing_tasks.wait_for_background_prints()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED and job.error == str(STOPPED_MESSAGE)  # given up by the restart
    new = PrintJob.objects.exclude(pk=job.pk).get()
    assert response.url == reverse("printing:job", args=[slug, new.pk])
    assert new.status == PrintJob.Status.DONE and new.file  # printed (eagerly) in full

    # the dead worker's message is delivered again (acks_late): it must not print a second copy
    printing_tasks.print_series_protocols(job.pk, "http://testserver/")
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED and not job.file
    assert [p.name for p in (media_root / "printing").iterdir()] == [new.file.name.rsplit("/", 1)[-1]]


@pytest.mark.django_db
def test_a_job_given_up_while_its_slow_worker_goes_on_leaves_no_file(series, media_root, monkeypatch):
    """The worker was only slow: once its job is given up it stops and deletes its half-done output."""
    job = PrintJob.objects.create(series=series, kind=PrintJob.Kind.PROTOCOLS)
    real_merge = printing_tasks.documents.merge_pdfs

    def give_up_then_merge(parts):
        PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.FAILED, error="stopped")
        return real_merge(parts)

    monkeypatch.setattr(printing_tasks.documents, "merge_pdfs", give_up_then_merge)
    printing_tasks.print_series_protocols(job.pk, "http://testserver/")
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED and not job.file
    assert not (media_root / "printing").exists() or not list((media_root / "printing").iterdir())


@pytest.mark.django_db
def test_a_running_job_cannot_be_restarted_twice(client, series, organiser):
    job = dead_job(series, minutes=1)
    response = client.post(reverse("printing:restart_job", args=[series.tournament.slug, job.pk]))
    assert response.url == reverse("printing:job", args=[series.tournament.slug, job.pk])
    assert PrintJob.objects.count() == 1
