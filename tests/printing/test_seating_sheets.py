"""The seating slips and the noticeboard list from the print page, read back from the PDFs."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from league.models import Bye, Series, TableAssignment
from league.printing import seating
from players.models import Player
from scoring import SEATS
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.printing.test_documents import pdf_text

pytestmark = pytest.mark.django_db

# in Polish order, which code-point order is not (there Ł and Ż come after every plain letter)
POLISH_ORDER = [
    ("Łukasz", "Bigus"),
    ("Anna", "Kąkol"),
    ("Jan", "Kwidziński"),
    ("Ewa", "Lis"),
    ("Zenon", "Łoś"),
    ("Piotr", "Mak"),
    ("Ścibor", "Żak"),
]


def printed_tournament(players: int = 25, series: int = 2):
    """A tournament of ``players`` (the Polish names above shuffled among others) with ``series``
    drawn series; the last player sits out series 1, the first one (Żak) series 2, the next series 3…"""
    tournament = TournamentFactory(name="Puchar Wójta Gminy Kościerzyna", slug="puchar", series_count=series + 1)
    named = [PlayerFactory(first_name=first, last_name=last) for first, last in reversed(POLISH_ORDER)]
    people = named + PlayerFactory.create_batch(players - len(named))
    for player in people:
        RegistrationFactory(tournament=tournament, player=player)
    for number in range(1, series + 1):
        drawn = Series.objects.create(tournament=tournament, number=number, status=Series.Status.DRAWN)
        sitting_out = people[-1] if number == 1 else people[number - 2]
        rest = [p for p in people if p != sitting_out]
        rest = rest[number - 1 :] + rest[: number - 1]
        for index, player in enumerate(rest):
            TableAssignment.objects.create(series=drawn, table=index // 4 + 1, seat=SEATS[index % 4], player=player)
        Bye.objects.create(series=drawn, player=sitting_out)
    Series.objects.create(tournament=tournament, number=series + 1)
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    return tournament, organiser


def pdf_of(client, organiser, name: str, tournament) -> bytes:
    client.force_login(organiser)
    response = client.get(reverse(f"printing:{name}", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return response.content


def page_texts(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def slip_names(text: str) -> list[str]:
    """The name at the head of each slip: the line above the tournament's name."""
    lines = text.splitlines()
    return [lines[i - 1] for i, line in enumerate(lines) if line.startswith("Puchar Wójta")]


def slip_of(text: str, name: str) -> str:
    """One player's slip: from their name to the next slip's."""
    start = text.index(f"{name}\nPuchar")
    following = re.search(r"\n[^\n]+\nPuchar", text[start + len(name) :])
    return text[start : start + len(name) + following.start()] if following else text[start:]


def test_every_player_gets_a_slip_with_name_tournament_and_each_series_table_and_seat(client):
    tournament, organiser = printed_tournament()

    text = pdf_text(pdf_of(client, organiser, "seating_slips", tournament))

    assert text.count("Puchar Wójta Gminy Kościerzyna") == 25
    for first, last in POLISH_ORDER:
        assert re.search(rf"{last}\s+{first}", text), last
    # Żak (the first seated in series 1) sits 1A, then sits series 2 out
    zak = slip_of(text, "Żak Ścibor")
    assert "1 1A B Piotr Mak, C Zenon Łoś, D Ewa Lis" in zak
    assert "2 wolny los" in zak


def test_an_a4_sheet_holds_ten_slips_cut_along_dashed_lines(client):
    tournament, organiser = printed_tournament(players=25)

    pages = page_texts(pdf_of(client, organiser, "seating_slips", tournament))

    assert [page.count("Puchar Wójta Gminy Kościerzyna") for page in pages] == [10, 10, 5]
    assert seating.SLIPS_PER_ROW * seating.SLIP_ROWS >= 8


