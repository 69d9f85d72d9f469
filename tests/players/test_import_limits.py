"""Player lists that try to take the server down, or to slip past the preview (issue 11, items 2 and 11).

Every hostile file here must be answered quickly, with little memory and a clear message, and
nothing the preview lets through may fail when the import is confirmed.
"""

import io
import multiprocessing
import queue
import resource
import time
from datetime import timedelta

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from players.importing import (
    MAX_CELL_CHARS,
    MAX_ROWS,
    PENDING_IMPORT_HOURS,
    ImportFileError,
    build_preview,
    player_import,
    read_rows,
)
from players.models import Club, PendingImport, Player, Team
from players.views import IMPORT_SESSION_KEY
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# What reading one hostile file may cost beyond what the test process already holds.
EXTRA_MEMORY = 300 * 1024 * 1024
SECONDS = 20


def xlsx_bytes(cells: dict[str, object]) -> bytes:
    workbook = openpyxl.Workbook()
    for ref, value in cells.items():
        workbook.active[ref] = value
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _read_in_child(content: bytes, filename: str, extra: int, answers) -> None:
    address_space = resource.getrlimit(resource.RLIMIT_AS)[1]
    with open("/proc/self/statm") as statm:
        in_use = int(statm.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (in_use + extra, address_space))
    try:
        answers.put(("rows", len(read_rows(io.BytesIO(content), filename))))
    except ImportFileError as error:
        answers.put(("refused", str(error)))
    except MemoryError:
        answers.put(("memory", ""))


def read_with_a_budget(content: bytes, filename: str) -> tuple[str, str | int, float]:
    """Read the file in a forked child allowed ``EXTRA_MEMORY`` more address space and
    ``SECONDS`` of time, so a file that would eat the machine fails the test instead."""
    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    child = context.Process(target=_read_in_child, args=(content, filename, EXTRA_MEMORY, answers))
    started = time.monotonic()
    child.start()
    child.join(SECONDS)
    if child.is_alive():
        child.kill()
        child.join()
        return "timeout", "", time.monotonic() - started
    try:
        kind, detail = answers.get(timeout=5)
    except queue.Empty:
        kind, detail = "crashed", child.exitcode
    return kind, detail, time.monotonic() - started


@pytest.fixture
def organiser(client):
    client.force_login(UserFactory(is_superuser=True))
    return client


def test_a_sheet_declaring_the_last_cell_of_excel_is_read_quickly_in_little_memory():
    """The 4.7 KB file of the issue: cells at XFD1 and A1048576 declare a sheet of 17 billion cells."""
    content = xlsx_bytes({"A1": "imię", "B1": "nazwisko", "XFD1": "x", "A2": "Anna", "B2": "Nowak", "A1048576": "y"})
    assert len(content) < 10_000
    kind, detail, seconds = read_with_a_budget(content, "lista.xlsx")
    assert (kind, detail) == ("rows", 2)
    assert seconds < 5


def test_a_csv_far_over_the_row_limit_is_refused_without_reading_it_to_the_end():
    text = "imię;nazwisko;płeć\n" + "".join(f"Gracz;Numer{n};M\n" for n in range(MAX_ROWS * 10))
    upload = io.BytesIO(text.encode())
    with pytest.raises(ImportFileError) as error:
        read_rows(upload, "lista.csv")
    assert str(MAX_ROWS) in str(error.value)
    assert upload.tell() < len(text.encode()) / 2


def test_an_xlsx_that_unpacks_to_far_more_than_it_weighs_is_refused():
    """A zip bomb: a short file whose shared strings would fill the memory once unpacked."""
    content = xlsx_bytes(
        {
            "A1": "imię",
            "B1": "nazwisko",
            "C1": "x" * 32_000,
            **{f"D{n}": f"{n:04d}" + "y" * 32_000 for n in range(1, 2000)},
        }
    )
    with pytest.raises(ImportFileError):
        read_rows(io.BytesIO(content), "lista.xlsx")


SHARED_STRINGS = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"


