"""The "Kto gdzie siedzi" list on the tournament page: by surname in Polish order, with the
filter's "Nikt nie pasuje" line ready (the typing itself: tests/browser/test_find_my_table.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from tests.public.test_find_table import hall

pytestmark = pytest.mark.django_db


def seating_names(client, tournament) -> list[str]:
    page = client.get(reverse("public:tournament", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    return re.findall(r'<li data-name="[^"]*"><span>([^<]+?)(?: <span|</span>)', page)


def test_the_seating_list_is_by_surname_in_polish_order(client):
    surnames = [name.split()[-1] for name in seating_names(client, hall())]

    named = [s for s in surnames if not s.startswith("Kowalski")]
    assert named == ["Bigus", "Formela", "Kąkol", "Kreft", "Kwidzińska", "Lis", "Łoś", "Mak", "Żak"]


def test_the_page_has_the_no_match_line_hidden_until_nothing_matches(client):
    page = client.get(reverse("public:tournament", args=[hall().slug]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    assert '<p class="muted" id="seat-none" hidden>Nikt nie pasuje.</p>' in page


def test_a_hidden_row_stays_hidden_whatever_the_list_layout():
    # the list's rows are display: flex, which beats the hidden attribute's display: none
    css = open(finders.find("css/app.css"), encoding="utf-8").read()

    assert ".seating li[hidden] { display: none; }" in css
