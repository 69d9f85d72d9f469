"""The pulka sheet ("arkusz pulki"): a Preferans table's protocol on paper, blank for the table
and filled for the archive, read back from the PDF in Polish."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.urls import reverse
from pypdf import PdfReader

from league.models import Series
from league.printing import documents, tasks
from league.printing.models import PrintJob
from league.templatetags.points import signed
from scoring.preferans import keep_sheet, load_variant, settle
from tests.factories import (
    PreferansTournamentFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    drawn_series,
    game_settings_set,
    pulka_entered,
)
from tests.printing.test_documents import pdf_pages, pdf_text

pytestmark = pytest.mark.django_db

# A pulka to 4 among three, played out: A's ten helps B and C, C fails a six (remiz) and makes one.
NOT_WHISTED_TEN = {"contract": "10S", "declarer": "A"}
FAILED_SIX = {"contract": "6S", "declarer": "C", "tricks": 5, "whisters": [{"player": "A", "tricks": 5}]}
WHISTS_PENALTY = {"penalty": "whists", "player": "B", "wronged": "A", "size": 4, "reason": "4 wisty za dużo na A"}
MADE_SIX = {"contract": "6H", "declarer": "C"}
PLAYED_OUT = [NOT_WHISTED_TEN, FAILED_SIX, WHISTS_PENALTY, MADE_SIX]


def seated(*, table_size: int = 4, tables: int = 1, pulka_total: int = 20):
    """A Preferans tournament with series 1 drawn and its referee; seat 1A is Żaneta Wójcik-Łęcka."""
    tournament = PreferansTournamentFactory(
        name="Turniej Preferansa o Puchar Wójta",
        slug="preferans-wojta",
        date=date(2026, 12, 5),
        organiser_name="Klub Preferansa „Gdańsk”",
        pulka_total=pulka_total,
        table_size=table_size,
    )
    series = drawn_series(tournament, tables=tables)
    for assignment in series.assignments.all():
        RegistrationFactory(tournament=tournament, player=assignment.player)
    first = series.assignments.get(table=1, seat="A").player
    first.first_name, first.last_name = "Żaneta", "Wójcik-Łęcka"
    first.save()
    referee = UserFactory()
    tournament.referees.add(referee)
    return series, referee


def enter(series, entries, referee, *, table: int = 1):
    return pulka_entered(series.protocols.get(table=table), entries, referee)


def printed(client, user, name: str, *args) -> bytes:
    """A PDF as the referee prints it in Polish."""
    client.force_login(user)
    response = client.get(reverse(f"printing:{name}", args=args), HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return response.content


def words(content: bytes) -> str:
    """A PDF's words on one line."""
    return " ".join(pdf_text(content).split())


def settlement_lines(series, sheet) -> list[str]:
    """The settlement's line of each player at table 1 as printed: seat, name, pulka, góra, the
    mountain at the end and after the amnesty, the net whists with each seat, the balance."""
    settlement = settle(sheet)
    assert sum(settlement.balance.values()) == 0 and any(settlement.balance.values())
    lines = []
    for assignment in series.assignments.filter(table=1).order_by("seat"):
        seat = assignment.seat
        columns = [
            sheet.totals.pulka[seat],
            sheet.totals.gora[seat],
            settlement.mountains_at_end[seat],
            settlement.mountains[seat],
            *("—" if other == seat else signed(settlement.net[seat][other]) for other in sheet.players),
            signed(settlement.balance[seat]),
        ]
        lines.append(f"{seat} {assignment.player.full_name} {' '.join(map(str, columns))}")
    return lines


