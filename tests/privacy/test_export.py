"""RODO, handed over (issue 43): one click on the player's screen downloads everything held about
the person as JSON and as a readable PDF with Polish letters."""

from __future__ import annotations

import io
import json
from datetime import date

import pypdf
import pytest
from django.urls import reverse

from league.privacy.selectors import person_data
from tests.factories import PlayerFactory
from tests.privacy.test_anonymise import NAME, league_organiser, world  # noqa: F401 — the fixture
from tests.rating.test_services import evening

pytestmark = pytest.mark.django_db


def test_the_players_screen_links_both_downloads(client, world):  # noqa: F811
    client.force_login(world["organiser"])
    page = client.get(reverse("players:player_edit", args=[world["her"].pk])).content.decode()
    for view in ("privacy:data_json", "privacy:data_pdf", "privacy:anonymise"):
        assert reverse(view, args=[world["her"].pk]) in page


def test_the_json_file_holds_her_entry_registrations_seats_sign_ups_and_their_history(client, world):  # noqa: F811
    her = world["her"]
    client.force_login(world["organiser"])
    response = client.get(reverse("privacy:data_json", args=[her.pk]))
    assert response["Content-Disposition"] == f'attachment; filename="zawodnik-{her.pk}.json"'
    assert response["Cache-Control"] == "no-store"
    data = json.loads(response.content)
    assert data["format"] == "baska-league/person-data/1"
    assert (data["player"]["first_name"], data["player"]["licence"]) == ("Józefina", "PL-777")
    held = data["held"]
    assert len(held["league.registration"]) == 1
    assert len(held["league.tableassignment"]) == 1  # her seat, and so the deals played in it
    assert held["signups.signup"][0]["email"] == "jozefina@example.org"
    assert "form_token" not in held["signups.signup"][0]  # nothing of the machinery


def test_every_kind_of_row_naming_her_is_in_it(world):  # noqa: F811
    entry, held = person_data(player=world["her"])
    kinds = {rows.kind for rows in held}
    assert {"league.registration", "league.tableassignment", "signups.signup"} <= kinds
    assert entry.rows[0]["last_name"] == "Żmuda-Trzebiatowska"


def test_the_pdf_reads_with_polish_letters(client, world):  # noqa: F811
    client.force_login(world["organiser"])
    response = client.get(reverse("privacy:data_pdf", args=[world["her"].pk]))
    assert response["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(response.content)).pages)
    assert NAME in text  # the title; a narrow column may break a long word in the tables
    assert "jozefina@example.org" in text.replace("\n", "")


def test_her_ratings_are_in_it_once_a_closed_series_rated_her(world):  # noqa: F811
    """The rating (issue 42) keeps a row per player and series: held about her, so handed over."""
    her = world["her"]
    others = PlayerFactory.create_batch(3)
    rated = evening(date(2026, 11, 7), [her, *others], [(30, 10, -10, -30)])  # closed: the recompute task rates it
    _entry, held = person_data(player=her)
    ratings = next(rows for rows in held if rows.kind == "rating.rating")
    assert rated.pk in {row["tournament_id"] for row in ratings.rows}
