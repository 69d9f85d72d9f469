from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("League")

    def ready(self) -> None:
        # Load the Celery app with Django so @shared_task binds to our configuration;
        # league/__init__.py stays empty because `python -m league.draw` must not need Django.
        from . import celery  # noqa: F401