def with_part_swollen(part: str, pattern: str, filler: str, count: int) -> bytes:
    """A two-cell workbook with ``filler`` repeated ``count`` times after ``pattern`` in ``part``
    (a shared-strings part is added, as Excel writes one): a few KB zipped."""
    import re
    import zipfile

    with zipfile.ZipFile(io.BytesIO(xlsx_bytes({"A1": "imię", "B1": "nazwisko"}))) as archive:
        parts = {name: archive.read(name).decode() for name in archive.namelist()}
    parts.setdefault(
        "xl/sharedStrings.xml", '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"></sst>'
    )
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        "</Types>", f'<Override PartName="/xl/sharedStrings.xml" ContentType="{SHARED_STRINGS}" /></Types>'
    )
    parts[part] = re.sub(pattern, lambda match: match.group(0) + filler * count, parts[part], count=1)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("part", "pattern", "filler", "count"),
    [
        ("xl/styles.xml", r"<cellXfs[^>]*>", "<xf/>", 1_500_000),  # 74 s and 1.2 GB before
        ("xl/styles.xml", r"<fonts[^>]*>", "<font><b/></font>", 440_000),  # 12 s and 385 MB before
        ("xl/sharedStrings.xml", r"<sst[^>]*>", "<si><t/></si>", 560_000),  # 8.5 s before
    ],
    ids=["styles", "fonts", "shared-strings"],
)
def test_a_workbook_whose_styles_or_strings_swell_is_refused_at_once(part, pattern, filler, count):
    """openpyxl parses these parts whole even in read-only mode; a player list needs little of them."""
    content = with_part_swollen(part, pattern, filler, count)
    assert len(content) < 100_000

    kind, detail, seconds = read_with_a_budget(content, "lista.xlsx")

    assert kind == "refused" and seconds < 5, (kind, detail, seconds)


@pytest.mark.parametrize("filename", ["lista.csv", "lista.xlsx"])
def test_a_cell_longer_than_the_cap_is_refused_naming_its_row_and_column(filename):
    club = "K" * (MAX_CELL_CHARS + 1)
    if filename.endswith(".csv"):
        upload = io.BytesIO(f"imię;nazwisko;klub\nAnna;Nowak;Gryf\nJan;Bork;{club}\n".encode())
    else:
        upload = io.BytesIO(
            xlsx_bytes({"A1": "imię", "B1": "nazwisko", "C1": "klub", "A3": "Jan", "B3": "Bork", "C3": club})
        )
    with pytest.raises(ImportFileError) as error:
        read_rows(upload, filename)
    assert "3" in str(error.value)
    assert "klub" in str(error.value)


def test_a_cell_too_long_for_the_csv_reader_itself_is_refused_naming_its_row():
    upload = io.BytesIO(b"imie,nazwisko\nAnna,Nowak\nJan," + b"B" * 200_000 + b"\n")
    with pytest.raises(ImportFileError) as error:
        read_rows(upload, "lista.csv")
    assert "3" in str(error.value)


def test_blank_rows_are_skipped_and_rows_keep_their_line_in_the_sheet():
    upload = io.BytesIO(xlsx_bytes({"A1": "imię", "B1": "nazwisko", "C1": "płeć", "A4": "Anna", "B4": "Nowak"}))
    preview = build_preview(read_rows(upload, "lista.xlsx"), user=UserFactory(is_superuser=True))
    assert [row.number for row in preview.rows] == [4]


def test_a_file_over_the_upload_limit_is_refused_before_it_is_read(organiser, settings):
    settings.BASKA_UPLOAD_MAX_BYTES = 1000
    text = "imię;nazwisko;płeć\n" + "".join(f"Gracz;Numer{n};M\n" for n in range(100))
    upload = SimpleUploadedFile("lista.csv", text.encode())
    response = organiser.post(reverse("players:import_upload"), {"file": upload})
    assert response.status_code == 200
    assert "1000" in response.context["form"].errors["file"][0]
    assert not PendingImport.objects.exists()


def test_a_huge_cell_never_reaches_the_session(organiser):
    upload = SimpleUploadedFile("lista.csv", ("imię;nazwisko;klub\nAnna;Nowak;" + "K" * 100_000 + "\n").encode())
    response = organiser.post(reverse("players:import_upload"), {"file": upload})
    assert response.status_code == 200
    assert "klub" in response.context["form"].errors["file"][0]
    assert IMPORT_SESSION_KEY not in organiser.session
    assert not PendingImport.objects.exists()


def test_a_preview_with_errors_is_shown_at_once_and_keeps_nothing_in_the_session(organiser):
    upload = SimpleUploadedFile("lista.csv", "imię;nazwisko;płeć\nAnna;Nowak;Q\n".encode())
    response = organiser.post(reverse("players:import_upload"), {"file": upload})
    assert response.status_code == 200
    assert "Unknown gender" in response.text
    assert IMPORT_SESSION_KEY not in organiser.session
    assert not PendingImport.objects.exists()
    assert organiser.post(reverse("players:import_preview")).url == reverse("players:import_upload")
    assert not Player.objects.exists()


