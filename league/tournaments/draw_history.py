"""The draw history (historia losowań) of a series: every draw it has had, and restoring any of them.

A **version** of a series' draw is the seating one entry of the draw log left behind: the
first draw, a redraw, a swap, a restore. The log keeps each one whole (``kept_draw``: tables,
byes, seed, and the protocols' PINs and table links), so restoring a version puts back exactly
what was printed for it. A version is **printed** ("wydrukowane") when the table protocols to
play with were printed while it was in force. Restoring is refused, as a redraw is, once a deal
of the series is entered; restoring the draw in force changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from league.models import DrawLog, Series, Tournament
from league.printing.models import PrintJob
from league.tournaments.draws import kept_draw, refuse_if_final, series_put_back


@dataclass(frozen=True)
class DrawVersion:
    """One version of a series' draw: the log entry that made it (who, when, why) and the draw.

    ``current``: the newest version, the draw in force; ``in_force``: this version seats
    everybody as the draw in force does (restoring it would change nothing); ``printed``: the
    protocols of this very draw were printed.
    """

    entry: DrawLog
    draw: dict[str, Any]
    printed: bool
    current: bool
    in_force: bool

    @property
    def reason(self) -> str:
        return self.entry.details.get("reason", "")


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two kept draws seat everybody alike, with the same PINs (the log's JSON holds lists
    where a draw read now holds tuples)."""

    def rows(draw: dict[str, Any], key: str) -> list[list[Any]]:
        return [list(row) for row in draw[key]]

    return (
        rows(a, "tables") == rows(b, "tables")
        and rows(a, "protocols") == rows(b, "protocols")
        and (list(a["byes"]) == list(b["byes"]))
    )


def series_draw_history(*, series: Series) -> list[DrawVersion]:
    """The versions of the series' draw, newest first, in two queries.

    Entries written before the history was kept carry no draw of their own; a redraw then still
    kept the draw it replaced, which is the version of the entry before it.
    """
    entries = list(series.draw_logs.select_related("user").order_by("created", "pk"))
    draws: list[dict[str, Any] | None] = [entry.details.get("draw") for entry in entries]
    for k, entry in enumerate(entries[1:], start=1):
        if draws[k - 1] is None and "previous" in entry.details:
            draws[k - 1] = entry.details["previous"]
    printed = list(
        PrintJob.objects.filter(series=series, kind=PrintJob.Kind.PROTOCOLS).values_list("created", flat=True)
    )
    kept: list[tuple[DrawLog, dict[str, Any], bool]] = []
    for k, (entry, draw) in enumerate(zip(entries, draws, strict=True)):
        if draw is not None:
            ends = entries[k + 1].created if k + 1 < len(entries) else None
            kept.append((entry, draw, any(entry.created <= when and (ends is None or when < ends) for when in printed)))
    # A draw restored after its protocols were printed has them printed too: the sheets are the same.
    on_paper = [draw for _entry, draw, was_printed in kept if was_printed]
    in_force = kept[-1][1] if kept else None
    return [
        DrawVersion(
            entry=entry,
            draw=draw,
            printed=any(_same(draw, other) for other in on_paper),
            current=k == len(kept) - 1,
            in_force=_same(draw, in_force) if in_force is not None else False,
        )
        for k, (entry, draw, _was_printed) in enumerate(kept)
    ][::-1]


@transaction.atomic
def series_draw_restore(
    *, series: Series, entry_id: int, user: AbstractBaseUser | None = None, reason: str = ""
) -> bool:
    """Put back the version of the series' draw made by log entry ``entry_id``, with its PINs.

    Returns False, writing nothing, when that draw is the one in force (a repeated press).
    Refused once a deal of the series is entered (as a redraw is), or for an entry with no draw.
    """
    tournament = Tournament.objects.select_for_update().get(pk=series.tournament_id)
    series = Series.objects.get(pk=series.pk)
    refuse_if_final(series)
    version = next((v for v in series_draw_history(series=series) if v.entry.pk == entry_id), None)
    if version is None:
        raise ValidationError(
            _("Series %(number)s has no such draw in its history."),
            code="no_such_draw",
            params={"number": series.number},
        )
    if _same(version.draw, kept_draw(series)):
        return False
    series_put_back(
        tournament=tournament,
        series=series,
        kept=version.draw,
        user=user,
        details={
            "restored": version.entry.pk,
            "restored_seed": version.draw["seed"],
            "restored_from": version.entry.created.isoformat(),
            "reason": reason,
        },
    )
    return True
