"""Forms of the organiser's tournament screens."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.files.uploadedfile import UploadedFile
from django.db.models import BLANK_CHOICE_DASH, Q
from django.forms.models import construct_instance
from django.utils.translation import gettext_lazy as _

from league.games import default_game, game_rules, registered_games, rules_give_big_points, tournament_rules_check
from league.games.game_settings import bounded
from league.history import REASON_MAX_LENGTH
from league.leagues.selectors import league_choices
from league.logo import logo_normalise
from league.models import SEED, Between, Registration, Season, Series, StaffRole, Tournament
from league.ranking_lists import PUBLISH_FIELDS
from league.tournaments.selectors import tournament_earlier_choices
from players.forms import ProbableDuplicateCheck, in_polish_order
from players.models import Club, Gender, Player, Team
from players.names import player_key

if TYPE_CHECKING:
    from league.games.base import GameRules


def game_settings_fields() -> dict[str, forms.Field]:
    """The form fields of every installed game's settings (``GameSettings.form_fields``), by name;
    a name two games share (deals per series) is one field."""
    fields: dict[str, forms.Field] = {}
    for game in registered_games().values():
        for name, field in game.settings_class.form_fields().items():
            fields.setdefault(name, field)
    return fields


def optional_game_fields() -> tuple[str, ...]:
    """The game and the settings of the games whose fields are optional: a form posted without
    them (an older page, a script) keeps what the tournament has, the default game for a new one."""
    games = registered_games().values()
    return ("game", *(name for game in games if not game.tournament_fields_required for name in game.tournament_fields))


def game_choices() -> list[tuple[str, str]]:
    """The games a tournament may play, as the forms offer them: the installed games, the usual first."""
    return [(game.key, str(game.label)) for game in registered_games().values()]


class TournamentForm(forms.ModelForm):
    """Everything needed to create a tournament on a scoring preset, or to change its settings, in one form.

    The game comes first, then the settings every game has and the chosen game's own (each game's
    ``settings_class`` names its fields; the sections of the other games are sent disabled).

    ``user`` sees only their own rulesets ("własne zasady"), the seasons and leagues they organise
    (a superuser: every one), plus those the tournament already has; without ``user`` (the admin,
    where staff work) every choice is offered. Own rules chosen replace
    the preset (which becomes the one they are based on). ``rules_fixed`` (deals have been
    played) shows the rules and the deals per series without letting them change, and
    ``tables_fixed`` (a series is drawn) the game and the players at a table.
    """

    class Meta:
        model = Tournament
        fields = [
            "game",
            "name",
            "date",
            "start_time",
            "venue",
            "organiser_name",
            "organiser_logo",
            "league",
            "season",
            "table_size",
            "series_count",
            "time_limit_minutes",
            "seeded_draw",
            "uses_big_points",
            "team_ranking",
            "team_best_of",
            *PUBLISH_FIELDS,
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def __init__(
        self,
        *args: Any,
        user: AbstractBaseUser | None = None,
        rules_fixed: bool = False,
        tables_fixed: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if not self.instance.game:  # a new tournament: the first game installed, until one is chosen
            self.instance.game = default_game()
            self.initial["game"] = self.initial.get("game") or self.instance.game
        for name, field in self.fields.items():
            for bound in Tournament._meta.get_field(name).validators:
                if isinstance(bound, Between):
                    bounded(field, bound)
        if "game" in self.fields:  # the admin's fieldsets leave it out
            # the games installed (the model stores a game's key and knows no games)
            self.fields["game"] = forms.ChoiceField(label=_("Game"), choices=game_choices)
        # each game's settings (bounded by the game), shown as the tournament has them or as the game starts them
        # (and those a game keeps in rows of its own, Baśka's own rules, offered to ``user``)
        settings_fields = game_settings_fields()
        linked_fields = {
            name: field
            for game in registered_games().values()
            for name, field in game.linked_form_fields(tournament=self.instance, user=user).items()
        }
        self.settings_names, self.linked_names = frozenset(settings_fields), frozenset(linked_fields)
        for name, field in {**settings_fields, **linked_fields}.items():
            self.fields[name] = field
            self.initial.setdefault(name, self.stored_value(name))
        for name in optional_game_fields():
            if name in self.fields:
                self.fields[name].required = False
        if "own_ruleset" in self.fields:
            # own rules chosen stand in for the preset, so either will do
            self.fields["ruleset_preset"].required = False
        if user is not None and not user.is_superuser:
            season = Q(pk=self.instance.season_id) if self.instance.season_id else Q(pk__in=[])
            organised = Q(organisers=user) | Q(league__organisers=user)
            seasons = Season.objects.filter(organised | season)
            if self.instance.pk is not None:  # its league's seasons (a new tournament's: checked in clean)
                seasons = seasons.filter(Q(league=self.instance.league_id) | season)
            self.fields["season"].queryset = seasons.distinct()
        if user is not None and "league" in self.fields:
            self.fields["league"].queryset = league_choices(user=user, current=self.instance.league_id)
            self.fields["league"].empty_label = _("— none: outside any league —")
            self.fields["league"].help_text = _("The league's organisers manage the tournament too.")
        if "uses_big_points" in self.fields:
            self.fields["uses_big_points"].help_text = _(
                "Rank by placement points at each table first, small points second. Rules that give no "
                "big points for the places (Baśka z asem) rank by small points: the box is then left unticked."
            )
        if "start_time" in self.fields:
            self.fields["start_time"].help_text = _("For the league's calendar; empty: the whole day.")
        if rules_fixed:
            for name in (name for game in registered_games().values() for name in game.rules_fields):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Deals have been played: this can no longer change.")
        if tables_fixed:
            for name in ("game", "table_size"):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("The tables have been drawn: this can no longer change.")

    def stored_value(self, name: str) -> Any:
        """What the tournament holds for the form's field ``name``: a column, a setting of its game
        or a row of its game's own (by its key); a setting only other games read: its field's starting value."""
        if name in self.linked_names:
            value = game_rules(self.instance.game).linked_read(self.instance).get(name)
            return getattr(value, "pk", value)
        if name not in self.settings_names:
            return getattr(self.instance, name)
        settings = game_rules(self.instance.game).settings(self.instance)
        return getattr(settings, name) if name in settings.names() else self.fields[name].initial

    def sections(self) -> list[tuple[str, str, list[forms.BoundField]]]:
        """The fields in the order shown: the common ones, then each game's own under its heading
        (``key``: the games the JavaScript matches the choice against, space-separated; "" for all).

        A field more than one game reads (the players at a table) is shown once, in a section of
        those games, so the page holds one input of that name and id and posts one value."""
        games = list(registered_games().values())
        readers: dict[str, list[str]] = {}
        for game in games:
            for name in game.tournament_fields:
                if name in self.fields:
                    readers.setdefault(name, []).append(game.key)
        shared = {name: keys for name, keys in readers.items() if len(keys) > 1}
        sections = [("", "", [field for field in self.visible_fields() if field.name not in readers])]
        for game in games:
            own = [self[name] for name in game.tournament_fields if name in readers and name not in shared]
            sections.append((game.key, game.form_heading, own))
        for keys in dict.fromkeys(tuple(keys) for keys in shared.values()):
            fields = [self[name] for name, readers_of in shared.items() if tuple(readers_of) == keys]
            heading = " · ".join(str(game.form_heading) for game in games if game.key in keys)
            sections.append((" ".join(keys), heading, fields))
        return [section for section in sections if section[2] or not section[0]]

    def clean(self) -> dict[str, Any]:
        """The settings the chosen game reads, checked by the game (``GameRules.tournament_clean``)."""
        cleaned = super().clean()
        for name in optional_game_fields():
            if name in self.fields and cleaned.get(name) in (None, "") and name not in self.errors:
                cleaned[name] = self.stored_value(name)
        game = game_rules(cleaned.get("game", self.instance.game))
        # the settings only other games read are not this tournament's: whatever they hold (a
        # hidden section, an older page) is not refused, and a column stays as the tournament has it
        for other in registered_games().values():
            for name in set(other.tournament_fields) - set(game.tournament_fields):
                refused = self.errors.pop(name, None) is not None
                if name in self.settings_names or name in self.linked_names:
                    cleaned.pop(name, None)
                elif refused:
                    cleaned[name] = getattr(self.instance, name)
        game.tournament_clean(form=self, cleaned=cleaned)
        probe = construct_instance(self, copy.copy(self.instance), exclude=["organiser_logo"])
        # and plays by the game's own rows the form holds (the admin's form holds none: they stay)
        game.linked_hold(probe, {name: cleaned.get(name) for name in game.linked_fields if name in self.fields})
        # the instance the form saves (the admin saves it as it is) holds the game's settings too
        self.instance.game_settings = probe.game_settings = game.settings_with(
            self.instance, self.game_settings_values(game, cleaned)
        ).stored()
        if cleaned.get("uses_big_points") and "uses_big_points" not in self.changed_data:
            # the box ticked by default is not the organiser's choice: rules that give no big points
            # (psb) rank by small points rather than refuse a form nobody touched there
            cleaned["uses_big_points"] = rules_give_big_points(probe)
        elif cleaned.get("uses_big_points") and not self.errors:
            probe.uses_big_points = True
            try:
                tournament_rules_check(probe)
            except ValidationError as error:
                self.add_error(None, error)
        return cleaned

    @staticmethod
    def game_settings_values(game: GameRules, cleaned: dict[str, Any]) -> dict[str, Any]:
        """The settings of ``game`` the form holds, by name."""
        return {name: cleaned[name] for name in game.settings_class.names() if name in cleaned}

    def clean_organiser_logo(self) -> File | bool | None:
        """A new upload checked by its content and stored as a small PNG (``league.logo``);
        the logo already stored, none or False (cleared) as it is."""
        logo = self.cleaned_data["organiser_logo"]
        if isinstance(logo, UploadedFile):
            return logo_normalise(upload=logo)
        return logo


class UserSearchForm(forms.Form):
    """The search for accounts to add to a tournament's staff."""

    q = forms.CharField(label=_("Username or e-mail address"), max_length=254, required=False)


