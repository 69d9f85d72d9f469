import io

import openpyxl
import pytest
from django.core.exceptions import ValidationError

from players.importing import (
    Action,
    ImportFileError,
    build_preview,
    player_import,
    read_rows,
)
from players.models import Club, Gender, Player, Team
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


def csv_file(text: str, encoding: str = "utf-8") -> io.BytesIO:
    return io.BytesIO(text.encode(encoding))


def xlsx_file(rows: list[list[object]]) -> io.BytesIO:
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    buffer.seek(0)
    return buffer


def importer():
    """A superuser: what an organiser may change is told in test_who_may_edit.py."""
    return UserFactory(username="importer", is_superuser=True)


def preview_of(text: str, **options):
    return build_preview(read_rows(csv_file(text), "lista.csv"), user=importer(), **options)


def test_polish_headers_and_semicolons_are_read():
    rows = read_rows(csv_file("Imię;Nazwisko;Płeć;Klub;Licencja\nAnna;Kowalska;K;Gryf;12\n"), "a.csv")
    assert [row.values for row in rows] == [
        {"first_name": "Anna", "last_name": "Kowalska", "gender": "K", "club": "Gryf", "licence": "12", "team": ""}
    ]


def test_windows_1250_csv_from_polish_excel_is_read():
    rows = read_rows(csv_file("imię;nazwisko\nŁucja;Żmuda\n", "cp1250"), "a.csv")
    assert rows[0].values["first_name"] == "Łucja"


def test_english_headers_are_read_from_xlsx():
    upload = xlsx_file([["First name", "Last name", "Gender", "Licence"], ["Jan", "Bork", "M", 1234]])
    rows = read_rows(upload, "players.xlsx")
    assert rows[0].values["licence"] == "1234"
    assert rows[0].values["gender"] == "M"


def test_file_without_name_columns_is_refused():
    with pytest.raises(ImportFileError):
        read_rows(csv_file("klub,miasto\nGryf,Kartuzy\n"), "a.csv")


def test_other_file_types_are_refused():
    with pytest.raises(ImportFileError):
        read_rows(csv_file("x"), "lista.pdf")


@pytest.mark.parametrize(
    ("value", "gender"),
    [("K", Gender.WOMAN), ("kobieta", Gender.WOMAN), ("F", Gender.WOMAN), ("M", Gender.MAN), ("Mężczyzna", Gender.MAN)],
)
def test_polish_and_english_gender_values_are_understood(value, gender):
    preview = preview_of(f"imię,nazwisko,płeć\nAnna,Nowak,{value}\n")
    assert preview.rows[0].gender == gender


def test_import_preview_lists_every_bad_row_and_saves_nothing():
    preview = preview_of(
        "imię,nazwisko,płeć\n"
        "Anna,Kowalska,K\n"
        ",Bork,M\n"  # missing first name
        "Jan,Zielke,X\n"  # unknown gender
        "Anna,Kowalska,K\n"  # duplicate of row 2
        "Ola,Treder,\n"  # new player without gender
    )
    assert [row.number for row in preview.rows if row.errors] == [3, 4, 5, 6]
    assert "row 2" in preview.rows[3].errors[0]
    assert not preview.can_confirm
    with pytest.raises(ValidationError):
        player_import(preview=preview, user=importer())
    assert not Player.objects.exists()


def test_confirmed_import_creates_players_clubs_and_teams():
    text = "imię,nazwisko,płeć,klub,drużyna\n" + "".join(f"Gracz,Nr{n},M,Gryf Wejherowo,Gryfy\n" for n in range(4))
    preview = preview_of(text)
    assert preview.rows[0].action == Action.CREATE
    assert any("Gryf Wejherowo" in note for note in preview.rows[0].notes)
    player_import(preview=preview, user=importer())
    team = Team.objects.get(name="Gryfy")
    assert team.members.count() == 4
    assert Club.objects.get().players.count() == 4


def test_existing_player_is_updated_and_blank_cells_keep_values():
    player = PlayerFactory(first_name="Anna", last_name="Kowalska", gender=Gender.WOMAN, licence="")
    preview = preview_of("imię,nazwisko,płeć,licencja\nanna,kowalska,,PL-7\n")
    assert preview.rows[0].player == player
    assert preview.rows[0].action == Action.UPDATE
    player_import(preview=preview, user=importer())
    player.refresh_from_db()
    assert (player.licence, player.gender) == ("PL-7", Gender.WOMAN)


def test_existing_player_is_skipped_when_updates_are_off():
    player = PlayerFactory(first_name="Anna", last_name="Kowalska", licence="")
    preview = preview_of("imię,nazwisko,licencja\nAnna,Kowalska,PL-7\n", update_existing=False)
    assert preview.rows[0].action == Action.SKIP
    player_import(preview=preview, user=importer())
    player.refresh_from_db()
    assert player.licence == ""


def test_team_of_wrong_size_in_file_is_an_error_on_its_rows():
    preview = preview_of("imię,nazwisko,płeć,drużyna\nA,A,M,Trójka\nB,B,M,Trójka\nC,C,M,Trójka\n")
    assert all("3" in row.errors[0] for row in preview.rows)


def test_player_already_in_another_active_team_is_an_error():
    captain = TeamFactory(members=4, name="Stara").captain
    rows = [f"{captain.first_name},{captain.last_name},M,Nowa"] + [f"X,Y{n},M,Nowa" for n in range(3)]
    preview = preview_of("imię,nazwisko,płeć,drużyna\n" + "\n".join(rows))
    assert "Stara" in preview.rows[0].errors[0]


def test_confirm_is_all_or_nothing_when_the_database_refuses_a_row():
    ClubFactory(name="Gryf")
    preview = preview_of("imię,nazwisko,płeć,klub,licencja\nAnna,Nowak,K,Gryf,L1\nJan,Bork,M,Gryf,L2\n")
    PlayerFactory(first_name="Inny", last_name="Gracz", licence="L2")  # appears after the preview
    with pytest.raises(ValidationError):
        player_import(preview=preview, user=importer())
    assert not Player.objects.filter(last_name__in=["Nowak", "Bork"]).exists()


def test_xlsx_upload_is_previewed_and_confirmed():
    upload = xlsx_file([["imię", "nazwisko", "płeć"], ["Anna", "Nowak", "kobieta"], ["Jan", "Bork", "M"]])
    preview = build_preview(read_rows(upload, "lista.xlsx"), user=importer())
    assert preview.can_confirm
    player_import(preview=preview, user=importer())
    assert Player.objects.get(last_name="Nowak").gender == Gender.WOMAN


def test_a_row_shorter_than_the_header_reads_its_missing_cells_as_blank():
    rows = read_rows(csv_file("imię;nazwisko;płeć;klub\nAnna;Nowak\n"), "a.csv")
    assert rows[0].values == {
        "first_name": "Anna",
        "last_name": "Nowak",
        "gender": "",
        "club": "",
        "licence": "",
        "team": "",
    }


def test_a_team_of_one_is_refused_in_polish_with_the_right_form_of_the_noun():
    """ "Drużyna Gryfy miałaby 1 zawodników" (issue 41): the count through ngettext."""
    from django.utils import translation

    rows = read_rows(io.BytesIO("imię;nazwisko;płeć;drużyna\nOla;Treder;K;Gryfy\n".encode()), "lista.csv")
    with translation.override("pl"):
        preview = build_preview(rows, user=UserFactory(is_superuser=True))
        errors = " ".join(preview.rows[0].errors)
    assert "miałaby 1 zawodnika;" in errors
