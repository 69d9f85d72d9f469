"""In a real browser at 1366 and 390 px (issue 25): a player signs up online from the tournament's
public page and cancels through the private link; the organiser confirms sign-ups into
registrations. axe-core checks every page visited for accessibility violations."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from league.signups import services
from league.signups.models import SignUp
from players.models import Player
from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-signups")
PASSWORD = "haslo-na-zapisy"


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def looks_right(page) -> None:
    """The page fits the screen and axe-core finds no violation on it."""
    assert fits_the_screen(page), page.url
    accessible(page)


def coming_tournament(**window):
    organiser = UserFactory(username="organizator")
    organiser.set_password(PASSWORD)
    organiser.save()
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    tournament = TournamentFactory(
        name="Turniej Mikołajkowy", date=timezone.localdate() + timedelta(days=10), published=True
    )
    tournament.organisers.add(organiser)
    services.signup_window_save(
        tournament=tournament,
        user=organiser,
        page="/test/",
        **{
            "is_open": True,
            "closes_at": timezone.now() + timedelta(days=7),
            "capacity": 20,
            "waiting_list": True,
            "note": "Wpisowe 20 zł.",
        }
        | window,
    )
    return tournament, organiser


def test_a_player_signs_up_from_the_tournament_page_and_cancels(page, live_server, mailoutbox):
    tournament, _organiser = coming_tournament()
    PlayerFactory(first_name="Żaneta", last_name="Kąkol", club=ClubFactory(name="Gryf Wejherowo", city="Wejherowo"))
    viewport = "phone" if page.viewport_size["width"] < 600 else "desktop"

    page.goto(live_server.url + reverse("public:tournament", args=[tournament.slug]))
    looks_right(page)
    page.locator("#signup-invitation").get_by_role("link", name="Zgłoś się").click()
    page.get_by_label("Znajdź siebie w rejestrze").fill("kakol")  # a phone's keyboard without Polish letters
    page.get_by_role("button", name="Szukaj").click()
    found = page.locator("#found li", has_text="Żaneta Kąkol")
    assert "Gryf Wejherowo, Wejherowo" in found.inner_text()
    looks_right(page)
    shot(page, f"{viewport}-search")
    found.get_by_role("link", name="To ja").click()
    page.get_by_label("E-mail").fill("zaneta@example.org")
    looks_right(page)
    shot(page, f"{viewport}-form")
    page.get_by_role("button", name="Zgłoś się").click()

    page.get_by_text("Dziękujemy: zgłoszenie przyjęte.").wait_for()
    assert page.locator("#signup-status").inner_text().startswith("Stan: nowe")
    looks_right(page)
    shot(page, f"{viewport}-signed-up")
    signup = SignUp.objects.get()
    assert signup.player.last_name == "Kąkol" and signup.email == "zaneta@example.org"
    (mail,) = mailoutbox
    assert mail.to == ["zaneta@example.org"] and page.url in mail.body

    page.get_by_role("button", name="Anuluj moje zgłoszenie").click()
    page.get_by_text("Anulować zgłoszenie?").wait_for()  # one tap asks first
    assert SignUp.objects.get().status != SignUp.Status.CANCELLED
    looks_right(page)
    page.screenshot(path=f"/tmp/shots/signup-cancel-{page.viewport_size['width']}.png", full_page=True)
    page.get_by_role("button", name="Tak, anuluj moje zgłoszenie").click()
    page.get_by_text("Twoje zgłoszenie zostało anulowane.").wait_for()
    assert "anulowane" in page.locator("#signup-status").inner_text()
    looks_right(page)
    assert SignUp.objects.get().status == SignUp.Status.CANCELLED


def test_the_organiser_confirms_sign_ups_into_registrations(page, live_server):
    tournament, _organiser = coming_tournament()
    known = PlayerFactory(first_name="Jan", last_name="Bork")
    common = {"tournament": tournament, "page": "/t/", "gender": "F", "phone": "600 100 200"}
    services.signup_create(**common, form_token="a", player=known, first_name="", last_name="")
    services.signup_create(**common, form_token="b", first_name="Grażyna", last_name="Kiedrowska")
    services.signup_create(**common, form_token="c", first_name="Ola", last_name="Hinz")
    viewport = "phone" if page.viewport_size["width"] < 600 else "desktop"
    registrations = reverse("tournaments:registrations", args=[tournament.slug])

    page.goto(live_server.url + reverse("login") + "?next=" + registrations)
    page.locator("#id_username").fill("organizator")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Zaloguj").click()
    page.wait_for_url(f"**{registrations}")
    page.get_by_role("link", name="Zapisy online").click()
    page.get_by_role("link", name="Zmień ustawienia zapisów").click()
    page.get_by_label("Liczba miejsc").fill("2")
    looks_right(page)
    shot(page, f"{viewport}-window")
    page.get_by_role("button", name="Zapisz").click()
    page.get_by_text("Zapisano ustawienia zapisów.").wait_for()
    assert "2 miejsca; potem lista rezerwowa." in page.content()
    assert "nowe: 3" in page.locator("#signup-counts").inner_text()
    looks_right(page)
    shot(page, f"{viewport}-organiser-list")

    page.get_by_label("Zaznacz: Jan Bork").check()
    page.get_by_label("Zaznacz: Grażyna Kiedrowska").check()
    page.get_by_label("Kim jest Grażyna Kiedrowska").select_option(label="nowy zawodnik")
    page.get_by_role("button", name="✓ Potwierdź zaznaczone").click()
    page.get_by_text("Potwierdzono i zarejestrowano: 2.").wait_for()
    counts = page.locator("#signup-counts").inner_text()
    assert "nowe: 1" in counts and "potwierdzone: 2" in counts and "rezerwowe: 0" in counts
    looks_right(page)
    shot(page, f"{viewport}-organiser-confirmed")

    registered = set(tournament.registrations.values_list("player__last_name", flat=True))
    assert registered == {"Bork", "Kiedrowska"}
    assert Player.objects.filter(last_name="Kiedrowska").count() == 1


@pytest.mark.parametrize("page", ["phone"], indirect=True)
def test_a_player_who_types_a_name_of_the_register_is_asked_before_anything_is_sent(page, live_server):
    tournament, _organiser = coming_tournament()
    known = PlayerFactory(first_name="Łucja", last_name="Żmuda", club=ClubFactory(name="Piast Gorzów"))

    page.goto(live_server.url + reverse("signups:signup", args=[tournament.slug]))
    page.get_by_label("Imię").fill("Lucja")
    page.get_by_label("Nazwisko").fill("Zmuda")
    page.get_by_label("Płeć").select_option(label="kobieta")
    page.get_by_label("Telefon").fill("600 100 200")
    page.get_by_role("button", name="Zgłoś się").click()

    candidates = page.locator("#candidates")
    candidates.get_by_text("Łucja Żmuda").wait_for()
    assert not SignUp.objects.exists()
    looks_right(page)
    shot(page, "phone-candidates")
    candidates.get_by_role("button", name="To ja").click()
    page.get_by_text("Dziękujemy: zgłoszenie przyjęte.").wait_for()
    signup = SignUp.objects.get()
    assert (signup.player, signup.phone) == (known, "600 100 200")
    assert Player.objects.count() == 1
