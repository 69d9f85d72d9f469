"""In a real browser the Content-Security-Policy blocks nothing of our own pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory, drawn_series
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_policy_blocks_none_of_our_scripts_or_styles(page, live_server):
    refused = []
    page.on("console", lambda message: "Content Security Policy" in message.text and refused.append(message.text))
    tournament = league_tournament(tables=1, series=1)
    series = drawn_series(tables=1)
    referee = UserFactory(username="sedzia")
    referee.set_password("haslo-sedziego")
    referee.save()
    series.tournament.referees.add(referee)
    protocol_url = reverse("results:protocol", args=[series.tournament.slug, series.number, 1])

    page.goto(live_server.url + reverse("public:standings", args=[tournament.slug]))
    page.goto(live_server.url + reverse("public:tournament", args=[tournament.slug]))
    page.goto(live_server.url + reverse("login") + "?next=" + protocol_url)
    page.locator("#id_username").fill("sedzia")
    page.locator("#id_password").fill("haslo-sedziego")
    page.locator("#id_password").press("Enter")
    page.wait_for_url("**" + protocol_url)

    # The protocol page's inline script puts the cursor into the shorthand field.
    assert page.evaluate("document.activeElement.id") == "id_line"
    assert refused == []
