"""Forms of the privacy screens: a notice's new version, an anonymisation's confirmation."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from league.history import REASON_MAX_LENGTH
from league.privacy.models import NOTICE_MAX_LENGTH, PrivacyNotice
from league.privacy.texts import NoticeText


class NoticeForm(forms.ModelForm):
    reason = forms.CharField(label=_("What changed (for the history)"), max_length=REASON_MAX_LENGTH, required=False)

    class Meta:
        model = PrivacyNotice
        fields = ["controller", "contact", "text_pl", "text_en"]
        help_texts = {
            "controller": _("Who decides about the players' data: the club's or association's name and address."),
            "contact": _("Where a player asks for their data or its erasure: an e-mail address or a postal address."),
        }
        widgets = {
            "text_pl": forms.Textarea(attrs={"rows": 16, "maxlength": NOTICE_MAX_LENGTH}),
            "text_en": forms.Textarea(attrs={"rows": 16, "maxlength": NOTICE_MAX_LENGTH}),
        }

    def notice_text(self) -> NoticeText:
        data = self.cleaned_data
        return NoticeText(data["controller"], data["contact"], data["text_pl"], data["text_en"])


class AnonymiseForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=REASON_MAX_LENGTH,
        help_text=_("E.g. the player's request of 05.12.2026 by e-mail. Do not repeat the player's name."),
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    confirm = forms.BooleanField(label=_("I understand that this cannot be undone."))
