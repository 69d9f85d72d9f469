"""The upload of an exchange file."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from league.leagues.selectors import leagues_organised


class ExchangeUploadForm(forms.Form):
    file = forms.FileField(
        label=_("exchange file"),
        help_text=_("The tournament's file (JSON) downloaded from its screen on another installation of the app."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    league = forms.ModelChoiceField(
        label=_("league"),
        queryset=None,
        required=False,
        empty_label=_("no league"),
        help_text=_("A new tournament joins this league; a tournament the file replaces stays where it is."),
    )

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = leagues_organised(user=user)

    def clean_file(self) -> UploadedFile:
        """Refuse a file over the site's upload limit before anybody reads it."""
        upload = self.cleaned_data["file"]
        if upload.size > settings.BASKA_UPLOAD_MAX_BYTES:
            raise ValidationError(
                _("The file is larger than %(max)s; an exchange file of a tournament takes far less."),
                code="too_large",
                params={"max": filesizeformat(settings.BASKA_UPLOAD_MAX_BYTES)},
            )
        return upload