def test_a_full_list_waits_in_the_database_and_the_session_keeps_only_its_id(organiser):
    rows = "".join(f"Zażółć{n};Gęślą-Jaźń{n};K;Klub Baśki w Kartuzach {n % 50};PL-{n:05d}\n" for n in range(MAX_ROWS))
    upload = SimpleUploadedFile("lista.csv", ("imię;nazwisko;płeć;klub;licencja\n" + rows).encode())
    response = organiser.post(reverse("players:import_upload"), {"file": upload})
    assert response.url == reverse("players:import_preview")
    assert len(PendingImport.objects.get().rows) == MAX_ROWS
    session = organiser.session
    assert len(session.encode(session.load())) < 1000


def test_a_list_waiting_for_another_user_cannot_be_confirmed(organiser, client):
    upload = SimpleUploadedFile("lista.csv", "imię;nazwisko;płeć\nAnna;Nowak;K\n".encode())
    organiser.post(reverse("players:import_upload"), {"file": upload})
    other = UserFactory(is_superuser=True)
    client.force_login(other)
    session = client.session
    session[IMPORT_SESSION_KEY] = PendingImport.objects.get().pk
    session.save()
    assert client.post(reverse("players:import_preview")).url == reverse("players:import_upload")
    assert not Player.objects.exists()


def test_a_list_left_unconfirmed_for_a_day_is_forgotten_at_the_next_upload(organiser, client):
    upload = SimpleUploadedFile("lista.csv", "imię;nazwisko;płeć\nAnna;Nowak;K\n".encode())
    organiser.post(reverse("players:import_upload"), {"file": upload})
    PendingImport.objects.update(created=timezone.now() - timedelta(hours=PENDING_IMPORT_HOURS, minutes=1))
    client.force_login(UserFactory(is_superuser=True))
    upload = SimpleUploadedFile("inna.csv", "imię;nazwisko;płeć\nJan;Bork;M\n".encode())
    client.post(reverse("players:import_upload"), {"file": upload})
    assert list(PendingImport.objects.values_list("filename", flat=True)) == ["inna.csv"]


# --- item 11: the preview must refuse what the confirm would refuse ---------------------------


def preview_of(text: str):
    return build_preview(read_rows(io.BytesIO(text.encode()), "lista.csv"), user=UserFactory(is_superuser=True))


def test_a_club_name_longer_than_the_register_allows_is_an_error_in_the_preview():
    club = "K" * (Club._meta.get_field("name").max_length + 1)
    preview = preview_of(f"imię;nazwisko;płeć;klub\nAnna;Nowak;K;{club}\n")
    assert not preview.can_confirm
    assert str(Club._meta.get_field("name").max_length) in preview.rows[0].errors[0]


@pytest.mark.parametrize("character", ["\x00", "\u202e", "\u2066"], ids=["NUL", "right-to-left-override", "isolate"])
@pytest.mark.parametrize("column", ["imię", "nazwisko", "licencja", "klub", "drużyna", "płeć"])
def test_a_control_character_in_any_cell_is_an_error_in_the_preview(column, character):
    values = {"imię": "Anna", "nazwisko": "Nowak", "płeć": "K", "klub": "Gryf", "licencja": "L1", "drużyna": ""}
    values[column] = values[column][:1] + character + values[column][1:] if values[column] else character
    preview = preview_of(";".join(values) + "\n" + ";".join(values.values()) + "\n")
    assert not preview.can_confirm
    assert any("control characters" in error.lower() for error in preview.rows[0].errors)


def test_rows_naming_one_team_in_different_cases_make_one_team():
    rows = "".join(f"Gracz;Nr{n};M;{'Gryfy' if n % 2 else 'gryfy'}\n" for n in range(4))
    preview = preview_of("imię;nazwisko;płeć;drużyna\n" + rows)
    assert preview.can_confirm
    player_import(preview=preview, user=UserFactory(is_superuser=True))
    assert Team.objects.get().members.count() == 4


def test_a_confirm_never_fails_on_what_the_preview_passed(organiser):
    """Every kind of row the preview accepts, confirmed through the screens, is saved."""
    text = (
        "imię;nazwisko;płeć;klub;licencja;drużyna\n"
        + "".join(f"Żaneta;Łęcka{n};K;{'K' * 120};{'L' * 39}{n};{'D' * 120}\n" for n in range(4))
        + "Jan;Bork;M;;;\n"
    )
    organiser.post(reverse("players:import_upload"), {"file": SimpleUploadedFile("lista.csv", text.encode())})
    response = organiser.post(reverse("players:import_preview"))
    assert response.status_code == 302
    assert Player.objects.count() == 5
