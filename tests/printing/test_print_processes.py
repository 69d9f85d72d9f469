"""The batch print's layout processes: one per CPU the container gives the app (issue 26), not one
per CPU of the host, and at most ``BASKA_PRINT_PROCESSES``."""

from __future__ import annotations

import pytest

from league.printing import layout, tasks

FOUR_CPUS = {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("cpu_max", "expected"),
    [
        ("max 100000\n", 4),  # no quota: every CPU the process may run on
        ("200000 100000\n", 2),  # two CPUs' time per period
        ("150000 100000\n", 2),  # a CPU and a half: two processes use it all
        ("50000 100000\n", 1),  # half a CPU: still one process
        ("1000 100000\n", 1),
        ("800000 100000\n", 4),  # more time than CPUs to run on
        (None, 4),  # no cpu.max: not cgroup v2, or not a container
        ("", 4),  # unreadable contents count as no quota
    ],
)
def test_the_print_pool_counts_the_cpus_the_container_gives(tmp_path, monkeypatch, cpu_max, expected):
    monkeypatch.setattr(tasks.os, "sched_getaffinity", lambda pid: FOUR_CPUS, raising=False)
    path = tmp_path / "cpu.max"
    if cpu_max is not None:
        path.write_text(cpu_max)
    assert tasks.usable_cpus(path) == expected


def test_a_process_pinned_to_one_cpu_counts_one(tmp_path, monkeypatch):
    monkeypatch.setattr(tasks.os, "sched_getaffinity", lambda pid: {5}, raising=False)
    assert tasks.usable_cpus(tmp_path / "missing") == 1


def test_without_affinity_the_cpu_count_is_taken(tmp_path, monkeypatch):
    monkeypatch.delattr(tasks.os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(tasks.os, "cpu_count", lambda: 3)
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert tasks.usable_cpus(tmp_path / "cpu.max") == 3


def chunks() -> list[layout.Chunk]:
    return [layout.Chunk(f"<p>{n}</p>", "/", ()) for n in range(4)]


@pytest.mark.parametrize(
    ("cpus", "cap"),
    [(1, 0), (4, 1)],
    ids=["one CPU given", "capped at one process"],
)
def test_with_one_process_allowed_the_chunks_are_laid_out_here_in_order(monkeypatch, settings, cpus, cap):
    settings.BASKA_PRINT_PROCESSES = cap
    monkeypatch.setattr(tasks, "usable_cpus", lambda: cpus)
    monkeypatch.setattr(tasks, "ProcessPoolExecutor", None)  # any use of a pool would fail
    assert list(tasks._in_order(lambda chunk: chunk.html.encode(), iter(chunks()), 4)) == [
        b"<p>0</p>",
        b"<p>1</p>",
        b"<p>2</p>",
        b"<p>3</p>",
    ]


def test_the_cap_sizes_the_pool(monkeypatch, settings):
    sizes = []

    class Pool:
        def __init__(self, max_workers, mp_context):
            sizes.append(max_workers)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def map(self, render, items):
            return map(render, items)

    settings.BASKA_PRINT_PROCESSES = 2
    monkeypatch.setattr(tasks, "usable_cpus", lambda: 8)
    monkeypatch.setattr(tasks, "ProcessPoolExecutor", Pool)
    list(tasks._in_order(lambda chunk: chunk.html.encode(), iter(chunks()), 4))
    assert sizes == [2]
