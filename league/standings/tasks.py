"""The standings' Celery task: recomputing them after results change.

Without a broker (the embedded mode) tasks run eagerly in the web process, so
the recompute happens before the referee's response is sent.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerError

logger = logging.getLogger(__name__)


# The name is the one workers and queued messages already know, from before the task moved here.
@shared_task(name="league.tasks.recompute_standings", ignore_result=True)
def recompute_standings(tournament_id: int) -> None:
    """Compute a tournament's standings and its season's and put them in the
    cache, so the first visitor after a change does not wait for them."""
    # imported late: Celery loads this module before the app registry is ready
    from league.standings.cache import refresh

    refresh(tournament_id)


def schedule_recompute(tournament_id: int) -> None:
    """Recompute the standings once the current transaction commits.

    Call after any change of results (rows, byes, a closed series). Waiting for
    the commit means the task never reads data from before the change; if the
    transaction rolls back nothing is queued.
    """
    transaction.on_commit(lambda: _enqueue_recompute(tournament_id))


def _enqueue_recompute(tournament_id: int) -> None:
    """Queue the recompute; with the broker down, compute in this process instead.

    Runs after the commit, so a raise here would turn a saved deal into a server
    error for the person who entered it. The standings cannot go stale either way
    (their cache key carries the data's stamp); computing here only keeps the next
    visitor from waiting for them.
    """
    try:
        recompute_standings.delay(tournament_id)
    except (BrokerError, OSError) as error:
        logger.warning(
            "Broker unavailable (%s); recomputing standings of tournament %s in-process", error, tournament_id
        )
        try:
            recompute_standings.run(tournament_id)
        except Exception:  # the results are saved; the next visitor computes the standings
            logger.exception("In-process recompute of tournament %s failed", tournament_id)
