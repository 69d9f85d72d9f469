"""The printed documents: what the PDFs say, read back with pypdf."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.utils import translation
from django.utils.translation import gettext as _
from pypdf import PdfReader

from league.games.baska import printing as baska_printing
from league.games.baska.settings import tournament_ruleset
from league.models import Bye, Series, TableAssignment, Tournament
from league.printing import documents
from league.results.models import DealRow, Protocol
from players.models import Gender
from scoring import SEATS
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TeamFactory,
    TournamentFactory,
    table_protocols,
)

pytestmark = pytest.mark.django_db

POLISH = "ąćęłńóśźż ĄĆĘŁŃÓŚŹŻ"
BASE_URL = "http://testserver/"


def pdf_text(content: bytes) -> str:
    """All text of a PDF, pages joined; checks that the fonts map back to the right letters."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def pdf_pages(content: bytes) -> int:
    return len(PdfReader(io.BytesIO(content)).pages)


def seated_tournament(tables: int = 2, *, deals: int = 40) -> tuple[Tournament, Series]:
    """A tournament with series 1 drawn: ``tables`` tables of four with their protocols, one bye, Polish names.

    Seat 1A is Żaneta Wójcik-Łęcka of "Drużyna Zażółć" from Kościerzyna.
    """
    tournament = TournamentFactory(
        name="Turniej o Puchar Wójta",
        slug="puchar-wojta",
        date=date(2026, 5, 16),
        venue="Gdańsk",
        organiser_name="Kaszubski Klub Baśki Kościerzyna",
        deals_per_series=deals,
    )
    series = Series.objects.create(
        tournament=tournament, number=1, status=Series.Status.DRAWN, seed=918273645, algorithm="greedy-v1"
    )
    club = ClubFactory(name=f"Zażółć gęślą jaźń {POLISH}", city="Kościerzyna")
    team = TeamFactory(name="Drużyna Zażółć", club=club)
    first = PlayerFactory(first_name="Żaneta", last_name="Wójcik-Łęcka", gender=Gender.WOMAN, club=club)
    players = [first, *PlayerFactory.create_batch(tables * 4, club=club)]
    for index, player in enumerate(players):
        RegistrationFactory(
            tournament=tournament, player=player, team=team if index < 2 else None, fee_paid=index % 2 == 0
        )
    for index, player in enumerate(players[:-1]):
        TableAssignment.objects.create(series=series, table=index // 4 + 1, seat=SEATS[index % 4], player=player)
    Bye.objects.create(series=series, player=players[-1])
    table_protocols(series)
    return tournament, series


def page_footer(page: int, pages: int) -> str:
    return _("Page %(page)s of %(pages)s") % {"page": page, "pages": pages}


def render(template: str, context: dict) -> bytes:
    return documents.render_pdf(template, context)


def test_registration_list_by_name() -> None:
    tournament, _series = seated_tournament()
    groups = documents.registration_groups(tournament, by_team=False)
    text = pdf_text(
        render(
            "printing/registration_list.html", documents.document_context(tournament, "Lista", groups=groups, total=9)
        )
    )
    assert "Wójcik-Łęcka Żaneta" in text
    assert POLISH in text  # the club's name: every Polish letter, both cases, embedded and read back
    assert "Kaszubski Klub Baśki Kościerzyna" in text  # organiser in the header
    assert page_footer(1, 1) in text


def test_registration_list_grouped_by_team_with_individuals_last() -> None:
    tournament, _series = seated_tournament()
    groups = documents.registration_groups(tournament, by_team=True)
    assert [group.title for group in groups] == ["Drużyna Zażółć", _("Individual players")]
    assert [len(group.registrations) for group in groups] == [2, 7]


def test_names_sort_in_polish_order() -> None:
    names = ["Zieliński", "Łęcka", "Lis", "Ćwik", "Cebula", "Dąb", "Daszke", "Żuk", "Źrebiec"]
    assert sorted(names, key=documents.name_key) == [
        "Cebula",
        "Ćwik",
        "Daszke",
        "Dąb",
        "Lis",
        "Łęcka",
        "Zieliński",
        "Źrebiec",
        "Żuk",
    ]


def test_table_list_prints_seats_the_seed_alone_and_an_alphabetical_index() -> None:
    tournament, series = seated_tournament()
    context = documents.document_context(tournament, "Stoliki serii 1", **documents.table_list(series))
    content = render("printing/table_list.html", context)
    text = pdf_text(content)
    assert "918273645" in text  # the seed, for anyone who wants to check the draw
    assert "greedy" not in text and "python" not in text  # no internal name or command line on the wall
    assert "Żaneta Wójcik-Łęcka" in text  # by table
    assert "Wójcik-Łęcka Żaneta Drużyna Zażółć 1 A" in " ".join(text.split())  # by name → table and seat
    assert page_footer(1, pdf_pages(content)) in text


def test_protocol_is_prefilled_and_splits_forty_deals_over_pages_with_repeated_header() -> None:
    tournament, series = seated_tournament()
    [sheet] = documents.protocol_sheets(series, [1], filled=False, base_url=BASE_URL)
    content = render("printing/protocol.html", documents.protocol_context(tournament, sheet))
    reader = PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 2
    first, second = (page.extract_text() for page in reader.pages)
    assert "Żaneta Wójcik-Łęcka" in first and "Drużyna Zażółć" in first
    assert "Turniej o Puchar Wójta" in first
    assert f"PIN: {Protocol.objects.get(series=series, table=1).pin}" in first
    # the seat header repeats on the second page, where deal 40 and the signatures are
    assert "Żaneta Wójcik-Łęcka" in second and "\n40" in "\n" + second.replace(" ", "\n")
    assert page_footer(2, 2) in second


def test_a_twenty_deal_protocol_prints_on_one_page_with_its_signatures() -> None:
    tournament, series = seated_tournament(deals=20)
    [sheet] = documents.protocol_sheets(series, [1], filled=False, base_url=BASE_URL)
    with translation.override("pl"):
        content = render("printing/protocol.html", documents.protocol_context(tournament, sheet))
        footer = page_footer(1, 1)
    [page] = PdfReader(io.BytesIO(content)).pages
    text = page.extract_text()
    assert "\n20" in "\n" + text.replace(" ", "\n") and "Podpis A" in text and footer in text


def page_footers(content: bytes) -> list[tuple[str, str]]:
    """Each page's title (the footer's left side: the protocol's heading) and "Page x of y"."""
    footers = []
    for page in PdfReader(io.BytesIO(content)).pages:
        text = page.extract_text()
        numbers = [page_footer(x, y) for y in range(1, 4) for x in range(1, y + 1) if page_footer(x, y) in text]
        titles = [line for line in text.splitlines() if line.startswith(_("Table protocol"))]
        assert len(numbers) == 1, text
        footers.append((titles[-1].removesuffix(numbers[0]).strip() if titles else "", numbers[0]))
    return footers


@pytest.mark.slow
def test_batch_of_protocols_numbers_the_pages_of_each_table_on_its_own() -> None:
    tournament, series = seated_tournament(tables=3)
    protocol = Protocol.objects.get(series=series, table=2)
    DealRow.objects.create(  # table 2 ended after one deal: its archive copy is a single page
        protocol=protocol,
        number=1,
        deal={"contract": "zolo", "values": {"A": 7, "B": -7, "C": 7, "D": -7}},
        value_a=7,
        value_b=-7,
        value_c=7,
        value_d=-7,
    )
    sheets = [
        *documents.protocol_sheets(series, [1], filled=False, base_url=BASE_URL),
        *documents.protocol_sheets(series, [2], filled=True, base_url=BASE_URL),
        *documents.protocol_sheets(series, [3], filled=False, base_url=BASE_URL),
        documents.blank_protocol_sheet(tournament),
    ]
    with translation.override("pl"):
        content = render("printing/protocol.html", documents.protocols_context(tournament, sheets))
        expected = [
            (sheets[0].title, page_footer(1, 2)),
            (sheets[0].title, page_footer(2, 2)),
            (sheets[1].title, page_footer(1, 1)),
            (sheets[2].title, page_footer(1, 2)),
            (sheets[2].title, page_footer(2, 2)),
            (sheets[3].title, page_footer(1, 2)),
            (sheets[3].title, page_footer(2, 2)),
        ]
        assert "Strona 1 z 2" in expected[0][1]
        assert page_footers(content) == expected
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]
    pins = [Protocol.objects.get(series=series, table=table).pin for table in (1, 2, 3)]
    # each protocol starts on a page of its own, with its own players and PIN
    assert [f"PIN: {pin}" in pages[index] for index, pin in zip((0, 2, 3), pins, strict=True)] == [True, True, True]
    assert "Żaneta Wójcik-Łęcka" in pages[0] and "Żaneta Wójcik-Łęcka" not in pages[3]
    assert "PIN" not in pages[5] and "PIN" not in pages[6]