def test_a_tables_pulka_sheet_names_its_players_the_pulka_and_the_key_on_one_page(client):
    series, referee = seated(table_size=4)
    content = printed(client, referee, "protocol", series.tournament.slug, 1, 1)
    text = words(content)
    assert pdf_pages(content) == 1
    assert "Arkusz pulki: seria 1, stolik 1" in text
    assert "Preferans · Sochi (z pomocą) · Pulka do 20 · 05.12.2026" in text
    for assignment in series.assignments.filter(table=1):
        assert assignment.player.full_name in text
    assert "Żaneta Wójcik-Łęcka" in text
    assert "Pierwszy rozdaje A, potem rozdanie przechodzi w lewo: A → B → C → D → A." in text
    assert "Kontrakt 6 7 8 9 10 mizer Cena 2 4 6 8 10 10" in text
    assert "Pomoc: gracz z pełną pulką" in text and "bilans to małe punkty" in text
    assert "PIN: " + series.protocols.get(table=1).pin in text
    line_numbers = set(re.findall(r"^\d+$", pdf_text(content), re.M))
    assert {str(number) for number in range(1, 31)} <= line_numbers and "31" not in line_numbers


def player_blocks(text: str) -> int:
    """How many players' column blocks the sheet's heading has ("pulka góra wisty na" each)."""
    return len(re.findall(r"pulka góra wisty na", text))


@pytest.mark.parametrize(
    ("table_size", "order", "dealer_sits_out"),
    [(3, "A → B → C → A", False), (4, "A → B → C → D → A", True)],
)
def test_the_sheet_has_a_column_block_per_player_at_the_table(client, table_size, order, dealer_sits_out):
    series, referee = seated(table_size=table_size)
    text = words(printed(client, referee, "protocol", series.tournament.slug, 1, 1))
    assert player_blocks(text) == table_size
    assert f"przechodzi w lewo: {order}." in text
    assert ("Rozdający nie gra w swoim rozdaniu." in text) is dealer_sits_out
    assert ("Podpis D" in text) is (table_size == 4)
    assert f"osiągną {table_size * 20} ({table_size} × 20)" in text


def test_the_blank_walk_in_sheet_of_a_preferans_tournament_is_a_pulka_sheet_without_names(client):
    series, referee = seated(table_size=3)
    content = printed(client, referee, "blank_protocol", series.tournament.slug)
    text = words(content)
    assert pdf_pages(content) == 1
    assert "Arkusz pulki Preferans · Sochi (z pomocą) · Pulka do 20" in text and "Seria: Stolik:" in text
    assert "Żaneta" not in text and "PIN" not in text
    assert player_blocks(text) == 3


def test_the_archive_copy_shows_the_entries_and_the_settlement_of_a_finished_pulka(client):
    series, referee = seated(table_size=3, pulka_total=4)
    enter(series, PLAYED_OUT, referee)
    text = words(printed(client, referee, "archive", series.tournament.slug, 1, 1))
    # in the words of the referee's page (league.games.preferans.describe), with the help given
    assert "10 pik ♠, rozgrywa A (ugrany), bez wistu · pomoc B 4, C 2" in text
    assert "6 pik ♠, rozgrywa C (5 lew, nieugrany), wisty: A 5 lew" in text
    assert "kara dla B: wisty na A zawyżone o 4, A wpisuje tyle samo z powrotem, powód: 4 wisty za dużo na A" in text
    assert "Rozliczenie pulki" in text and "Nierozegrana" not in text
    sheet = keep_sheet(players=("A", "B", "C"), variant=load_variant("sochi"), total=4, entries=PLAYED_OUT)
    assert sheet.finished
    for line in settlement_lines(series, sheet):
        assert line in text


