"""Standings missing from the cache are computed by one web process while the others wait
for its lists, so a series closing under load does not multiply the work."""

from __future__ import annotations

import threading

from django.core.cache import cache

from league.standings import cache as standings_cache
from league.standings.cache import cached_once


def test_a_process_finding_another_computing_waits_for_its_lists():
    cache.add("rankings:tournament:7:abc:building", 1)  # another web process is computing
    threading.Timer(0.2, lambda: cache.set("rankings:tournament:7:abc", {"individual": ["theirs"]})).start()

    lists = cached_once("rankings:tournament:7:abc", lambda: {"individual": ["mine"]})

    assert lists == {"individual": ["theirs"]}


def test_the_lists_of_a_process_that_gave_up_are_computed_here(monkeypatch):
    monkeypatch.setattr(standings_cache, "WAIT_SECONDS", 0.2)
    cache.add("rankings:tournament:7:abc:building", 1)  # taken by a process that then died

    lists = cached_once("rankings:tournament:7:abc", lambda: {"individual": ["mine"]})

    assert lists == {"individual": ["mine"]}
    assert cache.get("rankings:tournament:7:abc") == lists
    assert cache.get("rankings:tournament:7:abc:building") is None


def test_a_failed_computation_leaves_no_lock_behind():
    def broken():
        raise RuntimeError("database gone")

    try:
        cached_once("rankings:tournament:7:abc", broken)
    except RuntimeError:
        pass

    assert cache.get("rankings:tournament:7:abc:building") is None
    assert cached_once("rankings:tournament:7:abc", lambda: {"individual": []}) == {"individual": []}
