"""RODO, seen less (issue 43): a player may appear publicly by initials and club only, while the
organiser's screens show the full name; find-my-table finds them only by the full name typed in
full; search engines are asked not to index their page."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from league.models import Series
from league.standings.tasks import recompute_standings
from players.models import Player, public_name_of
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    played_series,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("first", "last", "initials", "club", "shown"),
    [
        ("Jan", "Kowalski", True, "Gryf Wejherowo", "J. K., Gryf Wejherowo"),
        ("Łucja", "Żmuda", True, None, "Ł. Ż."),
        ("Łucja", "Żmuda", False, "Gryf Wejherowo", "Łucja Żmuda"),
    ],
)
def test_the_public_name(first, last, initials, club, shown):
    assert public_name_of(first, last, initials=initials, club=club) == shown


@pytest.fixture
def tournament():
    tournament = TournamentFactory(slug="jesien", draw_published=True)
    club = ClubFactory(name="Gryf Wejherowo")
    shy = PlayerFactory(first_name="Janina", last_name="Kwiatkowska", club=club, public_initials=True)
    others = [PlayerFactory(first_name="Jan", last_name=f"Kowal{n}") for n in range(3)]
    for player in [shy, *others]:
        RegistrationFactory(tournament=tournament, player=player)
    played_series(tournament, 1, [list(zip([shy, *others], (30, 10, -10, -30), strict=True))])
    Series.objects.filter(tournament=tournament).update(results_published=True, status="closed")
    tournament.shy = shy
    return tournament


def test_public_pages_and_the_api_name_her_by_initials_and_club(client, tournament):
    shy = tournament.shy
    pages = [
        reverse("public:standings", args=[tournament.slug]),
        reverse("public:standings", args=[tournament.slug]) + "?_export=csv&lista=individual",
        reverse("public:player", args=[shy.pk]),
        reverse("public:player", args=[PlayerFactory._meta.model.objects.exclude(pk=shy.pk).first().pk]),
    ]
    for url in pages:
        text = client.get(url).content.decode()
        assert "Kwiatkowska" not in text and "Janina" not in text, url
    assert "J. K., Gryf Wejherowo" in client.get(pages[0]).content.decode()
    api = json.loads(client.get(reverse("public:api_standings", args=[tournament.slug])).content)
    assert "J. K., Gryf Wejherowo" in [row["name"] for row in api["individual"]]


def test_her_page_asks_search_engines_not_to_index_it(client, tournament):
    own = client.get(reverse("public:player", args=[tournament.shy.pk])).content.decode()
    assert '<meta name="robots" content="noindex">' in own
    other = Player.objects.exclude(pk=tournament.shy.pk).first()
    assert "noindex" not in client.get(reverse("public:player", args=[other.pk])).content.decode()


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("Janina Kwiatkowska", True),
        ("janina kwiatkowska", True),
        ("Kwiatkowska Janina", False),
        ("Kwiatkowska", False),
        ("Janina", False),
        ("Janina Kwiat", False),
    ],
)
def test_find_my_table_finds_her_only_by_her_full_name_typed_in_full(client, tournament, typed, found):
    page = client.get(reverse("public:find_table", args=[tournament.slug]), {"q": typed}).content.decode()
    assert ("J. K., Gryf Wejherowo" in page) is found
    assert ('id="find-none"' in page) is not found
    # her name appears only where the page repeats what was typed
    assert "Kwiatkowska" not in page.replace(typed, "").replace(typed.replace(" ", "+"), "")


def test_the_organisers_screens_show_her_full_name(client, tournament):
    organiser = UserFactory()
    for codename in ("add_player", "change_player", "add_tournament"):
        organiser.user_permissions.add(Permission.objects.get(codename=codename))
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get(reverse("players:player_list")).content.decode()
    assert "Kwiatkowska" in page
    form = client.get(reverse("players:player_edit", args=[tournament.shy.pk])).content.decode()
    tick = form.split('name="public_initials"')[1].split(">")[0]
    assert "checked" in tick


def test_the_rating_list_names_her_by_initials_and_club(client, tournament):
    recompute_standings(tournament.pk)  # as after the series closed: the recompute task rates it
    page = client.get(reverse("rating:list")).content.decode()
    assert "J. K., Gryf Wejherowo" in page and "Kwiatkowska" not in page
