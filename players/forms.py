from __future__ import annotations

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from .models import Club, Player, Team

# A search of more is no name or licence; the limit also bounds the words the query ANDs together.
SEARCH_MAX_CHARS = 100


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["first_name", "last_name", "gender", "club", "licence", "active"]
        widgets = {"gender": forms.RadioSelect}


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "city"]


class TeamForm(forms.ModelForm):
    """Members are ticked in a list filled by the type-ahead search, and the
    captain is picked among them, so neither needs a select of every player."""

    members = forms.ModelMultipleChoiceField(label=_("members"), queryset=Player.objects.select_related("club"))

    class Meta:
        model = Team
        fields = ["name", "club", "active", "members", "captain"]

    def chosen_members(self) -> list[Player]:
        """Players to show ticked: what was posted, else the saved members."""
        if self.is_bound:
            ids = [pk for pk in self.data.getlist(self.add_prefix("members")) if pk.isdigit()]
            return list(self.fields["members"].queryset.filter(pk__in=ids))
        if self.instance.pk:
            return list(self.instance.members.select_related("club"))
        return []

    def captain_id(self) -> str:
        if self.is_bound:
            return self.data.get(self.add_prefix("captain"), "")
        return str(self.instance.captain_id or "")


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("file"),
        help_text=_("CSV or XLSX with a header row: imię, nazwisko, płeć, klub, licencja, drużyna."),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx"}),
    )
    update_existing = forms.BooleanField(
        label=_("update players who are already registered"), required=False, initial=True
    )

    def clean_file(self):
        """Refuse a file over the site's upload limit before anybody reads it."""
        upload = self.cleaned_data["file"]
        if upload.size > settings.BASKA_UPLOAD_MAX_BYTES:
            raise ValidationError(
                _("The file is larger than %(max)s; a list of players takes far less."),
                code="too_large",
                params={"max": filesizeformat(settings.BASKA_UPLOAD_MAX_BYTES)},
            )
        return upload


class PlayerSearchForm(forms.Form):
    """The type-ahead's query: Django's CharField already refuses a NUL, which PostgreSQL cannot compare."""

    q = forms.CharField(label=_("name or licence"), max_length=SEARCH_MAX_CHARS, required=False)
