"""In a real browser at 1366 and 390 px: the organiser brings a tournament played on a laptop to the
league's site (issue 25, "The tournament travels"). The file names Anna Kowalska, whom the register
holds as "ANNA Kowalska" of another club: the preview marks her a probable duplicate, the organiser
keeps her as the stored player and confirms; the imported tournament's screen then downloads the
same file the command writes. axe-core finds nothing on any page visited."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from league.exchange import exchange_file_text
from league.models import Tournament
from tests.browser.conftest import accessible, fits_the_screen
from tests.exchange.files import load
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-travel")
PASSWORD = "haslo-z-sali"


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}-{page.viewport_size['width']}.png"), full_page=True)


def test_the_organiser_uploads_a_file_with_a_probable_duplicate_and_confirms(page, live_server, tmp_path):
    SHOTS.mkdir(exist_ok=True)
    organiser = UserFactory(username="ewa", first_name="Ewa", last_name="Konkel")
    organiser.set_password(PASSWORD)
    organiser.save()
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    anna = PlayerFactory(first_name="ANNA", last_name="Kowalska", club=ClubFactory(name="KS Wejherowo"))
    file = tmp_path / "wieczor-w-sali.json"
    file.write_text(json.dumps(load("small_puck"), ensure_ascii=False), encoding="utf-8")
    page.set_default_timeout(10_000)

    page.goto(live_server.url + reverse("login") + "?next=" + reverse("tournaments:list"))
    page.locator("#id_username").fill("ewa")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Zaloguj").click()
    page.get_by_role("link", name="Wczytaj turniej z pliku").click()
    accessible(page)

    page.get_by_label("Plik wymiany").set_input_files(str(file))
    page.get_by_role("button", name="Pokaż podgląd").click()
    page.wait_for_url(f"**{reverse('exchange:preview')}")
    choice = page.get_by_label("to ANNA Kowalska (KS Wejherowo) z rejestru")
    assert choice.is_checked()  # the stored player is offered first
    assert page.get_by_text("prawdopodobnie ten sam").count() == 1
    assert page.get_by_text("Mały turniej").first.is_visible()
    assert page.locator("tr", has=choice).get_by_role("cell", name="GKS Puck").is_visible()  # the file's club
    assert fits_the_screen(page)
    accessible(page)
    shot(page, "preview")

    page.get_by_label("dodaj nowego zawodnika").check()
    choice.check()  # on second thought: she is the stored ANNA
    page.get_by_role("button", name="Wczytaj turniej").click()
    page.get_by_text("Turniej wczytano jako szkic").wait_for()

    tournament = Tournament.objects.get(slug="maly-turniej")
    assert tournament.registrations.get(external_id="a1").player == anna
    assert fits_the_screen(page)
    accessible(page)
    shot(page, "imported")

    with page.expect_download() as downloaded:
        page.get_by_role("link", name="Pobierz plik wymiany").click()
    assert downloaded.value.suggested_filename == "maly-turniej.json"
    assert Path(downloaded.value.path()).read_text(encoding="utf-8") == exchange_file_text(tournament)

    # the file back from the hall's laptop, with the venue changed: the preview says what changes
    played = json.loads(Path(downloaded.value.path()).read_text(encoding="utf-8"))
    played["tournament"]["venue"] = "Kartuzy, Dom Kultury"
    file.write_text(json.dumps(played, ensure_ascii=False), encoding="utf-8")
    for content, says in ((played, "Miejsce rozgrywek: Puck → Kartuzy, Dom Kultury"), (None, "Nic się nie zmienia")):
        if content is None:  # the tournament's own file, as it is: nothing to choose, nothing to send
            file.write_text(exchange_file_text(tournament), encoding="utf-8")
        page.goto(live_server.url + reverse("exchange:upload"))
        page.get_by_label("Plik wymiany").set_input_files(str(file))
        page.get_by_role("button", name="Pokaż podgląd").click()
        page.get_by_text(says).wait_for()
        if content is None:
            assert page.locator('input[type="radio"]').count() == 0
        assert fits_the_screen(page)
        accessible(page)
        shot(page, "changes" if content else "same-file-again")
