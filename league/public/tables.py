"""Standing tables of the public site (django-tables2), sortable and exportable.

Rows are the dicts of ``league.standings.compute``; numbers are shown the Polish way
("14,5") on the page and exported as plain numbers.

The downloads (:class:`StandingExport`) are CSV and XLSX files anyone may open
in a spreadsheet, filled with names anyone may choose: a cell a spreadsheet would
read as a formula is written as text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import django_tables2 as tables
from django.http import QueryDict
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django_tables2.export import TableExport
from tablib import Dataset

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

    class Meta(StandingTable.Meta):
        """django-tables2 does not inherit a Meta: without this the team list lost the look of the others."""


TOURNAMENTS_COLUMN = "tournaments"


class SeasonResultColumn(tables.Column):
    """One tournament's result in a season row (``results``, league.standings.seasons): the
    season's figure, struck through where best K of N dropped it; exported as the number."""

    def __init__(self, index: int, *, name: str, heading: str, big_points: bool) -> None:
        self.index, self.figure = index, "big_points" if big_points else "small_points"
        attrs = {"td": {"class": "num"}, "th": {"class": "num", "title": name}}
        super().__init__(verbose_name=heading, accessor="results", orderable=False, attrs=attrs)

    def render(self, value: list[dict[str, Any] | None]) -> str:
        result = value[self.index]
        if result is None:
            return "–"
        shown = localize(result[self.figure]) if self.figure == "big_points" else signed(result[self.figure])
        if result["counted"]:
            return shown
        return format_html('<s class="dropped" title="{}">{}</s>', _("dropped"), shown)

    def value(self, **kwargs: Any) -> Any:
        result = kwargs["value"][self.index]
        return None if result is None else result[self.figure]


def standing_table(
    rows: list[dict[str, Any]],
    *,
    teams: bool,
    big_points: bool,
    season: bool = False,
    counted: bool = False,
    results: Sequence[tuple[int, str, str]] = (),
    prefix: str = "",
) -> StandingTable:
    """The table for one ranking list; big points are left out where the
    tournament has none, and a season table counts each row's tournaments
    (and, with ``counted``, how many of them count: a season of best K of N);
    ``results`` (each tournament's place in the rows' ``results``, its name and column heading)
    adds a column per tournament showing which results counted and which were dropped."""
    extra = [(TOURNAMENTS_COLUMN, tables.Column(verbose_name=_("Tournaments"), attrs={"td": {"class": "num"}}))]
    if counted:
        extra.append(("counted", tables.Column(verbose_name=_("Counted"), attrs={"td": {"class": "num"}})))
    extra += [
        (f"result_{i}", SeasonResultColumn(i, name=name, heading=heading, big_points=big_points))
        for i, name, heading in results
    ]
    table_class = TeamStandingTable if teams else StandingTable
    return table_class(
        rows,
        prefix=prefix,
        exclude=() if big_points else ("big_points",),
        extra_columns=extra if season else (),
    )


# What a spreadsheet takes for the start of a formula (OWASP, "CSV injection"): a name
# "=HYPERLINK(…)" or "+1+1" would be run when the file is opened.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def as_text(value: Any) -> Any:
    """A text cell no spreadsheet runs: one starting like a formula gets a leading
    apostrophe, the spreadsheets' own mark of "text, not a formula"; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def decimal_comma(value: Any) -> Any:
    """A fractional number as Polish Excel reads a number from CSV ("2,5"); anything else as it is."""
    return str(value).replace(".", ",") if isinstance(value, float) else value


class StandingExport(TableExport):
    """A standing table as a CSV or XLSX download, every text cell made safe by :func:`as_text`.

    Both open as they are in Polish Excel: the CSV is UTF-8 with a byte-order mark (without
    it Excel reads Polish letters as another code page), its cells are separated by ``;``
    and its fractions written with a decimal comma (Excel in Polish takes "," for the
    decimal sign); the XLSX sheet is named after the list (``title``) and holds numbers
    as numbers.

    Only the two formats the pages offer are valid: tablib's others (ODS, YAML, XLS…)
    need libraries that are not installed, and ``?_export=ods`` would be a server error.
    """

    FORMATS = {export_format: TableExport.FORMATS[export_format] for export_format in ("csv", "xlsx")}
    CSV_DELIMITER = ";"

    def __init__(self, export_format: str, table: tables.Table, *, title: str = "") -> None:
        # tablib cuts the sheet's name to Excel's 31 characters and replaces the ones Excel refuses
        super().__init__(export_format, table, dataset_kwargs={"title": title} if title else None)

    @classmethod
    def is_valid_format(cls, export_format: str | None) -> bool:
        return export_format in cls.FORMATS

    def table_to_dataset(self, table: tables.Table, exclude_columns: Any, dataset_kwargs: Any = None) -> Dataset:
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        safe = [tuple(map(as_text, row)) for row in dataset]
        return Dataset(*safe, headers=dataset.headers, title=dataset.title)

    def export(self) -> str | bytes:
        if self.format != "csv":
            return super().export()
        rows = [tuple(map(decimal_comma, row)) for row in self.dataset]
        return "\ufeff" + Dataset(*rows, headers=self.dataset.headers).export("csv", delimiter=self.CSV_DELIMITER)


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
