"""The print screens: who may print, the PDF responses and the batch job."""

from __future__ import annotations

import threading

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from league.models import Series
from league.printing import documents, layout, tasks
from league.printing.models import STALE_AFTER, STOPPED_MESSAGE, PrintJob
from league.results.models import DealRow, Protocol
from league.standings.refresh import standings_touch
from scoring import SEATS
from tests.factories import TournamentFactory, UserFactory
from tests.printing.test_documents import (
    page_footer,
    page_footers,
    pdf_pages,
    pdf_text,
    seated_tournament,
)
from tests.results.test_reads import writes_nothing

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Finished print jobs write files; keep them out of the real media folder."""
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def tournament():
    tournament, _series = seated_tournament()
    return tournament


@pytest.fixture
def organiser(client, tournament):
    user = UserFactory()
    tournament.organisers.add(user)
    client.force_login(user)
    return user


def documents_of(slug: str) -> list[str]:
    return [
        reverse("printing:index", args=[slug]),
        reverse("printing:registrations", args=[slug]),
        reverse("printing:table_list", args=[slug, 1]),
        reverse("printing:protocol", args=[slug, 1, 1]),
        reverse("printing:blank_protocol", args=[slug]),
    ]


def test_anonymous_users_are_sent_to_log_in(client, tournament) -> None:
    for url in documents_of(tournament.slug):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_other_users_are_refused(client, tournament) -> None:
    client.force_login(UserFactory())
    for url in documents_of(tournament.slug):
        assert client.get(url).status_code == 403
    assert client.post(reverse("printing:protocols_job", args=[tournament.slug, 1])).status_code == 403


def test_referee_may_print(client, tournament) -> None:
    referee = UserFactory()
    tournament.referees.add(referee)
    client.force_login(referee)
    assert client.get(reverse("printing:index", args=[tournament.slug])).status_code == 200


def test_print_page_lists_the_documents(client, tournament, organiser) -> None:
    page = client.get(reverse("printing:index", args=[tournament.slug])).content.decode()
    for url in documents_of(tournament.slug)[1:]:
        assert url in page
    assert reverse("printing:protocols_job", args=[tournament.slug, 1]) in page


def test_documents_are_pdfs_with_file_names(client, tournament, organiser) -> None:
    response = client.get(reverse("printing:table_list", args=[tournament.slug, 1]))
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="puchar-wojta-stoliki-seria-1.pdf"' in response["Content-Disposition"]
    assert "918273645" in pdf_text(response.content)

    response = client.get(reverse("printing:registrations", args=[tournament.slug]) + "?by=team")
    assert "druzyny" in response["Content-Disposition"]
    assert "Drużyna Zażółć" in pdf_text(response.content)


def test_protocol_of_a_missing_table_or_undrawn_series_is_not_found(client, tournament, organiser) -> None:
    assert client.get(reverse("printing:protocol", args=[tournament.slug, 1, 99])).status_code == 404
    assert client.get(reverse("printing:table_list", args=[tournament.slug, 2])).status_code == 404


def test_protocol_qr_uses_the_address_the_organiser_came_from(client, tournament, organiser) -> None:
    response = client.get(reverse("printing:protocol", args=[tournament.slug, 1, 2]))
    assert f"PIN: {Protocol.objects.get(series__number=1, table=2).pin}" in pdf_text(response.content)


def a_deal_at_each_table(series) -> None:
    """Table 1's A leads with +30; table 2 is close."""
    for table, values in ((1, (30, -10, -10, -10)), (2, (-4, 4, -4, 4))):
        DealRow.objects.create(
            protocol=Protocol.objects.get(series=series, table=table),
            number=1,
            deal={"contract": "zolo", "values": dict(zip(SEATS, values, strict=True))},
            **{f"value_{seat.lower()}": value for seat, value in zip(SEATS, values, strict=True)},
        )


def test_results_sheets_from_closed_published_protocols(client, tournament, organiser) -> None:
    series = tournament.series.get(number=1)
    a_deal_at_each_table(series)
    # still being played: the wall shows what the website shows, nothing yet
    response = client.get(reverse("printing:results", args=[tournament.slug]))
    assert response["Content-Type"] == "application/pdf"
    assert "Żaneta" not in pdf_text(response.content)

    Series.objects.filter(pk=series.pk).update(status=Series.Status.CLOSED, results_published=True)
    standings_touch(tournament_id=tournament.pk)  # as closing the series and publishing its results do
    text = " ".join(pdf_text(client.get(reverse("printing:results", args=[tournament.slug])).content).split())
    assert "1. Żaneta Wójcik-Łęcka Drużyna Zażółć" in text  # +30 at table 1 leads
    assert "40" in text and "Kościerzyna" in text


