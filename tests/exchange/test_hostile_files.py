"""Exchange files made to hurt: huge numbers, deep nesting, oversized files and
tournaments larger than the app plays. Each is refused with the place named and
the database unchanged; a file another program wrote with a BOM is read."""

import io
import json
from pathlib import Path

import pytest

from league.exchange import ExchangeError, import_tournament, parse_exchange_file
from league.models import MAX_PLAYERS
from scoring import load_ruleset, ruleset_to_dict
from tests.exchange.files import DIRECTORY, load
from tests.exchange.test_import import row_counts

pytestmark = pytest.mark.django_db


def refusal(data) -> ExchangeError:
    before = row_counts()
    with pytest.raises(ExchangeError) as caught:
        import_tournament(data)
    assert row_counts() == before
    return caught.value


def write(tmp_path: Path, text: str) -> Path:
    file = tmp_path / "turniej.json"
    file.write_text(text, encoding="utf-8")
    return file


# --- numbers and nesting -----------------------------------------------------------


def test_the_command_names_the_place_of_a_5000_digit_number(manage, tmp_path):
    text = json.dumps(load("small_puck")).replace('"old_eyes": 70', '"old_eyes": ' + "7" * 5000)
    before = row_counts()

    status, _, err = manage(str(write(tmp_path, text)))

    assert status == 1
    assert "series[0].tables[0].deals[1].old_eyes: " in err
    assert "Traceback" not in err
    assert row_counts() == before


@pytest.mark.parametrize("number", ["-" + "9" * 5000, "1" + "0" * 4400])
def test_a_number_beyond_pythons_digit_limit_is_refused_at_its_place(manage, tmp_path, number):
    text = json.dumps(load("small_puck")).replace('"series_count": 2', f'"series_count": {number}')

    status, _, err = manage(str(write(tmp_path, text)))

    assert status == 1
    assert "tournament.series_count: " in err
    assert "Traceback" not in err


def test_a_huge_number_where_a_player_belongs_is_refused_at_its_place():
    data = load("small_puck")
    data["series"][1]["byes"] = [10**5000]

    assert refusal(data).path == "series[1].byes[0]"


@pytest.mark.parametrize("number", ["Infinity", "1e999", "1e6"])
def test_own_rules_with_a_number_beyond_any_score_are_refused_at_its_place(manage, tmp_path, number):
    rules = ruleset_to_dict(load_ruleset("puck"))
    rules["placement"]["positive_bonus"] = "BONUS"
    data = load("small_puck")
    data["tournament"]["ruleset_data"] = rules
    text = json.dumps(data).replace('"BONUS"', number)
    before = row_counts()

    status, _, err = manage(str(write(tmp_path, text)))

    assert status == 1
    assert "tournament.ruleset_data.placement.positive_bonus: " in err
    assert row_counts() == before


@pytest.mark.parametrize("depth", [980, 50_000])
def test_the_command_refuses_deep_nesting_without_a_traceback(manage, tmp_path, depth):
    data = load("small_puck")
    data["series"][0]["tables"][0]["deals"][0] = "HOLE"
    text = json.dumps(data).replace('"HOLE"', "[" * depth + "]" * depth)

    status, _, err = manage(str(write(tmp_path, text)))

    assert status == 1
    assert "nested" in err
    assert "Traceback" not in err


def test_nesting_deeper_than_the_format_is_refused_at_its_place():
    data = load("small_puck")
    nested: list = []
    data["series"][1]["tables"][0]["deals"][0]["old"] = [nested]
    for _ in range(900):
        nested.append([])
        nested = nested[0]

    error = refusal(data)

    assert error.path.startswith("series[1].tables[0].deals[0].old[0]")
    assert "nested" in error.message


# --- the file itself ---------------------------------------------------------------


def test_a_file_with_a_byte_order_mark_imports(manage, tmp_path):
    text = "\ufeff" + (DIRECTORY / "small_puck.json").read_text(encoding="utf-8")

    status, out, _ = manage(str(write(tmp_path, text)))

    assert (status, out.strip()) == (0, "Imported Mały turniej (maly-turniej).")


def test_a_file_larger_than_the_limit_is_refused_before_it_is_read_whole():
    class Endless(io.RawIOBase):
        """A file that never ends; reading it whole would never return."""

        read_bytes = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:
            buffer[:] = b" " * len(buffer)
            self.read_bytes += len(buffer)
            return len(buffer)

    endless = Endless()

    with pytest.raises(ExchangeError, match="larger than 1000 bytes"):
        parse_exchange_file(endless, max_bytes=1000)

    assert endless.read_bytes <= 1001


def test_a_file_at_the_limit_is_read():
    content = json.dumps(load("small_puck")).encode()

    assert parse_exchange_file(io.BytesIO(content), max_bytes=len(content)) == load("small_puck")


# --- the size of the tournament ------------------------------------------------------


def test_a_table_with_more_deals_than_the_tournament_plays_is_refused():
    data = load("small_puck")
    data["tournament"]["deals_per_series"] = 20
    deals = data["series"][0]["tables"][1]["deals"]
    deals *= 30  # 60 deals

    error = refusal(data)

    assert error.path == "series[0].tables[1].deals[20]"
    assert "20 deals per series" in error.message


def test_a_table_with_as_many_deals_as_the_tournament_plays_imports():
    data = load("small_puck")
    data["tournament"]["deals_per_series"] = 20
    data["series"][0]["tables"][1]["deals"] *= 10

    tournament = import_tournament(data)

    assert tournament.series.get(number=1).protocols.get(table=2).rows.count() == 20


@pytest.mark.parametrize(("field", "value"), [("series_count", 13), ("deals_per_series", 97), ("deals_per_series", 3)])
def test_a_tournament_beyond_the_bounds_of_the_forms_is_refused(field, value):
    data = load("small_puck")
    data["tournament"][field] = value

    error = refusal(data)

    assert error.path == f"tournament.{field}"
    assert error.message.startswith("Enter a whole number from")


def test_a_file_with_more_players_than_a_tournament_takes_is_refused():
    data = load("small_puck")
    data["players"] += [
        {"id": f"x{n}", "first_name": "Gracz", "last_name": f"Numer {n}", "gender": "M"}
        for n in range(MAX_PLAYERS - len(data["players"]) + 1)
    ]

    error = refusal(data)

    assert error.path == f"players[{MAX_PLAYERS}]"
    assert str(MAX_PLAYERS) in error.message


def test_a_table_number_beyond_the_largest_tournament_is_refused():
    data = load("small_puck")
    data["series"][0]["tables"][1]["number"] = MAX_PLAYERS // 4 + 1

    assert refusal(data).path == "series[0].tables[1].number"
