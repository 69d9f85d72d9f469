from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrivacyConfig(AppConfig):
    name = "league.privacy"
    label = "privacy"
    verbose_name = _("Players' data (GDPR)")