def test_slips_and_the_noticeboard_are_in_polish_order_by_surname(client):
    tournament, organiser = printed_tournament()
    surnames = [last for _first, last in POLISH_ORDER]

    slips = slip_names(pdf_text(pdf_of(client, organiser, "seating_slips", tournament)))
    assert [name for name in slips if not name.startswith("Kowalski")] == [
        f"{last} {first}" for first, last in POLISH_ORDER
    ]
    assert slips[-1] == "Żak Ścibor"  # after every Kowalski… of the factory too
    rows = [line.split()[0] for line in pdf_text(pdf_of(client, organiser, "noticeboard", tournament)).splitlines()]
    assert [surname for surname in rows if surname in surnames] == surnames
    assert rows.index("Żak") > max(i for i, surname in enumerate(rows) if surname.startswith("Kowalski"))


def test_slips_name_the_opponents_while_they_fit(client):
    tournament, organiser = printed_tournament()

    text = pdf_text(pdf_of(client, organiser, "seating_slips", tournament))

    assert "Przeciwnicy przy stoliku" in text
    assert "Zenon Łoś, D Ewa Lis" in slip_of(text, "Mak Piotr")


def test_with_many_series_a_slip_shows_a_grid_without_opponents(client):
    tournament, organiser = printed_tournament(players=13, series=8)

    pages = page_texts(pdf_of(client, organiser, "seating_slips", tournament))

    assert "Przeciwnicy" not in "".join(pages)
    assert [page.count("Puchar Wójta Gminy Kościerzyna") for page in pages] == [10, 3]


def test_the_noticeboard_lists_each_series_in_a_column_with_the_header_on_every_page(client):
    tournament, organiser = printed_tournament(players=81)

    pages = page_texts(pdf_of(client, organiser, "noticeboard", tournament))

    assert len(pages) >= 2
    for page in pages:
        assert "Seria 1" in page and "Seria 2" in page
    text = "\n".join(pages)
    assert re.search(r"Żak\s+Ścibor\s+1A\s+pauza", text)
    assert "Kąkol" in text and "Kwidziński" in text


def test_the_print_page_offers_both_documents(client):
    tournament, organiser = printed_tournament(players=5, series=1)
    client.force_login(organiser)

    page = client.get(reverse("printing:index", args=[tournament.slug])).content.decode()

    assert reverse("printing:seating_slips", args=[tournament.slug]) in page
    assert reverse("printing:noticeboard", args=[tournament.slug]) in page


def test_before_any_draw_both_documents_say_so(client):
    tournament = TournamentFactory()
    organiser = UserFactory()
    tournament.organisers.add(organiser)

    for document in ("seating_slips", "noticeboard"):
        text = pdf_text(pdf_of(client, organiser, document, tournament))
        assert "Żadna seria nie została jeszcze rozlosowana." in text


@pytest.mark.parametrize("players", [9, 65])
def test_the_documents_read_the_same_queries_for_few_and_many_players(client, players, django_assert_max_num_queries):
    tournament, organiser = printed_tournament(players=players)
    client.force_login(organiser)

    for document in ("seating_slips", "noticeboard"):
        with django_assert_max_num_queries(5):
            client.get(reverse(f"printing:{document}", args=[tournament.slug]))


def test_a_player_who_asked_for_initials_is_posted_so_and_named_so_on_the_others_slips(client):
    """RODO (issue 43): the noticeboard hangs in the hall and a slip goes to each player; a player
    who asked to appear publicly by initials and club is posted as "Z. Ł., <club>" there and on
    their opponents' slips, and keeps their full name on their own slip."""
    tournament, organiser = printed_tournament()
    lis = Player.objects.get(last_name="Łoś")
    lis.club = ClubFactory(name="Gryf Wejherowo")
    lis.public_initials = True
    lis.save()

    board = pdf_text(pdf_of(client, organiser, "noticeboard", tournament))
    slips = pdf_text(pdf_of(client, organiser, "seating_slips", tournament))

    assert "Z. Ł., Gryf Wejherowo" in board and "Łoś" not in board
    assert "Z. Ł., Gryf Wejherowo" in slip_of(slips, "Mak Piotr")
    assert "Łoś Zenon" in slip_names(slips)
