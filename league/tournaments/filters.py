"""The filter over the registration list: who by name, club or team, who is not here yet, who has not paid."""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from league.models import Registration
from players.models import search_key

# the parameters of the filter, which every form of the list sends along to come back to the same rows
FILTER_PARAMETERS = ("who", "absent", "unpaid")


class RegistrationFilter(django_filters.FilterSet):
    """The registrations of one tournament that match every word of ``who`` in the player's name,
    club or team, with or without Polish letters ("kaszebe" finds Kaszëbë), and optionally only
    those not checked in or without the fee."""

    who = django_filters.CharFilter(label=_("name, club or team"), method="by_words", max_length=160)
    absent = django_filters.BooleanFilter(
        label=_("not present"), method="only_without", widget=forms.CheckboxInput, field_name="checked_in"
    )
    unpaid = django_filters.BooleanFilter(
        label=_("fee unpaid"), method="only_without", widget=forms.CheckboxInput, field_name="fee_paid"
    )

    class Meta:
        model = Registration
        fields = list(FILTER_PARAMETERS)

    def by_words(self, queryset: QuerySet[Registration], name: str, value: str) -> QuerySet[Registration]:
        # Folding club and team names needs Python (SQLite's LOWER() misses Ż, Ś, Ł): one read of
        # the tournament's rows, as many as the list shows anyway.
        words = search_key(value).split()
        rows = queryset.select_related("player__club", "team")
        chosen = [row.pk for row in rows if all(any(word in text for text in _texts(row)) for word in words)]
        return queryset.filter(pk__in=chosen)

    def only_without(self, queryset: QuerySet[Registration], name: str, value: bool) -> QuerySet[Registration]:
        return queryset.filter(**{name: False}) if value else queryset

    @property
    def active(self) -> bool:
        """Whether the list shows only some rows."""
        return self.is_bound and self.is_valid() and any(self.form.cleaned_data.get(name) for name in FILTER_PARAMETERS)


def _texts(registration: Registration) -> tuple[str, str, str]:
    """The player's name, club and team as a search compares them."""
    club, team = registration.player.club, registration.team
    return (
        registration.player.search_name,
        search_key(club.name if club else ""),
        search_key(team.name if team else ""),
    )
