"""What the standings stamp used to be: a digest of every row a tournament's standings are computed
from, read by a scan (17 correlated subqueries per tournament). The stored stamp
(``league.standings.refresh``) must move whenever this would: the tests compare the two."""

from __future__ import annotations

import hashlib

from django.db.models import Count, F, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.expressions import Expression

from league.models import Bye, Registration, Series, TableAssignment, Tournament
from league.ranking_lists import PUBLISH_FIELDS
from league.results.models import DealRowVersion, Penalty, PenaltyVersion, Protocol


def _per_tournament(queryset: QuerySet, path: str, aggregate: Expression) -> Subquery:
    rows = queryset.filter(**{path: OuterRef("pk")}).order_by().values(path)
    return Subquery(rows.annotate(value=aggregate).values("value"))


def scanned_stamp(tournament: Tournament) -> str:
    closed = Q(status=Series.Status.CLOSED)
    counted = Protocol.objects.filter(series__status=Series.Status.CLOSED, series__results_published=True)
    counted_changes = DealRowVersion.objects.filter(
        protocol__series__status=Series.Status.CLOSED, protocol__series__results_published=True
    )
    row = (
        Tournament.objects.filter(pk=tournament.pk)
        .values_list(
            "pk",
            "updated",
            *PUBLISH_FIELDS,
            _per_tournament(counted, "series__tournament", Count("pk")),
            _per_tournament(counted, "series__tournament", Sum("version")),
            _per_tournament(counted, "series__tournament", Max("updated")),
            _per_tournament(counted_changes, "protocol__series__tournament", Max("pk")),
            _per_tournament(Series.objects, "tournament", Count("pk", filter=closed)),
            _per_tournament(Series.objects, "tournament", Sum("number", filter=closed)),
            _per_tournament(Series.objects, "tournament", Sum("number", filter=closed & Q(results_published=True))),
            _per_tournament(Bye.objects, "tournament", Count("pk")),
            _per_tournament(Bye.objects, "tournament", Max("pk")),
            _per_tournament(TableAssignment.objects, "series__tournament", Max("pk")),
            _per_tournament(Registration.objects, "tournament", Count("pk")),
            _per_tournament(Registration.objects, "tournament", Sum(F("team_id") * F("player_id"))),
            _per_tournament(Registration.objects, "tournament", Max("player__updated")),
            _per_tournament(Registration.objects, "tournament", Max("team__updated")),
            _per_tournament(Penalty.objects, "series__tournament", Count("pk")),
            _per_tournament(Penalty.objects, "series__tournament", Max("updated")),
            _per_tournament(PenaltyVersion.objects, "series__tournament", Max("pk")),
            "own_rules__ruleset__updated",
        )
        .get()
    )
    return hashlib.blake2b(repr(row).encode(), digest_size=8).hexdigest()
