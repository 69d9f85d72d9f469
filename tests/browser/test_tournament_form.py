"""In a real browser at 1366 and 390 px: the organiser creates a Preferans tournament for tables of
three, its first series seeded by rating, and the tournament is so; only the chosen game's settings are shown and
posted (a hidden game's section is disabled), and axe-core finds nothing on the form."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from playwright.sync_api import expect

from league.models import Tournament
from tests.browser.conftest import accessible, fits_the_screen
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "haslo-z-sali"


def test_a_preferans_tournament_for_tables_of_three_is_for_tables_of_three(page, live_server):
    organiser = UserFactory(username="ewa")
    organiser.set_password(PASSWORD)
    organiser.save()
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    page.goto(live_server.url + reverse("login") + "?next=" + reverse("tournaments:create"))
    page.locator("#id_username").fill("ewa")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Zaloguj").click()

    baska = page.locator('fieldset[data-game="baska"]')
    expect(baska).to_be_visible()
    page.locator("#id_game").select_option("preferans")
    expect(baska).to_be_hidden()
    expect(page.locator("#id_deals_per_series")).to_be_disabled()  # a hidden game's fields post nothing
    page.locator("#id_name").fill("Wieczór we trzech")
    page.locator("#id_date").fill("2026-12-12")
    page.locator("#id_table_size").select_option("3")
    assert page.locator("#id_table_size").count() == 1
    page.get_by_label("Rozstawienie według rankingu").check()
    assert fits_the_screen(page)
    accessible(page)
    page.get_by_role("button", name="Utwórz turniej").click()
    expect(page.locator("h1")).to_have_text("Wieczór we trzech")
    tournament = Tournament.objects.get(name="Wieczór we trzech")
    assert (tournament.game, tournament.table_size, tournament.seeded_draw) == ("preferans", 3, True)
