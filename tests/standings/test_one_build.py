"""Standings missing from the cache are computed by one web process while the others wait
for its lists, so a series closing under load does not multiply the work."""

from __future__ import annotations

import threading

from django.core.cache import cache

from league import caching
from league.standings.cache import TOURNAMENT_RANKINGS

KEY = "rankings:tournament:7:abc"


def lists_of(name: str) -> dict:
    return {"individual": [{"place": 1, "label": "1.", "name": name, "pk": 1, "big_points": 3, "small_points": 60}]}


def test_a_process_finding_another_computing_waits_for_its_lists():
    cache.add(f"{KEY}:building", 1)  # another web process is computing
    threading.Timer(0.2, lambda: TOURNAMENT_RANKINGS.set(KEY, lists_of("theirs"))).start()

    lists = TOURNAMENT_RANKINGS.once(KEY, lambda: lists_of("mine"))

    assert lists == lists_of("theirs")


def test_the_lists_of_a_process_that_gave_up_are_computed_here(monkeypatch):
    monkeypatch.setattr(caching, "WAIT_SECONDS", 0.2)
    cache.add(f"{KEY}:building", 1)  # taken by a process that then died

    lists = TOURNAMENT_RANKINGS.once(KEY, lambda: lists_of("mine"))

    assert lists == lists_of("mine")
    assert TOURNAMENT_RANKINGS.get(KEY) == lists
    assert cache.get(f"{KEY}:building") is None


def test_a_failed_computation_leaves_no_lock_behind():
    def broken():
        raise RuntimeError("database gone")

    try:
        TOURNAMENT_RANKINGS.once(KEY, broken)
    except RuntimeError:
        pass

    assert cache.get(f"{KEY}:building") is None
    assert TOURNAMENT_RANKINGS.once(KEY, lambda: {"individual": []}) == {"individual": []}
