"""The standings' Celery task: recomputing them after results change.

Without a broker (the embedded mode) tasks run eagerly in the web process, so
the recompute happens before the referee's response is sent.
"""

from __future__ import annotations

from celery import shared_task
from django.db import transaction

from league.queueing import enqueue_or_run


# The name is the one workers and queued messages already know, from before the task moved here.
@shared_task(name="league.tasks.recompute_standings", ignore_result=True)
def recompute_standings(tournament_id: int) -> None:
    """Compute a tournament's standings and its season's and put them in the
    cache, so the first visitor after a change does not wait for them; then rewrite its
    players' results (``league.standings.summaries``) from those standings, so the player and
    team pages read one row per tournament, and the ratings (``league.rating``)."""
    # imported late: Celery loads this module before the app registry is ready
    from league.rating.services import ratings_refresh
    from league.standings.cache import refresh
    from league.standings.summaries import player_results_refresh

    refresh(tournament_id)
    player_results_refresh(tournament_id=tournament_id)
    ratings_refresh(tournament_id=tournament_id)  # from this tournament's day on, if its matches changed


def schedule_recompute(tournament_id: int) -> None:
    """Recompute the standings once the current transaction commits.

    Call after any change of results (rows, byes, a closed series). Waiting for
    the commit means the task never reads data from before the change; if the
    transaction rolls back nothing is queued.
    """
    # Queued after the commit, so a raise would turn a saved deal into a server error;
    # with the broker down the standings are computed here (they cannot go stale either
    # way: their cache key carries the data's stamp, computing only spares the next visitor).
    transaction.on_commit(lambda: enqueue_or_run(recompute_standings, tournament_id))
