"""The one way a change reaches the public standings: every writer calls :func:`standings_touch`.

A tournament's public pages (its standings, the season's table, a player's and a team's page,
the records, the rating) are kept under its **stamp** (``TournamentStamp``): a token written
anew in the same transaction as the change it covers. A page compares the stamp it was kept
under with the one stored, one row per tournament, so a committed change can never be served
from an older page, and a rolled-back one never moves the stamp.

What the stamp covers is what the standings are computed from: the tournament itself (its name,
season, rules, which lists it publishes), the deals, totals and penalties of its closed series,
which series are closed and published, its byes, seats and registrations, and the names, clubs
and genders of the players and teams registered. Deals entered while a series is being played do
not move it (the standings count closed series only), or every deal saved in the hall would throw
the standings out of the cache while spectators watch.

``docs/architecture.md`` draws the path from a deal to a public page.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from league.models import Tournament
from league.queueing import enqueue_or_run
from league.standings.models import TournamentStamp
from league.standings.tasks import recompute_standings

AHEAD = timedelta(minutes=1)


def standings_touch(*, tournament_id: int) -> None:
    """A change of the tournament's standings is being written: give it a new stamp in the
    writer's transaction, and once that commits recompute its standings, its season's, its
    players' kept results and the ratings (``league.standings.tasks``), so the first visitor after
    the change does not wait for them."""
    _new_stamps([tournament_id])
    # Queued after the commit, so the task never reads data from before the change and nothing is
    # queued for a change rolled back; with the broker down the work is done here.
    transaction.on_commit(lambda: enqueue_or_run(recompute_standings, tournament_id))


def standings_touch_many(*, tournaments: QuerySet[Tournament]) -> None:
    """A change seen in many tournaments at once (a renamed, merged or anonymised player, a
    renamed team, an edited rule set): new stamps for all of them, in one statement. Their
    standings are computed again by the next visitor rather than here: a regular's rename would
    otherwise recompute a whole league's history inside the organiser's request."""
    _new_stamps(tournaments.order_by().values_list("pk", flat=True).distinct())


def _new_stamps(tournament_ids: Iterable[int]) -> None:
    """Write a fresh token for each tournament: an insert, or an update where it has one already,
    in one statement, so two writers of one tournament each leave a stamp of their own (a counter
    read and incremented could lose one) and never fail on the other's insert.

    ``changed`` is when it was written, dating the public pages (their ``Last-Modified``), whose
    dates count whole seconds: a change in the same second as the one before is dated the next
    second, so a client asking "modified since?" with the earlier page's date gets the new one. The
    rows are locked first, so the writer after another one reads its date."""
    ids = sorted(set(tournament_ids))
    with transaction.atomic():
        before = dict(
            TournamentStamp.objects.select_for_update()
            .filter(tournament_id__in=ids)
            .order_by("tournament_id")
            .values_list("tournament_id", "changed")
        )
        now = timezone.now()
        stamps = [
            TournamentStamp(tournament_id=pk, token=secrets.token_hex(8), changed=_after(before.get(pk), now))
            for pk in ids
        ]
        TournamentStamp.objects.bulk_create(
            stamps, update_conflicts=True, unique_fields=["tournament"], update_fields=["token", "changed"]
        )


def _after(previous: datetime | None, now: datetime) -> datetime:
    """When a change written at ``now`` is dated: ``now``, or the second after ``previous`` when
    that is later. Many changes in one second (a registration after another in one import) date
    the last a few seconds ahead of the clock, at most ``AHEAD`` (then changes share a second)."""
    if previous is None:
        return now
    return max(now, min(previous.replace(microsecond=0) + timedelta(seconds=1), now + AHEAD))
