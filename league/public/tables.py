"""Standing tables of the public site (django-tables2), sortable and exportable.

Rows are the dicts of ``league.standings.compute``; numbers are shown the Polish way
("14,5") on the page and exported as plain numbers.
"""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.http import QueryDict
from django.urls import reverse
from django.utils.formats import localize
from django.utils.translation import gettext_lazy as _

from league.templatetags.points import signed


class StandingTable(tables.Table):
    """A ranking of players; subclasses change what a row links to."""

    label = tables.Column(verbose_name=_("Place"), order_by=("place",), attrs={"td": {"class": "num"}})
    name = tables.Column(verbose_name=_("Name"), linkify=lambda record: reverse("public:player", args=[record["pk"]]))
    # hidden on phones (app styles), where name and points matter most
    team = tables.Column(verbose_name=_("Team"), default="", attrs={"td": {"class": "team"}, "th": {"class": "team"}})
    big_points = tables.Column(verbose_name=_("Big points"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    small_points = tables.Column(verbose_name=_("Small points"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})

    class Meta:
        template_name = "public/_standing_table.html"
        attrs = {"class": "data standings"}
        orderable = True

    def render_big_points(self, value: float) -> str:
        return localize(value)

    def render_small_points(self, value: int) -> str:
        return signed(value)

    # exports carry numbers, not their display
    def value_big_points(self, value: float) -> float:
        return value

    def value_small_points(self, value: int) -> int:
        return value

    def value_label(self, record: dict[str, Any]) -> int:
        return record["place"]


class TeamStandingTable(StandingTable):
    name = tables.Column(verbose_name=_("Team"), linkify=lambda record: reverse("public:team", args=[record["pk"]]))
    team = None


TOURNAMENTS_COLUMN = "tournaments"


def standing_table(
    rows: list[dict[str, Any]], *, teams: bool, big_points: bool, season: bool = False, prefix: str = ""
) -> StandingTable:
    """The table for one ranking list; big points are left out where the
    tournament has none, and a season table counts each row's tournaments."""
    extra = [(TOURNAMENTS_COLUMN, tables.Column(verbose_name=_("Tournaments"), attrs={"td": {"class": "num"}}))]
    table_class = TeamStandingTable if teams else StandingTable
    return table_class(
        rows,
        prefix=prefix,
        exclude=() if big_points else ("big_points",),
        extra_columns=extra if season else (),
    )


SORT_PARAM = "sort"  # django-tables2's name for it, after the table's prefix


def sort_params(query: QueryDict, keys: list[str]) -> dict[str, str]:
    """The sort parameters of ``query`` (``individual-sort=-small_points``) that name
    a sortable column of the standing tables; anything else is dropped, so only
    a bounded set of orders ever reaches a cache key."""
    columns = {name for name, column in StandingTable.base_columns.items() if column.orderable is not False}
    params = {}
    for key in keys:
        value = query.get(f"{key}-{SORT_PARAM}", "")
        if value.removeprefix("-") in columns:
            params[f"{key}-{SORT_PARAM}"] = value
    return params
