"""Forms of the organiser's tournament screens."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.db.models import BLANK_CHOICE_DASH
from django.utils.translation import gettext_lazy as _

from league.models import Series, Tournament
from league.standings.lists import PUBLISH_FIELDS
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
        min_value=0,
        help_text=_("Leave empty for a random one. The same seed and players give the same tables."),
    )


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
