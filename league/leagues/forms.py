"""Forms of the league screens: a league's settings, and an organiser to add or take off."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.files import File
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from league.history import REASON_MAX_LENGTH
from league.logo import logo_normalise
from league.models import League


class LeagueForm(forms.ModelForm):
    """A league's name, address, logo and description, and why it changed."""

    reason = forms.CharField(
        label=_("reason of the change"),
        required=False,
        max_length=REASON_MAX_LENGTH,
        help_text=_("Optional: kept in the league's history."),
    )

    class Meta:
        model = League
        fields = ["name", "slug", "logo", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # empty on creation: made from the name, Polish letters folded ("Złota" → "zlota")
        self.fields["slug"].required = self.instance.pk is not None
        self.fields["slug"].help_text = _("Part of the league page's address; left empty, made from the name.")

    def clean_logo(self) -> File | bool | None:
        """A new upload checked by its content and stored as a small PNG (``league.logo``)."""
        logo = self.cleaned_data["logo"]
        if isinstance(logo, UploadedFile):
            return logo_normalise(upload=logo)
        return logo

    def validate_unique(self) -> None:
        """The services decide about a taken slug: a resent create form gets the league it made."""


class OrganiserForm(forms.Form):
    """An account by its exact user name, to become one of the league's organisers."""

    username = forms.CharField(label=_("User name"), max_length=150)

    def clean_username(self) -> Any:
        name = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=name, is_active=True).first()
        if user is None:
            raise forms.ValidationError(_("No account has this user name."), code="unknown")
        return user


class OrganiserRemoveForm(forms.Form):
    user = forms.ModelChoiceField(queryset=get_user_model().objects.all(), widget=forms.HiddenInput)