def test_a_pulka_stopped_before_its_end_is_settled_on_paper_as_the_standings_count_it(client):
    series, referee = seated(table_size=4)
    made_seven = {"contract": "7H", "declarer": "B", "tricks": 8, "whisters": [{"player": "C", "tricks": 2}]}
    protocol = enter(series, [made_seven], referee)
    text = words(printed(client, referee, "archive", series.tournament.slug, 1, 1))
    assert "7 kier ♥, rozgrywa B (8 lew, ugrany), wisty: C 2 lewy" in text
    assert "Nierozegrana do końca: rozliczona jak zamknięta za porozumieniem" in text
    sheet = keep_sheet(
        players=tuple("ABCD"), variant=load_variant("sochi"), total=20, entries=[made_seven], closed=True
    )
    for line in settlement_lines(series, sheet):
        assert line in text
    # the balances printed are the small points the standings add up from the stored rows
    assert settle(sheet).balance == {seat: sum(row.values[seat] for row in protocol.rows.all()) for seat in "ABCD"}


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # the job prints in a thread, which sees only committed rows
def test_the_batch_print_of_a_series_gives_every_tables_pulka_sheet_on_its_own_page(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.LANGUAGE_CODE = "pl"  # the batch prints in the site's language, whoever asks
    series, referee = seated(table_size=3, tables=3)
    client.force_login(referee)
    client.post(reverse("printing:protocols_job", args=[series.tournament.slug, 1]))
    tasks.wait_for_background_prints()
    job = PrintJob.objects.get()
    assert (job.status, job.progress, job.total) == (PrintJob.Status.DONE, 3, 3)
    with job.file.open("rb") as stored:
        pages = [" ".join(page.extract_text().split()) for page in PdfReader(stored).pages]
    assert len(pages) == 3
    for table, page in enumerate(pages, start=1):
        assert f"Arkusz pulki: seria 1, stolik {table}" in page and player_blocks(page) == 3


def test_a_baska_tournament_still_prints_its_deal_protocol():
    assert documents.protocol_template(TournamentFactory()) == "games/baska/print_sheet.html"


def test_the_results_sheets_of_a_preferans_tournament_at_tables_of_three_rank_by_places(client):
    series, referee = seated(table_size=3, tables=2, pulka_total=4)
    enter(series, PLAYED_OUT, referee, table=1)
    enter(series, [MADE_SIX], referee, table=2)  # C's six: C leads table 2, A and B level
    series.status, series.results_published = Series.Status.CLOSED, True
    series.save()
    text = words(printed(client, referee, "results", series.tournament.slug))
    name = {(a.table, a.seat): a.player.full_name for a in series.assignments.all()}
    assert "Klasyfikacja indywidualna po 1 serii" in text
    # big points 2, 1, 0 by the place at a table of three (A and B share places 2–3 at table 2),
    # small points the settled whists, with the decimal comma
    for line in [
        f"1. {name[1, 'A']} 2 +81",
        f"2. {name[2, 'C']} 2 +14",
        f"3. {name[1, 'B']} 1 −37",
        f"{name[2, 'A']} 0,5 −7",
        f"{name[2, 'B']} 0,5 −7",
        f"6. {name[1, 'C']} 0 −44",
    ]:
        assert line in text


def test_the_print_page_of_a_preferans_tournament_offers_pulka_sheets(client):
    series, referee = seated(table_size=3, tables=2)
    client.force_login(referee)
    page = client.get(reverse("printing:index", args=[series.tournament.slug]), HTTP_ACCEPT_LANGUAGE="pl")
    assert "Arkusze pulki wszystkich 2 stolików" in page.content.decode()
    assert "Pusty arkusz pulki dla dodatkowego stolika" in page.content.decode()


@pytest.mark.parametrize("tables", [1, 6])
def test_the_archive_copies_of_a_series_read_their_pulkas_in_the_same_few_queries(
    tables, django_assert_max_num_queries
):
    series, referee = seated(table_size=4, tables=tables)
    for table in range(1, tables + 1):
        enter(series, [MADE_SIX | {"declarer": "B"}, WHISTS_PENALTY], referee, table=table)
    with django_assert_max_num_queries(5):
        sheets = documents.protocol_sheets(series, list(range(1, tables + 1)), filled=True, base_url="http://t/")
    assert [len(sheet.paper.lines) for sheet in sheets] == [2] * tables


@pytest.mark.parametrize(
    ("variant", "present", "absent"),
    [
        ("sochi", ["Pomoc: gracz z pełną pulką", "idzie na górę 1×;"], ["schodzi z góry"]),
        ("leningrad", ["idzie na górę 2×, każdy punkt ponad pulkę schodzi z góry 2×"], ["Pomoc:"]),
    ],
)
def test_the_key_of_the_blank_sheet_follows_the_pulka_variant(client, variant, present, absent):
    series, referee = seated()
    game_settings_set(series.tournament, pulka_variant=variant)
    series.tournament.save()
    text = words(printed(client, referee, "protocol", series.tournament.slug, 1, 1))
    assert all(words_ in text for words_ in present) and not any(words_ in text for words_ in absent)
