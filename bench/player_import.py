"""Benchmark of the player import against hostile files (issue 11, item 2).

Run: ``.venv/bin/python bench/player_import.py``. It builds the files below in a
temporary directory and sends each one to the import screen (``/zawodnicy/import/``)
through Django's test client, in a fresh process of its own, as a superuser; a file
that can be confirmed is then confirmed. For each it prints the answer, the time from
upload to answer (and of the confirm), the process's peak RSS, how much of it the
request added, how many bytes the session keeps and how many wait in the database for
the confirm (the ``PendingImport``'s rows). Goal: every file up to the
upload limit answered in under 5 s and 200 MB.

The files:

- ``xfd1.xlsx``: 4.7 KB, cells at XFD1 and A1048576, so the sheet declares
  17 billion cells (the file that grew a worker to 22.5 GB);
- ``limit.csv``: a CSV of exactly ``BASKA_UPLOAD_MAX_BYTES`` (55,000 rows);
- ``huge-cell.csv``: one club name filling the upload limit;
- ``rows-2000.csv`` and ``rows-2000.xlsx``: the largest list accepted, every
  cell as long as the register allows;
- ``teams-2000.csv``: 2,000 players making 500 new teams of 500 new clubs;
- ``zip-bomb.xlsx``: shared strings that unpack to 700 times the file;
- ``styled-rows.xlsx``: 130,000 rows of formatted empty cells, each one to parse (just under
  the cap on what an XLSX may unpack to);
- ``20mb.csv``: the issue's 20 MB CSV, over the upload limit.

Each child runs with a 4 GB address-space limit and 120 s, so the old code's
answer to ``xfd1.xlsx`` would show as a failure instead of taking the machine; the
script exits 1 when a child failed or was killed. ``BENCH_FILES`` (comma-separated
names of the list above; all by default) sends only those: a tiny run (tests/bench) is
``BENCH_FILES=xfd1.xlsx``.
"""

from __future__ import annotations

import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHILD_ADDRESS_SPACE = 4 * 1024**3
CHILD_SECONDS = 120
GOAL_SECONDS, GOAL_MB = 5, 200


