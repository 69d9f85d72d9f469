"""Every page carries a Content-Security-Policy; the few inline scripts carry its nonce."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import UserFactory, drawn_series
from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db

NONCE = re.compile(r"'nonce-([^']+)'")


def policy(response) -> dict[str, list[str]]:
    directives = [part.split() for part in response["Content-Security-Policy"].split(";") if part.strip()]
    return {name: values for name, *values in directives}


def test_public_pages_allow_scripts_only_from_the_site(client):
    tournament = league_tournament(tables=1, series=1)
    for url in (reverse("home"), reverse("public:standings", args=[tournament.slug])):
        rules = policy(client.get(url))
        assert rules["script-src"][0] == "'self'"
        assert "'unsafe-inline'" not in rules["script-src"] and "'unsafe-eval'" not in rules["script-src"]
        assert rules["object-src"] == ["'none'"] and rules["frame-ancestors"] == ["'none'"]


def test_an_inline_script_runs_because_it_carries_this_responses_nonce(client):
    series = drawn_series(tables=1)
    referee = UserFactory()
    series.tournament.referees.add(referee)
    client.force_login(referee)

    response = client.get(reverse("results:protocol", args=[series.tournament.slug, series.number, 1]))

    [nonce] = NONCE.findall(response["Content-Security-Policy"])
    scripts = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", response.content.decode())
    assert scripts and all(f'nonce="{nonce}"' in attributes for attributes in scripts)


def test_each_response_has_a_new_nonce(client):
    series = drawn_series(tables=1)
    referee = UserFactory()
    series.tournament.referees.add(referee)
    client.force_login(referee)
    url = reverse("results:protocol", args=[series.tournament.slug, series.number, 1])

    first, second = (NONCE.findall(client.get(url)["Content-Security-Policy"]) for _ in range(2))
    assert first != second