def test_protocol_qr_links_to_the_table_entry_page() -> None:
    _tournament, series = seated_tournament()
    assert documents.table_entry_url(BASE_URL, series, 2) == "http://testserver/turnieje/puchar-wojta/stolik/1/2/"
    [sheet] = documents.protocol_sheets(series, [2], filled=False, base_url=BASE_URL)
    assert sheet.qr.startswith("data:image/svg+xml")


def test_archive_protocol_has_values_and_running_totals() -> None:
    tournament, series = seated_tournament(deals=4)
    protocol = Protocol.objects.get(series=series, table=1)
    rows = [(7, -7, 7, -7), (-12, 4, 4, 4), (30, -10, -10, -10), (-2, 2, -2, 2)]
    for number, values in enumerate(rows, start=1):
        DealRow.objects.create(
            protocol=protocol,
            number=number,
            deal={"contract": "zolo", "values": dict(zip(SEATS, values, strict=True))},
            value_a=values[0],
            value_b=values[1],
            value_c=values[2],
            value_d=values[3],
        )
    [sheet] = documents.protocol_sheets(series, [1], filled=True, base_url=BASE_URL)
    assert sheet.totals == [23, -11, -1, -11]
    assert sheet.lines[1].cells == [(-12, -5), (4, -3), (4, 11), (4, -3)]
    text = " ".join(pdf_text(render("printing/protocol.html", documents.protocol_context(tournament, sheet))).split())
    assert "2 zolo −12 −5 +4 −3 +4 +11 +4 −3" in text  # the minus sign, as the standings print it
    assert "Result +23 −11 −1 −11" in text


