"""The standings' Celery task: recomputing them after results change (queued by
``league.standings.refresh.standings_touch`` once the change commits).

Without a broker (the embedded mode) tasks run eagerly in the web process, so
the recompute happens before the referee's response is sent.
"""

from __future__ import annotations

from celery import shared_task


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