# A job prints in a thread of its own (no broker: the embedded default), which sees only committed
# rows: the tests of whole jobs commit theirs (``transaction=True``) and wait for the thread.
PRINTED_IN_A_THREAD = pytest.mark.django_db(transaction=True)


@pytest.mark.slow
@PRINTED_IN_A_THREAD
def test_series_protocols_job_completes_with_progress_and_a_download(client, tournament, organiser) -> None:
    response = client.post(reverse("printing:protocols_job", args=[tournament.slug, 1]))
    tasks.wait_for_background_prints()
    job = PrintJob.objects.get()
    assert response.url == reverse("printing:job", args=[tournament.slug, job.pk])
    assert (job.status, job.progress, job.total) == (PrintJob.Status.DONE, 2, 2)
    assert job.file.name == "printing/puchar-wojta-protokoly-seria-1.pdf" and job.requested_by == organiser

    page = client.get(response.url).content.decode()
    assert reverse("printing:job_file", args=[tournament.slug, job.pk]) in page
    assert "every 1s" not in page  # finished: the page stops polling

    download = client.get(reverse("printing:job_file", args=[tournament.slug, job.pk]))
    content = b"".join(download.streaming_content)
    assert pdf_pages(content) == 4  # two tables, two pages each
    text = pdf_text(content)
    assert "Żaneta Wójcik-Łęcka" in text
    assert text.count("PIN:") == 2


def a_counted_series(tournament) -> None:
    """Series 1 played (a deal at each table), closed and its results published."""
    series = tournament.series.get(number=1)
    a_deal_at_each_table(series)
    Series.objects.filter(pk=series.pk).update(status=Series.Status.CLOSED, results_published=True)


@pytest.mark.slow
@PRINTED_IN_A_THREAD
def test_a_large_tournaments_results_sheets_go_to_the_worker_and_the_click_answers_at_once(
    client, tournament, organiser, monkeypatch
) -> None:
    monkeypatch.setattr(documents, "RESULTS_IN_REQUEST_PLAYERS", 4)  # the 8 players are "many"
    a_counted_series(tournament)
    index = client.get(reverse("printing:index", args=[tournament.slug])).content.decode()
    assert reverse("printing:results_job", args=[tournament.slug]) in index
    assert reverse("printing:results", args=[tournament.slug]) not in index
    # the address of the sheets laid out in the request leads to the printing page instead
    assert client.get(reverse("printing:results", args=[tournament.slug])).url == reverse(
        "printing:index", args=[tournament.slug]
    )

    response = client.post(reverse("printing:results_job", args=[tournament.slug]))
    tasks.wait_for_background_prints()

    job = PrintJob.objects.get()
    assert response.url == reverse("printing:job", args=[tournament.slug, job.pk])
    assert (job.kind, job.status, job.series.number, job.total) == ("results", PrintJob.Status.DONE, 1, 1)
    content = b"".join(client.get(reverse("printing:job_file", args=[tournament.slug, job.pk])).streaming_content)
    assert "1. Żaneta Wójcik-Łęcka" in " ".join(pdf_text(content).split())
    assert job.file.name == "printing/puchar-wojta-wyniki.pdf"


def test_a_large_tournament_with_nothing_counted_yet_offers_no_results_to_print(
    client, tournament, organiser, monkeypatch
) -> None:
    monkeypatch.setattr(documents, "RESULTS_IN_REQUEST_PLAYERS", 4)

    index = client.get(reverse("printing:index", args=[tournament.slug])).content.decode()

    assert reverse("printing:results_job", args=[tournament.slug]) not in index
    assert "once a series is closed with its results published" in index
    assert client.post(reverse("printing:results_job", args=[tournament.slug])).status_code == 404
    assert not PrintJob.objects.exists()


@pytest.mark.slow
@PRINTED_IN_A_THREAD
def test_series_protocols_job_in_several_documents_keeps_each_tables_page_numbers(client, monkeypatch) -> None:
    tournament, _series = seated_tournament(tables=3)
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    monkeypatch.setattr(tasks, "TABLES_PER_DOCUMENT", 2)  # tables 1–2 in one document, 3 in the next
    client.post(reverse("printing:protocols_job", args=[tournament.slug, 1]))
    tasks.wait_for_background_prints()
    job = PrintJob.objects.get()
    assert (job.status, job.progress, job.total) == (PrintJob.Status.DONE, 3, 3)
    content = b"".join(client.get(reverse("printing:job_file", args=[tournament.slug, job.pk])).streaming_content)
    assert [footer for _title, footer in page_footers(content)] == [page_footer(1, 2), page_footer(2, 2)] * 3
    assert [title for title, _footer in page_footers(content)] == [
        _("Table protocol: series %(series)s, table %(table)s") % {"series": 1, "table": table}
        for table in (1, 1, 2, 2, 3, 3)
    ]


