"""Celery tasks of the league: recomputing standings after results change.

Without a broker (the embedded mode) tasks run eagerly in the web process, so
the recompute happens before the referee's response is sent.
"""

from __future__ import annotations

from celery import shared_task
from django.db import transaction


@shared_task(ignore_result=True)
def recompute_standings(tournament_id: int) -> None:
    """Compute a tournament's standings and its season's and put them in the
    cache, so the first visitor after a change does not wait for them."""
    from league import rankings  # imported late: Celery loads this module before the app registry is ready

    rankings.refresh(tournament_id)


def schedule_recompute(tournament_id: int) -> None:
    """Recompute the standings once the current transaction commits.

    Call after any change of results (rows, byes, a closed series). Waiting for
    the commit means the task never reads data from before the change; if the
    transaction rolls back nothing is queued.
    """
    transaction.on_commit(lambda: recompute_standings.delay(tournament_id))
