"""Forms of online sign-ups: the public form, the organiser's window settings and list."""

from __future__ import annotations

import secrets

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from league.signups.models import SignUp, SignUpWindow
from league.signups.services import NEW_PLAYER
from players.models import Club, Gender, Player, Team

TOKEN_BYTES = 24
SEARCH_MAX_LENGTH = 100


def new_form_token() -> str:
    """A one-time token for one sign-up form as it is shown: sent twice, it finds the first sign-up
    (only within its tournament, ``services.signup_create``)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


class RegisterSearchForm(forms.Form):
    q = forms.CharField(label=_("Find yourself in the register"), max_length=SEARCH_MAX_LENGTH, required=False)


class SignUpForm(forms.Form):
    """The public sign-up: a player picked from the register (``player``) or the typed data.

    ``website`` is a honeypot (pułapka na boty): hidden from people, filled in by form-filling
    bots; a form with it filled stores nothing. ``not_listed`` says the person is none of the
    register's namesakes shown to them.
    """

    player = forms.ModelChoiceField(
        queryset=Player.objects.filter(active=True), required=False, widget=forms.HiddenInput
    )
    first_name = forms.CharField(label=_("First name"), max_length=80, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=80, required=False)
    gender = forms.ChoiceField(label=_("Gender"), choices=[("", "—"), *Gender.choices], required=False)
    club = forms.ModelChoiceField(
        label=_("Club"), queryset=Club.objects.order_by("name"), required=False, empty_label=_("— no club —")
    )
    email = forms.EmailField(label=_("E-mail"), required=False)
    phone = forms.CharField(label=_("Phone"), max_length=30, required=False)
    team = forms.ModelChoiceField(
        label=_("Team (optional)"),
        queryset=Team.objects.filter(active=True).order_by("name"),
        required=False,
        empty_label=_("— as before / individual —"),
    )
    # RODO: unticked unless the person ticks it; nothing but the organiser's messages about playing
    contact_consent = forms.BooleanField(
        label=_(
            "I agree to be contacted by the organiser about this and future tournaments, "
            "at the address or number I give."
        ),
        required=False,
    )
    # the version of the privacy notice shown with the form (0: the default text), kept with the sign-up;
    # a form sent without it (a page loaded before the notice existed) records no version
    notice_version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)
    not_listed = forms.BooleanField(required=False, widget=forms.HiddenInput)
    form_token = forms.CharField(max_length=64, widget=forms.HiddenInput)
    website = forms.CharField(label=_("Leave this field empty"), required=False)

    def clean(self) -> dict:
        data = super().clean()
        if data.get("website"):
            raise ValidationError(_("The form could not be accepted."), code="honeypot")
        if data.get("player") is None:
            missing = [name for name in ("first_name", "last_name", "gender") if not data.get(name)]
            for name in missing:
                self.add_error(name, _("Needed when you are not picked from the register."))
            if not data.get("email") and not data.get("phone"):
                raise ValidationError(_("Give an e-mail address or a phone number."), code="no_contact")
        return data


class SignUpWindowForm(forms.ModelForm):
    class Meta:
        model = SignUpWindow
        fields = ["is_open", "closes_at", "capacity", "waiting_list", "note"]
        widgets = {
            "closes_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            "note": forms.Textarea(attrs={"rows": 3}),
        }


class SignUpsTickedForm(forms.Form):
    """The sign-ups ticked on the organiser's list (of this tournament only)."""

    signups = forms.ModelMultipleChoiceField(queryset=SignUp.objects.none())

    def __init__(self, *args, tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["signups"].queryset = tournament.signups.all()
        self.fields["signups"].error_messages["required"] = _("Tick the sign-ups first.")

    def clean(self) -> dict:
        """Each ticked sign-up with the organiser's match from its row (``match-<pk>``): a player's
        number, ``NEW_PLAYER``, or nothing to keep the player it names (``choices``)."""
        data = super().clean()
        ticked = list(data.get("signups", []))
        raw = {signup.pk: self.data.get(f"match-{signup.pk}", "") for signup in ticked}
        players = Player.objects.filter(active=True).in_bulk([int(value) for value in raw.values() if value.isdigit()])
        data["choices"] = [
            (signup, NEW_PLAYER if raw[signup.pk] == NEW_PLAYER else players.get(int(raw[signup.pk] or 0)))
            for signup in ticked
        ]
        return data
