"""Forms of the seasons' screens: a season's settings, and a tournament to attach."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.utils.formats import localize
from django.utils.translation import gettext_lazy as _

from league.leagues.selectors import league_choices
from league.models import Season, SeasonScheme, Tournament
from league.place_points import PlacePointsField

# An example places-to-points table for the PSB scheme (psb example II: "the best 50 players
# with a positive result", 1st 100 … 25th 25; teams: the best 15, 3rd 80), for the organiser to edit.
PSB_PLACE_POINTS = [100, 90, 80, *range(75, 40, -5), *range(43, 34, -2), *range(34, 0, -1), 0.5]
PSB_TEAM_PLACE_POINTS = [100, 90, 80, 70, 60, 50, *range(45, 0, -5)]


class SeasonForm(forms.ModelForm):
    """A season's settings; the two places-to-points tables matter for the PSB scheme only
    (the page hides them for the others where scripts run)."""

    place_points = PlacePointsField(
        label=_("points for places (players)"),
        required=False,
        help_text=_(
            "For the PSB scheme: points for 1st, 2nd, 3rd … place, separated by semicolons; "
            "only players with a positive result are placed, places past the end get 0. "
            "The table offered is an example (50 places: 1st 100, 3rd 80, 25th 25): change it to your rules."
        ),
    )
    team_place_points = PlacePointsField(
        label=_("points for places (teams)"),
        required=False,
        help_text=_(
            "For the PSB scheme: the same for teams with a positive result. "
            "The table offered is an example (15 places: 1st 100, 3rd 80): change it to your rules."
        ),
    )

    reason = forms.CharField(
        label=_("reason of the change"),
        required=False,
        max_length=500,
        help_text=_("Optional: kept in the season's history."),
    )

    class Meta:
        model = Season
        fields = ["name", "slug", "year", "league", "scheme", "best_of", "place_points", "team_place_points"]

    def __init__(self, *args: Any, user: AbstractBaseUser | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if user is not None:  # the leagues the user organises, and the one the season is in
            self.fields["league"].queryset = league_choices(user=user, current=self.instance.league_id)
        self.fields["league"].empty_label = _("— none: outside any league —")
        self.fields["league"].help_text = _("The league's organisers manage the season too.")
        # empty on creation: made from the name and year
        self.fields["slug"].required = self.instance.pk is not None
        self.fields["slug"].help_text = _("Part of the season page's address; left empty, made from the name and year.")
        # the PSB example is offered wherever no table is set yet
        for name, example in (("place_points", PSB_PLACE_POINTS), ("team_place_points", PSB_TEAM_PLACE_POINTS)):
            if not getattr(self.instance, name):
                self.initial[name] = example

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("scheme") == SeasonScheme.PLACES and "place_points" in cleaned and not cleaned["place_points"]:
            self.add_error(
                "place_points", forms.ValidationError(_("The PSB scheme needs points for places."), code="required")
            )
        return cleaned

    def validate_unique(self) -> None:
        """The services decide about a taken slug: a resent create form gets the season it made."""


class AttachForm(forms.Form):
    """One of the user's tournaments to add to the season."""

    tournament = forms.ModelChoiceField(
        label=_("tournament"),
        queryset=Tournament.objects.none(),
        error_messages={"invalid_choice": _("Choose one of the tournaments you organise.")},
    )

    # the organiser's yes to taking a tournament out of its season (asked on the page first)
    move = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, tournaments: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        field.queryset = tournaments
        field.label_from_instance = tournament_choice_label


def tournament_choice_label(tournament: Tournament) -> str:
    """The tournament's name and date, and the season it would leave."""
    label = f"{tournament.name} ({localize(tournament.date)})"
    if tournament.season is not None:
        label += " — " + str(_("now in %(season)s") % {"season": tournament.season})
    return label


class CountsForm(forms.Form):
    """Whether a tournament of the season counts for the season's tables (the state wanted)."""

    counts = forms.BooleanField(required=False)
