"""Forms of the organiser's tournament screens."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.files import File
from django.core.files.uploadedfile import UploadedFile
from django.db.models import BLANK_CHOICE_DASH
from django.utils.translation import gettext_lazy as _

from league.models import Between, Series, Tournament
from league.printing.logo import logo_normalise
from league.standings.lists import PUBLISH_FIELDS
from league.tournaments.draws import SEED
from players.models import Club, Gender, Player, Team


class TournamentForm(forms.ModelForm):
    """Everything needed to create a tournament on a scoring preset, in one form."""

    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "venue",
            "organiser_name",
            "organiser_logo",
            "season",
            "ruleset_preset",
            "series_count",
            "deals_per_series",
            "time_limit_minutes",
            "uses_big_points",
            "team_ranking",
            "team_best_of",
            *PUBLISH_FIELDS,
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            for bound in Tournament._meta.get_field(name).validators:
                if isinstance(bound, Between):
                    bounded(field, bound)

    def clean_organiser_logo(self) -> File | bool | None:
        """A new upload checked by its content and stored as a small PNG (``league.printing.logo``);
        the logo already stored, none or False (cleared) as it is."""
        logo = self.cleaned_data["organiser_logo"]
        if isinstance(logo, UploadedFile):
            return logo_normalise(upload=logo)
        return logo


def bounded(field: forms.Field, bound: Between) -> None:
    """Check ``field`` against ``bound`` alone, with its one message, and tell the browser the range."""
    field.validators = [bound]
    field.widget.attrs.update(min=bound.low, max=bound.high)


class RegistrationSearchForm(forms.Form):
    """The search for known players to register; no name is longer than ``q`` allows."""

    q = forms.CharField(label=_("Search known players"), max_length=160, required=False)


class QuickAddForm(forms.Form):
    """A newcomer nobody has on file: created as a player and registered at once."""

    first_name = forms.CharField(label=_("first name"), max_length=80)
    last_name = forms.CharField(label=_("last name"), max_length=80)
    gender = forms.ChoiceField(label=_("gender"), choices=Gender.choices)
    club = forms.ModelChoiceField(label=_("club"), queryset=Club.objects.all(), required=False)
    team = forms.ModelChoiceField(
        label=_("team"),
        queryset=Team.objects.filter(active=True),
        required=False,
        empty_label=_("— individual —"),
    )


class RegisterForm(forms.Form):
    """A known player picked from the search results."""

    player = forms.ModelChoiceField(queryset=Player.objects.filter(active=True), widget=forms.HiddenInput)


class WithdrawForm(forms.Form):
    after_series = forms.TypedChoiceField(label=_("withdrew after series"), coerce=int, empty_value=None)

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("— plays on —"))] + [(n, str(n)) for n in range(1, tournament.series_count)]
        self.fields["after_series"].choices = choices
        self.fields["after_series"].required = False


class DrawForm(forms.Form):
    """The seed, and which series to draw; an empty seed lets the service pick one."""

    seed = forms.IntegerField(
        label=_("seed"),
        required=False,
        help_text=_("Leave empty for a random one. The same seed and players give the same tables."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        bounded(self.fields["seed"], SEED)


class SwapForm(forms.Form):
    """Two players of one series who exchange places (a seat or a bye).

    The choices are the series' players as the page already loaded them, so the
    draw page renders a form per series without a query per series.
    """

    player_a = forms.TypedChoiceField(label=_("player"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("swap with"), coerce=int)
    reason = forms.CharField(label=_("reason"), max_length=200, required=False)

    def __init__(self, *args, series: Series, players: Sequence[Player], **kwargs) -> None:
        super().__init__(*args, prefix=f"swap{series.number}", **kwargs)
        self.players = {player.pk: player for player in players}
        choices = [("", BLANK_CHOICE_DASH[0][1])] + [(player.pk, str(player)) for player in players]
        for name in ("player_a", "player_b"):
            self.fields[name].choices = choices

    def clean_player_a(self) -> Player:
        return self.players[self.cleaned_data["player_a"]]

    def clean_player_b(self) -> Player:
        return self.players[self.cleaned_data["player_b"]]