class StaffForm(forms.Form):
    """One account and the role it gets in (or loses from) the tournament."""

    role = forms.ChoiceField(choices=StaffRole.choices, widget=forms.HiddenInput)
    user = forms.ModelChoiceField(queryset=get_user_model().objects.all(), widget=forms.HiddenInput)


class RegistrationSearchForm(forms.Form):
    """The search for known players to register; no name is longer than ``q`` allows."""

    q = forms.CharField(label=_("Search known players"), max_length=160, required=False)


class QuickAddForm(ProbableDuplicateCheck):
    """A newcomer nobody has on file: created as a player and registered at once, once the register
    holds nobody who is probably them (``ProbableDuplicateCheck``)."""

    first_name = forms.CharField(label=_("first name"), max_length=80)
    last_name = forms.CharField(label=_("last name"), max_length=80)
    # No gender is chosen before the organiser picks one: a default put men in the women's ranking.
    gender = forms.ChoiceField(label=_("gender"), choices=BLANK_CHOICE_DASH + Gender.choices)
    club = forms.ModelChoiceField(label=_("club"), queryset=Club.objects.all(), required=False)
    team = forms.ModelChoiceField(
        label=_("team"),
        queryset=Team.objects.filter(active=True),
        required=False,
        empty_label=_("— individual —"),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        in_polish_order(self.fields["club"], self.fields["team"])


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


class RegistrationTeamForm(forms.Form):
    """The team a registered player plays for in this tournament: one the tournament already has, or none."""

    team = forms.ModelChoiceField(
        label=_("team"), queryset=Team.objects.none(), required=False, empty_label=_("— individual —")
    )

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = Team.objects.filter(registrations__tournament=tournament).distinct()
        in_polish_order(self.fields["team"])


class TickedRegistrationsForm(forms.Form):
    """Registrations of the tournament ticked on the list, for one button to act on all of them."""

    registrations = forms.ModelMultipleChoiceField(
        queryset=Registration.objects.none(),
        error_messages={"required": _("Tick at least one player first.")},
    )

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["registrations"].queryset = tournament.registrations.select_related("player")


class BulkTickForm(TickedRegistrationsForm):
    """Presence or the fee ticked for every ticked player at once."""

    flag = forms.ChoiceField(choices=[("checked_in", _("present")), ("fee_paid", _("paid"))])


class TeamBuildForm(TickedRegistrationsForm):
    """A new team of the ticked individuals, its name and (if any) its club."""

    name = forms.CharField(label=_("new team's name"), max_length=Team._meta.get_field("name").max_length)
    club = forms.ModelChoiceField(
        label=_("club"), queryset=Club.objects.all(), required=False, empty_label=_("no club")
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        in_polish_order(self.fields["club"])


class FlagAllForm(forms.Form):
    """Presence or the fee ticked (``value`` 1) or unticked (0) for every player the list's filter shows."""

    flag = forms.ChoiceField(choices=[("checked_in", _("present")), ("fee_paid", _("paid"))])
    value = forms.TypedChoiceField(choices=[("1", _("tick")), ("0", _("untick"))], coerce=lambda value: value == "1")


class RegistrationGroupForm(forms.Form):
    """What "add many" registers (``league.tournaments.regulars``): one whole team, one whole club, or
    everyone from one earlier tournament; the newest earlier tournament is offered first."""

    team = forms.ModelChoiceField(
        label=_("a whole team"), queryset=Team.objects.filter(active=True), required=False, empty_label=_("— team —")
    )
    club = forms.ModelChoiceField(
        label=_("a whole club"), queryset=Club.objects.all(), required=False, empty_label=_("— club —")
    )
    earlier = forms.ModelChoiceField(
        label=_("everyone from a tournament"), queryset=Tournament.objects.none(), required=False, empty_label=None
    )

    def __init__(self, *args, tournament: Tournament, user: AbstractBaseUser, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        in_polish_order(self.fields["team"], self.fields["club"])
        earlier = self.fields["earlier"]
        earlier.queryset = tournament_earlier_choices(tournament=tournament, user=user)
        # newest first, as the organiser looks for last month's; the date tells namesakes apart
        earlier.choices = [(item.pk, f"{item.name} ({item.date:%d.%m.%Y})") for item in earlier.queryset]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if sum(data.get(name) is not None for name in ("team", "club", "earlier")) != 1:
            raise forms.ValidationError(_("Choose one team, one club or one tournament."), code="choose_one")
        return data


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


class RedrawForm(DrawForm):
    """Drawing one drawn series again: the seed, and the organiser's yes to what it makes wrong
    (asked only when something would be: the published draw, printed sheets, phones, swaps)."""

    confirm = forms.BooleanField(label=_("I understand, draw this series again"), required=False)

    def __init__(self, *args: Any, risky: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["confirm"].required = risky
        if not risky:
            del self.fields["confirm"]


class SwapForm(forms.Form):
    """Two players of one series who exchange places (a seat or a bye).

    The choices are the series' players as the page already loaded them, so the
    draw page renders a form per series without a query per series.
    """

    player_a = forms.TypedChoiceField(label=_("player"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("swap with"), coerce=int)
    reason = forms.CharField(label=_("reason"), max_length=200, required=False)
    # Set only by the "swap anyway" button, after the page warned of repeated meetings.
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, series: Series, players: Sequence[Player], **kwargs) -> None:
        super().__init__(*args, prefix=f"swap{series.number}", **kwargs)
        self.series = series
        self.players = {player.pk: player for player in players}
        choices = [("", BLANK_CHOICE_DASH[0][1])] + [(player.pk, str(player)) for player in players]
        for name in ("player_a", "player_b"):
            self.fields[name].choices = choices

    def clean_player_a(self) -> Player:
        return self.players[self.cleaned_data["player_a"]]

    def clean_player_b(self) -> Player:
        return self.players[self.cleaned_data["player_b"]]

    def confirmation(self) -> SwapForm:
        """The same swap as hidden fields with ``confirm`` set: the form of the "swap anyway" button."""
        form = SwapForm(
            initial={name: self[name].value() for name in ("player_a", "player_b", "reason")} | {"confirm": True},
            series=self.series,
            players=list(self.players.values()),
        )
        for field in form.fields.values():
            field.widget = forms.HiddenInput()
        return form


class FixedSeatForm(forms.Form):
    """A fixed seat (stałe miejsce): which registered player, which table, perhaps which seat, in
    which series (none ticked: every series), and why."""

    registration = forms.TypedChoiceField(label=_("player"), coerce=int)
    table = forms.IntegerField(label=_("table"), min_value=1, max_value=999)
    seat = forms.ChoiceField(label=_("seat"), required=False)
    series = forms.TypedMultipleChoiceField(
        label=_("series"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None ticked: every series."),
    )
    reason = forms.CharField(label=_("reason"), max_length=REASON_MAX_LENGTH, required=False)

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        registrations = tournament.registrations.select_related("player").filter(withdrawn_after_series=None)
        self.registrations = {r.pk: r for r in sorted(registrations, key=lambda r: (player_key(r.player), r.pk))}
        self.fields["registration"].choices = [("", BLANK_CHOICE_DASH[0][1])] + [
            (pk, r.player.full_name) for pk, r in self.registrations.items()
        ]
        self.fields["seat"].choices = [("", _("any seat"))] + [(s, s) for s in tournament.seats]
        self.fields["series"].choices = [(n, n) for n in range(1, tournament.series_count + 1)]

    def clean_registration(self) -> Registration:
        return self.registrations[self.cleaned_data["registration"]]
