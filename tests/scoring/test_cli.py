"""``python -m scoring`` keeps the docs/interfaces.md §2 contract."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run(command, stdin):
    text = stdin if isinstance(stdin, str) else json.dumps(stdin)
    return subprocess.run(
        [sys.executable, "-m", "scoring", *command], input=text, capture_output=True, text=True, cwd=REPO, check=False
    )


def test_deal_example_gives_the_documented_output():
    done = run(["deal"], {"ruleset": "puck", "deal": {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}})
    assert done.returncode == 0
    assert done.stdout.strip() == (
        '{"values": {"A": 1, "B": -1, "C": 1, "D": -1}, "winner": "old", "level": "z_wyjsciem", '
        '"doublings": 0, "multiplier": 1}'
    )


def test_protocol_example_gives_rows_and_totals():
    deals = [
        {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 52},
        {"contract": "zolo", "old": ["B"], "kontras": ["young"], "old_eyes": 70},
    ]
    done = run(["protocol"], {"ruleset": "pomorska", "deals": deals})
    assert done.returncode == 0
    assert json.loads(done.stdout) == {
        "rows": [
            {
                "values": {"A": -2, "B": 2, "C": -2, "D": 2},
                "totals": {"A": -2, "B": 2, "C": -2, "D": 2},
                "bok_round": False,
            },
            {
                "values": {"A": -20, "B": 60, "C": -20, "D": -20},
                "totals": {"A": -22, "B": 62, "C": -22, "D": -18},
                "bok_round": True,
            },
        ],
        "totals": {"A": -22, "B": 62, "C": -22, "D": -18},
    }
    assert list(json.loads(done.stdout)["rows"][0]) == ["values", "totals", "bok_round"]


def test_placement_example_prints_whole_numbers_as_integers():
    done = run(["placement"], {"ruleset": "puck", "small_points": {"A": 30, "B": 10, "C": -5, "D": -35}})
    assert done.returncode == 0
    assert done.stdout.strip() == '{"big_points": {"A": 6.5, "B": 4.5, "C": 1, "D": 0}}'


def test_ruleset_may_be_a_file_path(tmp_path):
    path = tmp_path / "club.json"
    path.write_text((REPO / "scoring" / "rulesets" / "gorzow.json").read_text(encoding="utf-8"), encoding="utf-8")
    done = run(["deal"], {"ruleset": str(path), "deal": {"contract": "zolo", "old": ["A"], "old_eyes": 60}})
    assert json.loads(done.stdout)["values"]["A"] == 45


def test_pulka_writes_the_running_sheet_and_the_settlement_in_money():
    remiz = {
        "contract": "7H",
        "declarer": "A",
        "tricks": 6,
        "whisters": [{"player": "B", "tricks": 3}, {"player": "C", "tricks": 1}],
    }
    deals = [remiz, *({"contract": "10NT", "declarer": player} for player in "ABC" for _ in range(2))]
    done = run(
        ["pulka"], {"players": ["A", "B", "C"], "variant": "sochi", "total": 20, "stake": "0.10", "deals": deals}
    )
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert answer["rows"][0] == {
        "entry": "deal",
        "dealer": "A",
        "contract": "7H",
        "declarer": "A",
        "made": False,
        "help": {},
        "pulka": {"A": 0, "B": 0, "C": 0},
        "gora": {"A": 4, "B": 0, "C": 0},
        "whists": {"A": {"B": 0, "C": 0}, "B": {"A": 12, "C": 0}, "C": {"A": 4, "B": 0}},
        "final": True,
    }
    assert answer["finished"] is True and answer["closed"] is False
    # A's mountain of 4 goes to 3 (one point off, 3 whists from each), 10 whists to each
    settlement = answer["settlement"]
    assert settlement["adjustments"] == [{"player": "A", "points": -1, "whists_each": 3}]
    assert settlement["whists"]["B"]["A"] == 12 + 3 + 10
    assert settlement["balance"] == {"A": -42, "B": 25, "C": 17}
    assert settlement["money"] == {"A": "-4.20", "B": "2.50", "C": "1.70"}


def test_an_open_pulka_has_no_settlement_yet():
    request = {"players": ["A", "B", "C", "D"], "variant": "leningrad", "total": 10, "deals": []}
    done = run(["pulka"], request)
    assert json.loads(done.stdout)["settlement"] is None


@pytest.mark.parametrize(
    ("command", "stdin", "code"),
    [
        (["pulka"], {"players": ["A", "B", "C"], "variant": "sochi", "total": 50}, "missing_field"),
        (
            ["pulka"],
            {
                "players": ["A", "B", "C"],
                "variant": "sochi",
                "total": 50,
                "deals": [{"contract": "6S", "declarer": "Z"}],
            },
            "pulka_unknown_player",
        ),
        (["deal"], "{not json", "invalid_json"),
        (["deal"], {"deal": {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}}, "missing_field"),
        (["deal"], {"ruleset": "kartuzy", "deal": {}}, "unknown_ruleset"),
        (["deal"], {"ruleset": "puck", "deals": []}, "invalid_input"),
        (["deal"], [1, 2], "invalid_input"),
        (["score"], {"ruleset": "puck"}, "unknown_command"),
        ([], {"ruleset": "puck"}, "unknown_command"),
        (["protocol"], {"ruleset": "puck", "deals": [{"contract": "zwykla"}]}, "missing_field"),
        (["placement"], {"ruleset": "puck", "small_points": {"A": "1"}}, "invalid_input"),
    ],
)
def test_invalid_input_exits_2_with_an_error_object(command, stdin, code):
    done = run(command, stdin)
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error["code"] == code and error["message"]
