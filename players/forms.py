from __future__ import annotations

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from league.history import REASON_MAX_LENGTH

from . import selectors
from .models import Club, Player, Team
from .names import name_key, player_key

# A search of more is no name or licence; the limit also bounds the words the query ANDs together.
SEARCH_MAX_CHARS = 100


class PolishOrderIterator(forms.models.ModelChoiceIterator):
    """A select's choices by name in Polish order (``players.names``): players by last name, clubs
    and teams by name. The database's ordering puts Łeba after Żukowo (SQLite) or depends on the
    server's collation (PostgreSQL); the few dozen choices of a select sort in Python."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        for obj in sorted(self.queryset, key=lambda obj: (_name_order(obj), obj.pk)):
            yield self.choice(obj)


def _name_order(obj: object) -> tuple:
    return player_key(obj) if isinstance(obj, Player) else (name_key(str(obj)),)


def in_polish_order(*fields: forms.ModelChoiceField) -> None:
    """Offer each of ``fields``' choices in Polish order (``PolishOrderIterator``)."""
    for field in fields:
        field.iterator = PolishOrderIterator


class ProbableDuplicateCheck(forms.Form):
    """A form that adds a player (``first_name``, ``last_name``, ``club``) and first looks for them
    in the register (``selectors.player_probable_duplicates``): while any are found
    (``duplicates``, for the page to show with the way to pick one), it saves only once
    ``different_person`` is ticked; the tick box shows from then on."""

    different_person = forms.BooleanField(
        label=_("This is a different person: add a new player"), required=False, widget=forms.HiddenInput
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["different_person"] = self.fields.pop("different_person")  # last, beside the button
        self.duplicates: list[Player] = []

    def adds_player(self) -> bool:
        return True

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.adds_player() and not self.errors:
            self.duplicates = selectors.player_probable_duplicates(
                first_name=cleaned["first_name"], last_name=cleaned["last_name"], club=cleaned.get("club")
            )
        if self.duplicates:
            self.fields["different_person"].widget = forms.CheckboxInput()
            if not cleaned.get("different_person"):
                raise ValidationError(
                    _(
                        "This player is probably in the register already. Pick the existing entry, or tick “a "
                        "different person” to add a new one."
                    ),
                    code="probable_duplicate",
                )
        return cleaned

    def player_data(self) -> dict:
        """The cleaned fields that describe the player, without the confirmation."""
        return {name: value for name, value in self.cleaned_data.items() if name != "different_person"}


class PlayerForm(ProbableDuplicateCheck, forms.ModelForm):
    """A player of the register; a new one is first looked for (``ProbableDuplicateCheck``)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        in_polish_order(self.fields["club"])

    def adds_player(self) -> bool:
        return self.instance.pk is None

    class Meta:
        model = Player
        fields = ["first_name", "last_name", "gender", "club", "licence", "active", "public_initials"]
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

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        in_polish_order(self.fields["club"], self.fields["captain"])

    def chosen_members(self) -> list[Player]:
        """Players to show ticked: what was posted, else the saved members."""
        if self.is_bound:
            ids = [pk for pk in self.data.getlist(self.add_prefix("members")) if pk.isdigit()]
            members = self.fields["members"].queryset.filter(pk__in=ids)
        elif self.instance.pk:
            members = self.instance.members.select_related("club")
        else:
            return []
        return sorted(members, key=lambda player: (player_key(player), player.pk))

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


class MergeForm(forms.Form):
    """The other entry of the same person, chosen on the merge page, and why they are one."""

    other = forms.ModelChoiceField(queryset=Player.objects.all(), widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("why they are one person"),
        max_length=REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class DeleteForm(forms.Form):
    reason = forms.CharField(
        label=_("reason"), max_length=REASON_MAX_LENGTH, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