def test_the_archive_copy_of_a_baska_protocol_marks_a_row_of_a_bok_round_twice_over() -> None:
    tournament, series = seated_tournament(deals=4)
    protocol = Protocol.objects.get(series=series, table=1)
    for number, doubled in enumerate([False, True], start=1):
        value = 2 if doubled else 1
        DealRow.objects.create(
            protocol=protocol,
            number=number,
            deal={"contract": "zwykla", "values": dict(zip(SEATS, (value, -value, value, -value), strict=True))},
            value_a=value,
            value_b=-value,
            value_c=value,
            value_d=-value,
            doubled=doubled,
        )
    [sheet] = documents.protocol_sheets(series, [1], filled=True, base_url=BASE_URL)
    content = render(documents.protocol_template(tournament), documents.protocol_context(tournament, sheet))
    text = " ".join(pdf_text(content).split())
    assert "2 ordinary game +2 +3 −2 −3 +2 +3 −2 −3" in text and text.count("×2") == 1  # the mark floats beside its row


def test_the_archive_copy_of_a_closed_series_prints_no_way_in_for_the_phones() -> None:
    """Issue 41: the filled protocol of a closed series still said "Zeskanuj, aby wpisywać rozdania"
    with the old PIN; while the series is played the archive copy keeps them."""
    tournament, series = seated_tournament(deals=4)
    pin = Protocol.objects.get(series=series, table=1).pin
    [open_sheet] = documents.protocol_sheets(series, [1], filled=True, base_url=BASE_URL)
    assert open_sheet.qr and open_sheet.pin == pin
    series.status = Series.Status.CLOSED
    series.save()
    [sheet] = documents.protocol_sheets(series, [1], filled=True, base_url=BASE_URL)
    with translation.override("pl"):
        text = pdf_text(render("printing/protocol.html", documents.protocol_context(tournament, sheet)))
    assert "Zeskanuj" not in text and "PIN" not in text and sheet.pin == ""


def test_contract_text_counts_alternating_kontras() -> None:
    deal = {"contract": "zolo", "old": ["B"], "kontras": ["young", "old", "old"], "old_eyes": 70}
    assert baska_printing.contract_text(deal, tournament_ruleset(TournamentFactory())).startswith("zolo B, 2")


@pytest.mark.parametrize(("language", "month"), [("pl", "maja"), ("en", "May")])
def test_printed_sheets_write_the_date_with_dots_in_either_language(language, month) -> None:
    tournament, series = seated_tournament()
    with translation.override(language):
        context = documents.document_context(tournament, "Stoliki serii 1", **documents.table_list(series))
        text = pdf_text(render("printing/table_list.html", context))
    assert "16.05.2026" in text and month not in text and "05/16/2026" not in text


def test_blank_protocol_has_no_names_and_no_qr() -> None:
    tournament, _series = seated_tournament()
    sheet = documents.blank_protocol_sheet(tournament)
    text = pdf_text(render("printing/protocol.html", documents.protocol_context(tournament, sheet)))
    assert "Wójcik" not in text and "PIN" not in text
    assert "Result 0" not in " ".join(text.split())  # the totals are left for the pen
    assert "Turniej o Puchar Wójta" in text