def setup_django(workdir: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
    os.environ.pop("CACHE_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)  # whatever the confirm queues runs here
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
    import django

    django.setup()


# --- the files ---------------------------------------------------------------------------------


def xlsx(rows: list[list[object]] | None = None, cells: dict[str, object] | None = None) -> bytes:
    import openpyxl

    workbook = openpyxl.Workbook(write_only=rows is not None)
    sheet = workbook.create_sheet() if rows is not None else workbook.active
    for row in rows or []:
        sheet.append(row)
    for ref, value in (cells or {}).items():
        sheet[ref] = value
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def full_rows(count: int) -> list[list[str]]:
    """Rows with every cell as long as its field of the register takes (80, 80, 120, 40, 120)."""
    rows = [["imię", "nazwisko", "płeć", "klub", "licencja"]]
    for n in range(count):
        rows.append(
            [
                f"Żaneta{n:05d}".ljust(80, "ż"),
                f"Wójcik-Łęcka{n:05d}".ljust(80, "ę"),
                "K" if n % 2 else "M",
                f"Klub Baśki {n % 40:02d}".ljust(120, "ś"),
                f"PL-{n:06d}".ljust(40, "0"),
            ]
        )
    return rows


def team_rows(count: int) -> list[list[str]]:
    """Rows making ``count // 4`` new teams of four, each of a new club of its own."""
    rows = [["imię", "nazwisko", "płeć", "klub", "drużyna"]]
    for n in range(count):
        rows.append([f"Józef{n:05d}", f"Kościerski{n:05d}", "M", f"Klub Baśki {n // 4:04d}", f"Drużyna {n // 4:04d}"])
    return rows


def csv_of(rows: list[list[str]]) -> bytes:
    return "".join(";".join(row) + "\n" for row in rows).encode()


def styled_rows(count: int) -> bytes:
    """An XLSX whose sheet XML holds ``count`` rows of empty formatted cells, written by hand
    (openpyxl would not write empty cells)."""
    base = xlsx(cells={"A1": "imię", "B1": "nazwisko"})
    source = zipfile.ZipFile(io.BytesIO(base))
    sheet = source.read("xl/worksheets/sheet1.xml").decode()
    rows = "".join(f'<row r="{n}"><c r="A{n}" s="0"/><c r="B{n}" s="0"/></row>' for n in range(2, count + 2))
    sheet = sheet.replace("</row></sheetData>", "</row>" + rows + "</sheetData>")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for item in source.infolist():
            data = sheet.encode() if item.filename == "xl/worksheets/sheet1.xml" else source.read(item.filename)
            target.writestr(item.filename, data)
    return buffer.getvalue()


def build_files(directory: Path, limit: int, names: list[str] | None = None) -> list[Path]:
    """The files above (only ``names``, when given), written to ``directory``."""
    line = "Gracz;Kowalski{:06d};M;Klub Baśki w Kartuzach\n"
    text = "imię;nazwisko;płeć;klub\n" + "".join(line.format(n) for n in range(limit // len(line) + 1))
    makers = {
        "xfd1.xlsx": lambda: xlsx(cells={"A1": "imię", "B1": "nazwisko", "XFD1": "x", "A1048576": "y"}),
        "limit.csv": lambda: text.encode()[:limit],
        "huge-cell.csv": lambda: ("imię;nazwisko;klub\nAnna;Nowak;" + "K" * limit).encode()[:limit],
        "rows-2000.csv": lambda: csv_of(full_rows(2000)),
        "rows-2000.xlsx": lambda: xlsx(rows=full_rows(2000)),
        "zip-bomb.xlsx": lambda: xlsx(
            cells={"A1": "imię", "B1": "nazwisko", **{f"C{n}": f"{n:05d}" + "z" * 32_000 for n in range(1, 12_000)}}
        ),
        "teams-2000.csv": lambda: csv_of(team_rows(2000)),
        "styled-rows.xlsx": lambda: styled_rows(130_000),
        "20mb.csv": lambda: (text * (20 * 1024 * 1024 // len(text) + 1)).encode()[: 20 * 1024 * 1024],
    }
    unknown = set(names or []) - set(makers)
    if unknown:
        raise SystemExit(f"BENCH_FILES: no such file {sorted(unknown)}; the files: {', '.join(makers)}")
    paths = []
    for name, make in makers.items():
        if names and name not in names:
            continue
        path = directory / name
        path.write_bytes(make())
        paths.append(path)
    return paths


# --- one upload, in a process of its own -------------------------------------------------------


def memory_mb(field: str) -> float:
    """``VmRSS`` (now) or ``VmHWM`` (the peak) of this process, in MB; unlike ``ru_maxrss``
    the peak starts afresh at ``exec``, so the parent's memory is not counted."""
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith(field + ":"))
    return int(line.split()[1]) / 1024


def upload_one(path: Path, workdir: Path) -> dict:
    setup_django(workdir)
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from players.models import PendingImport
    from players.views import IMPORT_SESSION_KEY

    setup_test_environment()  # the client then keeps each response's context

    user, _ = get_user_model().objects.get_or_create(username="bench", defaults={"is_superuser": True})
    client = Client(raise_request_exception=False)
    client.force_login(user)
    client.get(reverse("players:import_upload"))  # loads every view module before the baseline is taken
    upload = SimpleUploadedFile(path.name, path.read_bytes())
    baseline = memory_mb("VmRSS")
    started = time.perf_counter()
    response = client.post(reverse("players:import_upload"), {"file": upload, "update_existing": "on"})
    if response.status_code == 302:
        response = client.get(response.url)
    seconds = time.perf_counter() - started
    peak = memory_mb("VmHWM")
    session = client.session.load()
    kept = len(client.session.encode(session)) if IMPORT_SESSION_KEY in session else 0
    waiting = sum(len(json.dumps(rows)) for rows in PendingImport.objects.values_list("rows", flat=True))
    result = {"status": response.status_code, "seconds": seconds, "peak_mb": peak, "added_mb": peak - baseline}
    result["session_bytes"], result["waiting_bytes"] = kept, waiting
    context = response.context
    if context and "form" in context and context["form"].errors:
        result["answer"] = " ".join(context["form"].errors["file"])
    elif context and "preview" in context:
        preview = context["preview"]
        result["answer"] = f"preview of {len(preview.rows)} rows, {preview.error_count} with errors"
        if preview.can_confirm:
            started = time.perf_counter()
            confirm = client.post(reverse("players:import_preview"))
            result["confirm_seconds"] = time.perf_counter() - started
            result["answer"] += f"; confirmed ({confirm.status_code})"
    else:
        result["answer"] = f"answer {response.status_code}"
    return result


def limit_child() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_ADDRESS_SPACE, CHILD_ADDRESS_SPACE))


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="baska-bench-import-"))
    try:
        setup_django(workdir)
        from django.conf import settings
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        template = workdir / "bench.sqlite3"
        limit = settings.BASKA_UPLOAD_MAX_BYTES
        print(f"upload limit {limit:,} bytes; goal {GOAL_SECONDS} s and {GOAL_MB} MB per file")
        names = [name.strip() for name in os.environ.get("BENCH_FILES", "").split(",") if name.strip()]
        files = build_files(workdir, limit, names)
        failed = 0
        columns = ("seconds", 8), ("peak MB", 8), ("+MB", 6), ("session", 8), ("waiting", 9)
        print(f"{'file':18} {'size':>11} " + " ".join(f"{title:>{width}}" for title, width in columns) + "  answer")
        for path in files:
            child_dir = workdir / f"run-{path.name}"
            child_dir.mkdir()
            shutil.copy(template, child_dir / "bench.sqlite3")
            try:
                finished = subprocess.run(
                    [sys.executable, __file__, "--one", str(path), str(child_dir)],
                    capture_output=True,
                    text=True,
                    timeout=CHILD_SECONDS,
                    preexec_fn=limit_child,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                print(f"{path.name:18} {path.stat().st_size:>11,} over {CHILD_SECONDS} s: killed")
                failed += 1
                continue
            if finished.returncode:
                print(f"{path.name:18} {path.stat().st_size:>11,} failed: {finished.stderr.strip().splitlines()[-1:]}")
                failed += 1
                continue
            r = json.loads(finished.stdout.strip().splitlines()[-1])
            confirm = f" (confirm {r['confirm_seconds']:.2f} s)" if "confirm_seconds" in r else ""
            print(
                f"{path.name:18} {path.stat().st_size:>11,} {r['seconds']:>8.2f} {r['peak_mb']:>8.0f} "
                f"{r['added_mb']:>6.0f} {r['session_bytes']:>8,} {r['waiting_bytes']:>9,}  {r['answer']}{confirm}"
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if failed:
        print(f"FAILED: {failed} of {len(files)} files got no answer")
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(upload_one(Path(sys.argv[2]), Path(sys.argv[3]))))
    else:
        sys.exit(main())
