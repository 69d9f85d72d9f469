from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SignupsConfig(AppConfig):
    name = "league.signups"
    label = "signups"
    verbose_name = _("Online sign-ups")