@PRINTED_IN_A_THREAD
def test_without_a_broker_the_click_returns_at_once_and_the_page_shows_the_job_printing(
    client, tournament, organiser, monkeypatch
) -> None:
    """The organiser's click does not wait for the PDF: the job page answers while the tables are laid out."""
    laying_out, go_on = threading.Event(), threading.Event()
    real_layout = layout.html_to_pdf

    def held_layout(chunk):
        laying_out.set()
        assert go_on.wait(30)
        return real_layout(chunk)

    monkeypatch.setattr(layout, "html_to_pdf", held_layout)
    response = client.post(reverse("printing:protocols_job", args=[tournament.slug, 1]))
    try:
        assert laying_out.wait(30)
        job = PrintJob.objects.get()
        assert response.url == reverse("printing:job", args=[tournament.slug, job.pk])
        box = client.get(response.url, HTTP_HX_REQUEST="true").content.decode()
        assert 'hx-trigger="every 1s"' in box and "0 of 2" in box  # polling, the count shown
    finally:
        go_on.set()
        tasks.wait_for_background_prints()
    job.refresh_from_db()
    assert (job.status, job.progress) == (PrintJob.Status.DONE, 2)
    assert "every 1s" not in client.get(response.url, HTTP_HX_REQUEST="true").content.decode()


@PRINTED_IN_A_THREAD
def test_the_printing_thread_gives_back_its_database_connection(client, tournament, organiser, monkeypatch) -> None:
    closed = []
    monkeypatch.setattr(tasks.connections, "close_all", lambda: closed.append(threading.current_thread().name))
    monkeypatch.setattr(tasks, "_claim", lambda job_id: False)  # nothing to print: the thread ends at once
    client.post(reverse("printing:protocols_job", args=[tournament.slug, 1]))
    tasks.wait_for_background_prints()
    assert closed and closed != [threading.current_thread().name]


def test_unfinished_job_polls_and_shows_tables_done(client, tournament, organiser) -> None:
    job = PrintJob.objects.create(
        series=tournament.series.get(number=1),
        kind=PrintJob.Kind.PROTOCOLS,
        status=PrintJob.Status.RUNNING,
        progress=12,
        total=64,
    )
    response = client.get(reverse("printing:job", args=[tournament.slug, job.pk]), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'hx-trigger="every 1s"' in html and "12" in html and "64" in html
    assert "<html" not in html  # htmx gets the progress box alone
    assert client.get(reverse("printing:job_file", args=[tournament.slug, job.pk])).status_code == 404


def test_jobs_of_another_tournament_are_not_found(client, tournament, organiser) -> None:
    job = PrintJob.objects.create(series=tournament.series.get(number=1), kind=PrintJob.Kind.PROTOCOLS)
    elsewhere = TournamentFactory()
    elsewhere.organisers.add(organiser)
    assert client.get(reverse("printing:job", args=[elsewhere.slug, job.pk])).status_code == 404


def test_the_print_pages_and_documents_only_read(client, tournament, organiser) -> None:
    """Printing a protocol reads the PIN the draw made; a stopped job's page says so, and only restarting it writes."""
    series = tournament.series.get(number=1)
    stopped = PrintJob.objects.create(series=series, kind=PrintJob.Kind.PROTOCOLS, status=PrintJob.Status.RUNNING)
    PrintJob.objects.filter(pk=stopped.pk).update(updated=timezone.now() - STALE_AFTER * 2)
    slug = tournament.slug
    with writes_nothing():
        for address in [
            *documents_of(slug),
            reverse("printing:archive", args=[slug, 1, 2]),
            reverse("printing:results", args=[slug]),
            reverse("printing:pins", args=[slug, 1]),
            reverse("printing:pins_pdf", args=[slug, 1]),
        ]:
            assert client.get(address).status_code == 200, address
        page = client.get(reverse("printing:job", args=[slug, stopped.pk])).content.decode()
    assert str(STOPPED_MESSAGE) in page and "hx-trigger" not in page
    stopped.refresh_from_db()
    assert stopped.status == PrintJob.Status.RUNNING
