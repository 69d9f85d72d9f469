"""In a real browser: an organiser makes their own rules ("Własne zasady") from the psb preset, sees a
changed zolo value in the grid and the calculator before saving, saves, and runs a tournament on them
(issue 13), at 1366 px and at 390 px."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse
from playwright.sync_api import expect

from league.games.baska.rulesets.models import OwnRuleset
from league.games.baska.settings import own_ruleset_of
from league.models import Series, Tournament
from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import TableAssignmentFactory, UserFactory, game_settings, table_protocols

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/editor")
PASSWORD = "haslo-na-turniej"
NAME = "Liga Kaszubska 2027"


def organiser() -> None:
    """An organiser account as league/demo.py makes one: the league's rooms, no superuser."""
    user = UserFactory(username="organizator", first_name="Ewa", last_name="Organizatorska")
    user.set_password(PASSWORD)
    user.save()
    group, _ = Group.objects.get_or_create(name="Organizatorzy")
    group.permissions.set(
        Permission.objects.filter(content_type__app_label__in=["players", "league", "results", "printing"])
    )
    user.groups.add(group)


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)


def test_an_organiser_makes_own_rules_and_plays_a_tournament_on_them(page, live_server):
    organiser()
    page.set_default_timeout(10_000)
    page.goto(live_server.url + reverse("login") + "?next=" + reverse("tournaments:list"))
    page.locator("#id_username").fill("organizator")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Zaloguj").click()

    # --- a copy of psb under the league's name ---
    page.get_by_role("link", name="Własne zasady").click()
    page.get_by_role("link", name="Nowe zasady").click()
    page.locator("#id_name").fill(NAME)
    page.locator("#id_source").select_option("psb")
    page.get_by_role("button", name="Kopiuj").click()
    expect(page.get_by_role("heading", name=NAME)).to_be_visible()
    effect, values = page.locator("#effect"), page.locator("#calc-result .values")
    # the calculator beside the editor starts with a zolo won by A: psb pays 5 per opponent
    expect(values).to_contain_text("+15")
    zolo_row = effect.locator("table.grid tr", has_text="zolo").first
    expect(zolo_row.locator("td.num").first).to_have_text("5")
    # psb has bok rounds: the same grid again in a bok round, where the cap of the raises shows
    expect(effect.get_by_role("heading", name="W rundzie bokowej (×2)")).to_be_visible()
    shot(page, "01-editor")
    assert fits_the_screen(page)
    accessible(page)

    # --- zolo worth 7: the grid and the calculator follow before anything is saved ---
    page.get_by_label("zolo: wartość bazowa").fill("7")
    page.get_by_label("zolo: wartość bazowa").press("Tab")
    expect(values).to_contain_text("+21")
    expect(values).to_contain_text("-7")
    expect(zolo_row.locator("td.num").first).to_have_text("7")
    assert OwnRuleset.objects.get(name=NAME).ruleset().contract("zolo").base == 5

    # --- a setting the engine refuses is explained next to it, in Polish ---
    page.get_by_label("wyjście starych").fill("60")
    page.get_by_role("button", name="Zapisz zasady").click()
    expect(page.locator(".errorlist", has_text="Podaj liczbę całkowitą od 1 do 52.")).to_be_visible()
    shot(page, "02-refused")
    assert fits_the_screen(page)
    page.get_by_label("wyjście starych").fill("27")

    # --- the literal misplay reading, saved with a reason ---
    page.get_by_label("błąd w grze kosztuje co najmniej kontr").fill("1")
    page.get_by_label("powód zmiany").fill("zolo za 7, błąd co najmniej z kontrą")
    page.get_by_role("button", name="Zapisz zasady").click()
    expect(page.get_by_text("Zasady zostały zapisane.")).to_be_visible()
    expect(page.locator("section", has_text="Historia")).to_contain_text("zolo za 7, błąd co najmniej z kontrą")
    ruleset = OwnRuleset.objects.get(name=NAME).ruleset()
    assert (ruleset.contract("zolo").base, ruleset.misplay_min_doublings) == (7, 1)
    shot(page, "03-saved")
    assert fits_the_screen(page)

    # --- a tournament on the own rules ---
    page.goto(live_server.url + reverse("tournaments:create"))
    page.locator("#id_name").fill("Turniej Ligi Kaszubskiej")
    page.locator("#id_date").fill("2027-03-13")
    page.locator("#id_own_ruleset").select_option(label=NAME)
    page.locator("#id_series_count").fill("2")
    page.locator("#id_deals_per_series").fill("20")
    page.get_by_role("button", name="Utwórz turniej").click()
    page.get_by_role("button", name="Opublikuj turniej").wait_for()
    tournament = Tournament.objects.get(name="Turniej Ligi Kaszubskiej")
    assert (own_ruleset_of(tournament).name, game_settings(tournament).ruleset_preset) == (NAME, "psb")

    # its table 1 of series 1 (seated here, the draw has its own tests): a zolo won by A is worth 7 a head
    series = tournament.series.get(number=1)
    for seat in "ABCD":
        TableAssignmentFactory(series=series, table=1, seat=seat)
    Series.objects.filter(pk=series.pk).update(status=Series.Status.DRAWN)
    table_protocols(series)
    page.goto(live_server.url + reverse("results:protocol", args=[tournament.slug, 1, 1]))
    page.locator("#id_line").fill("za+")
    page.locator("#id_line").press("Enter")
    expect(page.locator("#sheet td.tools")).to_have_count(1)
    expect(page.locator("#sheet")).to_contain_text("+21")
    shot(page, "04-protocol")
    assert fits_the_screen(page)