STANDINGS = {
    "individual": [
        {
            "place": 1,
            "label": "1.",
            "name": "Żaneta Wójcik-Łęcka",
            "id": 1,
            "team": "Drużyna Zażółć",
            "big_points": 14.5,
            "small_points": 120,
        },
        {
            "place": 2,
            "label": "2.",
            "name": "Jan Kościerski",
            "id": 2,
            "team": "",
            "big_points": 12,
            "small_points": 80,
        },
        {
            "place": 3,
            "label": "3–4.",
            "name": "Łucja Śródka",
            "id": 3,
            "team": "",
            "big_points": 10,
            "small_points": 40,
        },
        {
            "place": 3,
            "label": "3–4.",
            "name": "Ćwierć Źdźbło",
            "id": 4,
            "team": "",
            "big_points": 10,
            "small_points": 40,
        },
        {"place": 5, "label": "5.", "name": "Óla Ńęź", "id": 5, "team": "", "big_points": 3.33, "small_points": -30},
    ],
    "women": [
        {
            "place": 1,
            "label": "1.",
            "name": "Żaneta Wójcik-Łęcka",
            "id": 1,
            "team": "Drużyna Zażółć",
            "big_points": 14.5,
            "small_points": 120,
        },
    ],
    "men": [],
    "teams": [{"place": 1, "label": "1.", "name": "Drużyna Zażółć", "id": 1, "big_points": 30, "small_points": 200}],
}


def test_results_sheets_print_each_published_ranking_in_polish() -> None:
    tournament, _series = seated_tournament()
    tournament.publish_women = True
    with translation.override("pl"):
        context = documents.results_context(tournament, STANDINGS, series=2)
        assert [ranking["key"] for ranking in context["rankings"]] == ["individual", "women", "teams"]
        content = render("printing/results.html", context)
        footer = page_footer(3, 3)
    assert pdf_pages(content) == 3
    text = " ".join(pdf_text(content).split())
    assert "1. Żaneta Wójcik-Łęcka Drużyna Zażółć 14,5 +120" in text  # Polish decimal comma, signed small points
    assert "3–4. Łucja Śródka" in text and "3–4. Ćwierć Źdźbło" in text
    assert "5. Óla Ńęź 3,33 −30" in text
    assert "po 2 seriach" in text
    assert "16.05.2026" in text and footer in text


def _chunk_texts(parts: list[bytes]) -> list[str]:
    import io

    from pypdf import PdfReader

    return [PdfReader(io.BytesIO(part)).pages[0].extract_text().strip() for part in parts]


@pytest.mark.slow
def test_a_batch_lays_out_its_chunks_in_other_processes_and_keeps_their_order() -> None:
    from league.printing import layout, tasks

    htmls = [layout.Chunk(f"<p>Stolik {n} — Żółć</p>", "/", documents.own_file_roots()) for n in range(1, 5)]
    parts = list(tasks._in_order(layout.html_to_pdf, iter(htmls), len(htmls)))
    assert _chunk_texts(parts) == [f"Stolik {n} — Żółć" for n in range(1, 5)]


@pytest.mark.slow
def test_a_daemonic_worker_lays_out_the_chunks_itself(monkeypatch) -> None:
    import multiprocessing

    from league.printing import layout, tasks

    monkeypatch.setattr(multiprocessing.current_process(), "daemon", True, raising=False)
    monkeypatch.setattr(tasks, "ProcessPoolExecutor", None)  # any use of a pool would fail
    chunks = [layout.Chunk(f"<p>{text}</p>", "/", documents.own_file_roots()) for text in "AB"]
    parts = list(tasks._in_order(layout.html_to_pdf, iter(chunks), 2))
    assert _chunk_texts(parts) == ["A", "B"]


def test_no_heading_of_the_registration_list_is_broken_inside_a_word() -> None:
    tournament, _series = seated_tournament()
    with translation.override("pl"):
        groups = documents.registration_groups(tournament, by_team=False)
        context = documents.document_context(tournament, "Lista zgłoszeń", groups=groups, total=9)
        text = pdf_text(render("printing/registration_list.html", context))
    assert "Nr Zawodnik Klub Drużyna Płeć Opłacone Podpis" in " ".join(text.split())


def test_the_archive_copy_of_a_row_shows_its_kind_of_offence() -> None:
    deal = {"contract": "zwykla", "old": ["A", "C"], "misplay": "B", "offence": "renege"}
    text = baska_printing.contract_text(deal, tournament_ruleset(TournamentFactory()))
    assert text == "ordinary game A+C, renege (fela not followed)"
