"""A new tournament is a draft: the public knows nothing of it until the organiser publishes it."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from league.models import Series, Tournament
from tests.factories import UserFactory, drawn_series, tournament_form_data

pytestmark = pytest.mark.django_db

BEFORE = [("league", "0006_tournament_bounds")]


@pytest.fixture
def draft(client, organiser):
    """A tournament made on the create screen, its first series drawn and the draw published."""
    client.post(reverse("tournaments:create"), tournament_form_data(name="Puchar Helu"))
    tournament = Tournament.objects.get(name="Puchar Helu")
    tournament.series.filter(number=1).update(status=Series.Status.DRAWN)  # as the draw leaves it
    drawn_series(tournament)
    tournament.draw_published = True
    tournament.save()
    return tournament


def public_pages(tournament) -> list[str]:
    slug = tournament.slug
    return [
        reverse("public:tournament", args=[slug]),
        reverse("public:standings", args=[slug]),
        reverse("public:series", args=[slug, 1]),
        reverse("public:projector", args=[slug]),
    ]


def test_a_new_tournament_is_a_draft_missing_from_the_home_page(client, draft):
    assert not draft.published
    assert draft.name not in Client().get(reverse("home")).content.decode()
    assert draft.name not in client.get(reverse("home")).content.decode()


def test_visitors_find_no_public_page_of_a_draft(draft):
    visitor = Client()
    assert [visitor.get(url).status_code for url in public_pages(draft)] == [404] * 4


def test_the_organiser_and_a_referee_check_the_public_pages_of_a_draft(client, draft):
    referee = UserFactory()
    draft.referees.add(referee)
    as_referee = Client()
    as_referee.force_login(referee)
    assert [client.get(url).status_code for url in public_pages(draft)] == [200] * 4
    assert [as_referee.get(url).status_code for url in public_pages(draft)] == [200] * 4


def test_a_stranger_logged_in_finds_no_public_page_of_a_draft(draft):
    stranger = Client()
    stranger.force_login(UserFactory())
    assert [stranger.get(url).status_code for url in public_pages(draft)] == [404] * 4


def test_the_draft_standings_the_organiser_saw_are_not_kept_for_visitors(client, draft, settings):
    settings.STANDINGS_STAMP_SECONDS = 60
    assert client.get(reverse("public:standings", args=[draft.slug])).status_code == 200
    assert Client().get(reverse("public:standings", args=[draft.slug])).status_code == 404


def test_the_tournament_page_of_a_draft_offers_to_publish_it(client, draft):
    page = client.get(reverse("tournaments:detail", args=[draft.slug])).content.decode()
    assert "Publish the tournament" in page


def test_publishing_puts_the_tournament_on_the_home_page_and_opens_its_public_pages(client, draft):
    response = client.post(reverse("tournaments:publish_tournament", args=[draft.slug]))
    assert response.url == reverse("tournaments:detail", args=[draft.slug])
    visitor = Client()
    assert draft.name in visitor.get(reverse("home")).content.decode()
    assert [visitor.get(url).status_code for url in public_pages(draft)] == [200] * 4
    assert "Publish the tournament" not in client.get(reverse("tournaments:detail", args=[draft.slug])).content.decode()


def test_publishing_is_a_post(client, draft):
    assert client.get(reverse("tournaments:publish_tournament", args=[draft.slug])).status_code == 405
    draft.refresh_from_db()
    assert not draft.published


@pytest.mark.django_db(transaction=True)
def test_tournaments_stored_before_drafts_existed_stay_public():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("league", "Tournament")
    old.objects.create(name="Stary", slug="stary", date="2025-05-01", ruleset_preset="puck")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # past AFTER, to the schema every other test expects
    stored = Tournament.objects.get(slug="stary")
    assert stored.published and not stored.archived
