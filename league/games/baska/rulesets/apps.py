from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesetsConfig(AppConfig):
    name = "league.games.baska.rulesets"
    label = "rulesets"
    verbose_name = _("own rules")
