"""The rating list as a table (django-tables2): on the page, and as the CSV and XLSX downloads
every public list offers (``league.public.tables.StandingExport``)."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext

from league.rating.compute import PROVISIONAL_SERIES
from league.rating.selectors import ListedRating
from players.models import Gender


def certainty(series: int) -> str:
    """The rating's certainty in words: sure, or provisional while it rests on few series."""
    if series >= PROVISIONAL_SERIES:
        return str(_("sure"))
    return ngettext(
        "provisional: fewer than %(count)d series", "provisional: fewer than %(count)d series", PROVISIONAL_SERIES
    ) % {"count": PROVISIONAL_SERIES}


class RatingTable(tables.Table):
    """One line per player: place, name (a newcomer marked), rating, series, certainty, last played."""

    place = tables.Column(verbose_name=_("Place"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    name = tables.Column(verbose_name=_("Name"))
    shown = tables.Column(verbose_name=_("Rating"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    # hidden on phones with the certainty and the day (the app's styles hide "team" cells there)
    series = tables.Column(
        verbose_name=_("Series played"), attrs={"td": {"class": "num team"}, "th": {"class": "num team"}}
    )
    certainty = tables.Column(
        verbose_name=_("Certainty"), accessor="series", attrs={"td": {"class": "team"}, "th": {"class": "team"}}
    )
    last_played = tables.Column(verbose_name=_("Last played"), attrs={"td": {"class": "team"}, "th": {"class": "team"}})

    class Meta:
        template_name = "public/_standing_table.html"
        attrs = {"class": "data standings rating-list"}
        orderable = False

    def render_name(self, record: ListedRating) -> str:
        link = format_html('<a href="{}">{}</a>', reverse("public:player", args=[record.player_id]), record.name)
        if record.provisional:
            # the word agrees with the player: "nowa" for a woman, "nowy" for a man
            mark = pgettext("woman", "new") if record.gender == Gender.WOMAN else pgettext("man", "new")
            return format_html('{} <span class="badge newcomer">{}</span>', link, mark)
        return link

    def render_certainty(self, value: int) -> str:
        return certainty(value)

    def render_last_played(self, value) -> str:
        return date_format(value, "SHORT_DATE_FORMAT")

    # the downloads carry the name and the date as they are
    def value_name(self, record: ListedRating) -> str:
        return record.name

    def value_certainty(self, value: int) -> str:
        return certainty(value)

    def value_last_played(self, value) -> str:
        return value.isoformat()
