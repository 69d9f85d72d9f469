"""The rating list's filters, asked in the address (``?liga=…&aktywni=1&plec=F``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from players.models import Gender

ACTIVE_DAYS = 365  # "active": played a rated series in the last twelve months


class RatingFilter(forms.Form):
    """Which players the list shows: of one league (played a series of it), active, women or men.
    The view sets the leagues to choose from."""

    liga = forms.ChoiceField(label=_("League"), required=False, choices=[("", _("every league"))])
    aktywni = forms.BooleanField(label=_("Played in the last 12 months"), required=False)
    plec = forms.ChoiceField(
        label=_("Women or men"),
        required=False,
        choices=[("", _("everyone")), (Gender.WOMAN, _("women")), (Gender.MAN, _("men"))],
    )
