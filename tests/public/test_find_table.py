"""Find my table: a player types their name and reads their table, seat and opponents
in every series whose draw is published, without JavaScript and in a fixed number of queries."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from league.models import Bye, Series, TableAssignment
from league.public.seating import MAX_MATCHES, QUERY_MAX_LENGTH
from scoring import SEATS
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    played_series,
    table_protocols,
)

pytestmark = pytest.mark.django_db

NAMES = [
    ("Łukasz", "Kąkol"),
    ("Anna", "Kwidzińska"),
    ("Jan", "Lis"),
    ("Ewa", "Łoś"),
    ("Piotr", "Mak"),
    ("Zofia", "Żak"),
    ("Jan", "Formela"),
    ("Maria", "Bigus"),
    ("Jan", "Kreft"),
]


def hall(tables: int = 2, **fields):
    """A published tournament with its draw published: series 1 played and closed, series 2
    drawn and about to start, with the last player sitting series 2 out; series 3 not drawn.

    Seats are dealt in player order: in series 1 Łukasz Kąkol sits 1A with Kwidzińska, Lis
    and Łoś, and the last player (Jan Kreft with two tables) sits out; in series 2 everyone
    moves one seat on, Kreft takes the last seat and Kąkol sits out."""
    tournament = TournamentFactory(**{"draw_published": True, "series_count": 3, **fields})
    named = [PlayerFactory(first_name=first, last_name=last) for first, last in NAMES]
    people = (named + PlayerFactory.create_batch(max(0, 4 * tables + 1 - len(named))))[: 4 * tables + 1]
    for player in people:
        RegistrationFactory(tournament=tournament, player=player)
    seated = people[: 4 * tables]
    played_series(
        tournament,
        1,
        [list(zip(seated[4 * t : 4 * t + 4], (30, 10, -10, -30), strict=True)) for t in range(tables)],
        byes=[people[-1]],
    )
    second = Series.objects.create(tournament=tournament, number=2, status=Series.Status.DRAWN)
    moved = seated[1:] + seated[:1]
    for index, player in enumerate(moved[: 4 * tables - 1] + [people[-1]]):
        TableAssignment.objects.create(series=second, table=index // 4 + 1, seat=SEATS[index % 4], player=player)
    Bye.objects.create(series=second, player=seated[0])
    table_protocols(second)
    Series.objects.create(tournament=tournament, number=3)
    return tournament


def find(client, tournament, q: str):
    """The page as a Polish phone asks for it."""
    return client.get(reverse("public:find_table", args=[tournament.slug]), {"q": q}, HTTP_ACCEPT_LANGUAGE="pl")


def test_a_player_typing_their_name_without_polish_letters_finds_their_table_seat_and_opponents(client):
    tournament = hall()

    page = find(client, tournament, "kwidzinska")

    assert page.status_code == 200
    text = page.content.decode()
    assert "Anna Kwidzińska" in text
    # series 1: 1B with Kąkol (A), Lis (C), Łoś (D); series 2: one seat on, 1A
    assert "stolik 1, miejsce B" in text
    assert "<b>A</b> Łukasz Kąkol, <b>C</b> Jan Lis, <b>D</b> Ewa Łoś" in text
    assert "stolik 1, miejsce A" in text
    assert "<b>B</b> Jan Lis, <b>C</b> Ewa Łoś, <b>D</b> Piotr Mak" in text


@pytest.mark.parametrize("typed", ["lukasz", "kakol", "KĄKOL", "Łukasz Kąkol", " kąkol   łukasz "])
def test_a_name_is_found_by_either_name_in_any_case_with_or_without_diacritics(client, typed):
    text = find(client, hall(), typed).content.decode()

    assert "Łukasz Kąkol" in text
    assert text.count('class="found"') == 1


def test_a_bye_is_shown_as_pauza_and_the_current_series_is_marked(client):
    text = find(client, hall(), "kąkol").content.decode()

    assert "pauza (wolny los)" in text
    assert text.count('class="current"') == 1


def test_the_series_being_played_comes_first_then_the_others_in_order(client):
    text = find(client, hall(), "kwidzinska").content.decode()

    assert re.findall(r'<span class="series">Seria (\d)', text) == ["2", "1"]
    assert text.index('class="current"') < text.index("stolik 1, miejsce B")


def test_several_players_of_one_first_name_are_all_listed_in_polish_order(client):
    text = find(client, hall(), "jan").content.decode()

    assert text.count('class="found"') == 3
    assert text.index("Jan Formela") < text.index("Jan Kreft") < text.index("Jan Lis")


def test_a_name_nobody_has_says_so(client):
    text = find(client, hall(), "xyzzy").content.decode()

    assert "Nikt w tym turnieju nie nazywa się „xyzzy”." in text
    assert 'class="found"' not in text


def test_the_table_page_is_linked_only_for_a_series_whose_results_are_public(client):
    tournament = hall()

    text = find(client, tournament, "kąkol").content.decode()

    assert reverse("public:table", args=[tournament.slug, 1, 1]) in text
    assert reverse("public:table", args=[tournament.slug, 2, 1])[:-2] not in text
    Series.objects.filter(tournament=tournament, number=1).update(results_published=False)
    hidden = find(client, tournament, "kąkol").content.decode()
    assert reverse("public:table", args=[tournament.slug, 1, 1]) not in hidden


def test_before_the_draw_is_published_the_page_says_so_and_shows_no_seat(client):
    tournament = hall(draw_published=False)

    text = find(client, tournament, "kąkol").content.decode()

    assert "Losowanie nie zostało jeszcze opublikowane." in text
    assert "Łukasz Kąkol" not in text


def test_a_draft_tournament_is_not_found_by_the_public_but_by_its_organiser(client):
    tournament = hall(published=False)

    assert find(client, tournament, "kąkol").status_code == 404
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    assert "Łukasz Kąkol" in find(client, tournament, "kąkol").content.decode()


def test_a_question_longer_than_any_name_is_refused_next_to_the_field_and_finds_nobody(client):
    text = find(client, hall(), "kąkol" + "x" * QUERY_MAX_LENGTH).content.decode()

    assert 'class="errorlist' in text
    assert 'class="found"' not in text


def test_too_many_matches_are_cut_with_a_hint_to_type_more(client):
    tournament = hall(tables=8)
    for _ in range(MAX_MATCHES):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(first_name="Janina"))

    text = find(client, tournament, "jan").content.decode()

    assert text.count('class="found"') == MAX_MATCHES
    assert "Pasuje więcej osób: wpisz więcej liter nazwiska." in text


def test_the_page_only_reads_and_browsers_ask_again_on_every_reload(client):
    tournament = hall()

    assert client.post(reverse("public:find_table", args=[tournament.slug]), {"q": "kąkol"}).status_code == 405
    assert "no-cache" in find(client, tournament, "kąkol")["Cache-Control"]  # found: kept, checked by its ETag
    assert "no-store" in find(client, tournament, "nikt-taki")["Cache-Control"]  # nobody: the visitor's own


@pytest.mark.parametrize("tables", [8, 64])
def test_the_page_takes_the_same_queries_for_8_and_64_tables(client, tables, django_assert_max_num_queries):
    tournament = hall(tables=tables)

    # the tournament, its standings' stamp and series (what the kept page depends on), the name, the seats
    with django_assert_max_num_queries(6):
        page = find(client, tournament, "kąkol")

    assert page.content.decode().count('class="found"') == 1
    assert "pauza (wolny los)" in page.content.decode()


def test_the_tournament_page_links_to_find_your_table(client):
    tournament = hall()

    text = client.get(reverse("public:tournament", args=[tournament.slug])).content.decode()

    assert reverse("public:find_table", args=[tournament.slug]) in text
