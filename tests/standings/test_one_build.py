"""Standings missing from the cache are computed by one web process while the others wait
for its lists, so a series closing under load does not multiply the work."""

from __future__ import annotations

import threading

from django.core.cache import cache

from league import caching
from league.standings.cache import TOURNAMENT_RANKINGS

KEY, STAMP = "rankings:tournament:7", "abc"


def lists_of(name: str) -> dict:
    return {"individual": [{"place": 1, "label": "1.", "name": name, "pk": 1, "big_points": 3, "small_points": 60}]}


def test_a_process_finding_another_computing_waits_for_its_lists():
    cache.add(f"{KEY}:building", 1)  # another web process is computing
    threading.Timer(0.2, lambda: TOURNAMENT_RANKINGS.set(KEY, (STAMP, lists_of("theirs")))).start()

    lists = TOURNAMENT_RANKINGS.current(KEY, STAMP, lambda: lists_of("mine"))

    assert lists == lists_of("theirs")


def test_the_lists_of_a_process_that_gave_up_are_computed_here(monkeypatch):
    monkeypatch.setattr(caching, "WAIT_SECONDS", 0.2)
    cache.add(f"{KEY}:building", 1)  # taken by a process that then died

    lists = TOURNAMENT_RANKINGS.current(KEY, STAMP, lambda: lists_of("mine"))

    assert lists == lists_of("mine")
    assert TOURNAMENT_RANKINGS.get(KEY) == (STAMP, lists)
    assert cache.get(f"{KEY}:building") is None


def test_a_failed_computation_leaves_no_lock_behind():
    def broken():
        raise RuntimeError("database gone")

    try:
        TOURNAMENT_RANKINGS.current(KEY, STAMP, broken)
    except RuntimeError:
        pass

    assert cache.get(f"{KEY}:building") is None
    assert TOURNAMENT_RANKINGS.current(KEY, STAMP, lambda: {"individual": []}) == {"individual": []}


def test_a_new_stamp_builds_the_lists_again_and_writes_them_over_the_old_ones():
    TOURNAMENT_RANKINGS.current(KEY, "old", lambda: lists_of("before the correction"))

    lists = TOURNAMENT_RANKINGS.current(KEY, "new", lambda: lists_of("after"))

    assert lists == lists_of("after")
    assert TOURNAMENT_RANKINGS.get(KEY) == ("new", lists)  # one key: nothing of the old state is left


def test_a_process_waiting_for_another_ignores_the_lists_of_an_older_stamp(monkeypatch):
    monkeypatch.setattr(caching, "WAIT_SECONDS", 0.3)
    TOURNAMENT_RANKINGS.set(KEY, ("old", lists_of("before the correction")))
    cache.add(f"{KEY}:building", 1)

    assert TOURNAMENT_RANKINGS.current(KEY, "new", lambda: lists_of("after")) == lists_of("after")
