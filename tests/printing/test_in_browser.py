"""The print screens in a real browser (Debian's Chromium): the PIN page, a batch print's progress."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.urls import reverse

from league.results.models import Protocol
from tests.factories import UserFactory
from tests.printing.test_documents import seated_tournament

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(os.environ.get("PRINTING_SHOTS", "/tmp/shots-printing"))

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


@pytest.mark.parametrize("width", [1366, 390])
def test_the_pin_page_fits_the_screen_and_unlocks_a_locked_table(live_server, monkeypatch, width):
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM_ARGS, fits_the_screen

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    tournament, _series = seated_tournament()
    Protocol.objects.filter(series__number=1, table=2).update(wrong_pins=Protocol.PIN_LOCK_TRIES)
    referee = UserFactory(username="sedzia")
    referee.set_password("haslo-sedziego")
    referee.save()
    tournament.referees.add(referee)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": width, "height": 844}, locale="pl-PL").new_page()
        page.goto(live_server.url + reverse("printing:pins", args=[tournament.slug, 1]))
        page.fill("input[name=username]", "sedzia")
        page.fill("input[name=password]", "haslo-sedziego")
        page.press("input[name=password]", "Enter")
        page.wait_for_selector("#table-2")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"pins-{width}.png"), full_page=True)
        assert fits_the_screen(page)
        # and the table needs no sideways scrolling of its own (on phones a wide one scrolls inside itself)
        assert page.evaluate("(t => t.scrollWidth <= t.clientWidth + 1)(document.querySelector('table.pins'))")
        assert "zablokowany" in page.inner_text("#table-2")

        page.click("#table-2 button:has-text('Odblokuj')")
        page.wait_for_load_state()
        browser.close()
    assert not Protocol.objects.get(series__number=1, table=2).pin_locked


def test_a_batch_print_without_a_broker_shows_its_progress_and_then_the_download(live_server, monkeypatch):
    """The organiser's click returns at once; the job page counts the tables and offers the PDF by itself."""
    import threading

    from playwright.sync_api import sync_playwright

    from league.printing import layout, tasks
    from tests.browser.conftest import CHROMIUM_ARGS

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    # the embedded set-up, also in CI's run with a broker (no worker listens there)
    monkeypatch.setitem(tasks.print_series_protocols.app.conf, "task_always_eager", True)
    go_on = threading.Event()
    real_layout = layout.html_to_pdf
    monkeypatch.setattr(layout, "html_to_pdf", lambda chunk: go_on.wait(30) and real_layout(chunk))
    tournament, _series = seated_tournament()
    organiser = UserFactory(username="organizator")
    organiser.set_password("haslo-organizatora")
    organiser.save()
    tournament.organisers.add(organiser)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}, locale="pl-PL").new_page()
        page.goto(live_server.url + reverse("printing:index", args=[tournament.slug]))
        page.fill("input[name=username]", "organizator")
        page.fill("input[name=password]", "haslo-organizatora")
        page.press("input[name=password]", "Enter")
        try:
            page.click("button:has-text('Protokoły wszystkich 2 stolików')")
            page.wait_for_selector("#job-progress progress")
            # the page polls: it shows the count once the thread has counted the tables
            page.locator("#job-progress", has_text="0 z 2").wait_for()
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "job-printing.png"), full_page=True)
        finally:
            go_on.set()
        page.wait_for_selector("#job-progress a:has-text('Pobierz PDF')", timeout=30_000)  # htmx polled it in
        page.screenshot(path=str(SHOTS / "job-done.png"), full_page=True)
        browser.close()
    tasks.wait_for_background_prints()


@pytest.mark.parametrize("width", [1366, 390])
def test_a_large_tournaments_results_sheets_print_in_the_background_and_download_from_the_job_page(
    live_server, monkeypatch, width
):
    """More than RESULTS_IN_REQUEST_PLAYERS players: the printing page offers the results as a job,
    the click answers at once with the job's progress, and the PDF with the winner comes when ready."""
    from playwright.sync_api import sync_playwright

    from league.printing import documents, tasks
    from tests.browser.conftest import CHROMIUM_ARGS, accessible, fits_the_screen
    from tests.printing.test_documents import pdf_text
    from tests.printing.test_views import a_counted_series

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    monkeypatch.setitem(tasks.print_series_protocols.app.conf, "task_always_eager", True)
    monkeypatch.setattr(documents, "RESULTS_IN_REQUEST_PLAYERS", 4)  # the 9 players are "many"
    tournament, _series = seated_tournament()
    a_counted_series(tournament)
    organiser = UserFactory(username="organizator")
    organiser.set_password("haslo-organizatora")
    organiser.save()
    tournament.organisers.add(organiser)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": width, "height": 844}, locale="pl-PL").new_page()
        page.goto(live_server.url + reverse("printing:index", args=[tournament.slug]))
        page.fill("input[name=username]", "organizator")
        page.fill("input[name=password]", "haslo-organizatora")
        page.press("input[name=password]", "Enter")
        page.get_by_text("Drukowane w tle").wait_for()
        accessible(page)
        assert fits_the_screen(page)

        page.click("form[action$='/druk/wyniki/'] button:has-text('Arkusze wyników')")
        link = page.locator("#job-progress a:has-text('Pobierz PDF')")
        link.wait_for(timeout=30_000)  # htmx polled it in
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"results-job-{width}.png"), full_page=True)
        accessible(page)
        assert fits_the_screen(page)
        answer = page.context.request.get(live_server.url + link.get_attribute("href"))  # the organiser's session
        assert answer.headers["content-type"] == "application/pdf"
        content = answer.body()
        browser.close()
    tasks.wait_for_background_prints()
    assert "1. Żaneta Wójcik-Łęcka" in " ".join(pdf_text(content).split())
