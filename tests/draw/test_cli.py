"""``python -m league.draw``: the JSON format of docs/interfaces.md §3."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_cli(payload: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "league.draw"],
        input=payload,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def request(**extra) -> dict:
    players = [{"id": f"p{k}", "team": f"t{k % 5}" if k < 20 else None} for k in range(22)]
    return {"players": players, "series": 3, "seed": 12345, **extra}


def test_cli_prints_the_draw_in_the_documented_format():
    done = run_cli(json.dumps(request()))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"seed", "series", "repeats", "algorithm"}
    assert answer["seed"] == 12345
    assert len(answer["series"]) == 3
    for series in answer["series"]:
        assert set(series) == {"tables", "byes"}
        assert all(len(table) == 4 for table in series["tables"])
        assert len(series["byes"]) == 2
    assert answer["repeats"] == 0


def test_cli_gives_the_same_output_for_the_same_seed():
    payload = json.dumps(request())
    assert run_cli(payload).stdout == run_cli(payload).stdout


def test_cli_accepts_fixed_series_meetings_and_earlier_byes():
    first = json.loads(run_cli(json.dumps(request(series=1))).stdout)["series"][0]
    done = run_cli(json.dumps(request(fixed=[first], meetings=[["p0", "p1", 1]], had_bye=["p21"])))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["series"][0] == first
    assert "p21" not in answer["series"][1]["byes"] + answer["series"][2]["byes"]


def test_cli_draws_tables_of_three_when_asked():
    players = [{"id": f"p{k}", "team": None} for k in range(13)]
    done = run_cli(json.dumps({"players": players, "series": 2, "seed": 1, "table_size": 3}))
    assert done.returncode == 0, done.stderr
    for series in json.loads(done.stdout)["series"]:
        assert [len(table) for table in series["tables"]] == [3, 3, 3, 3]
        assert len(series["byes"]) == 1


def test_cli_without_a_table_size_draws_tables_of_four():
    assert run_cli(json.dumps(request())).stdout == run_cli(json.dumps(request(table_size=4))).stdout


def test_cli_refuses_an_impossible_draw_with_exit_status_2():
    done = run_cli(json.dumps(request(series=0)))
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "invalid_series_count"
    assert error["message"]


def test_cli_refuses_malformed_input_with_exit_status_2():
    for payload, code in [
        ("not json", "invalid_json"),
        (json.dumps({"players": [], "seed": 1}), "invalid_input"),
        (json.dumps({"players": "p1", "series": 1, "seed": 1}), "invalid_input"),
        (json.dumps(request(seed="x")), "invalid_input"),
        (json.dumps(request(had_bye="p1")), "invalid_input"),
        (json.dumps(request(table_size=5)), "invalid_input"),
        (json.dumps(request(table_size="3")), "invalid_input"),
    ]:
        done = run_cli(payload)
        assert done.returncode == 2, payload
        assert json.loads(done.stdout)["error"]["code"] == code
