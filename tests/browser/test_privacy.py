"""In a real browser at 1366 and 390 px (issue 43): the sign-up form tells the person, briefly, who
keeps their data and why, links the league's privacy notice and asks an unticked consent to be
contacted; the sign-up records both. axe-core checks every page visited."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from league.signups import services
from league.signups.models import SignUp
from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import LeagueFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-privacy")


def looks_right(page, name: str) -> None:
    """The page fits the screen, axe-core finds no violation on it, and a screenshot is kept."""
    assert fits_the_screen(page), page.url
    accessible(page)
    SHOTS.mkdir(exist_ok=True)
    viewport = "phone" if page.viewport_size["width"] < 600 else "desktop"
    page.screenshot(path=str(SHOTS / f"{viewport}-{name}.png"), full_page=True)


def test_the_sign_up_tells_the_notice_and_asks_the_consent_unticked(page, live_server):
    league = LeagueFactory(name="Liga Kaszubska", slug="liga-kaszubska")
    tournament = TournamentFactory(
        name="Turniej Mikołajkowy", date=timezone.localdate() + timedelta(days=10), published=True, league=league
    )
    services.signup_window_save(
        tournament=tournament,
        user=UserFactory(),
        page="/test/",
        is_open=True,
        closes_at=timezone.now() + timedelta(days=7),
        capacity=None,
        waiting_list=True,
        note="",
    )
    page.goto(live_server.url + reverse("signups:signup", args=[tournament.slug]))
    notice = page.locator("#privacy-notice")
    assert "Organizatorzy ligi „Liga Kaszubska”" in notice.inner_text()
    assert "30 dni po turnieju" in notice.inner_text()
    consent = page.get_by_label("Zgadzam się na kontakt organizatora ze mną")
    assert not consent.is_checked()
    looks_right(page, "signup-form")

    page.get_by_label("Imię").fill("Żaneta")
    page.get_by_label("Nazwisko").fill("Kąkol")
    page.get_by_label("Płeć").select_option("F")
    page.get_by_label("E-mail").fill("zaneta@example.org")
    consent.check()
    page.get_by_role("button", name="Zgłoś się").click()
    page.wait_for_url("**/zgloszenie/*/")
    signup = SignUp.objects.get()
    assert (signup.contact_consent, signup.privacy_notice.version) == (True, 1)

    page.goto(live_server.url + reverse("signups:signup", args=[tournament.slug]))
    notice.get_by_role("link", name="Pełna klauzula informacyjna").click()
    page.wait_for_url("**/liga/liga-kaszubska/prywatnosc/")
    assert "Wersja 1 z" in page.locator("#notice-version").inner_text()
    looks_right(page, "league-notice")
    page.locator("footer").get_by_role("link", name="Prywatność").click()
    page.wait_for_url("**/prywatnosc/")
    looks_right(page, "installation-notice")
