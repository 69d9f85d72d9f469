from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("League")

    def ready(self) -> None:
        # Load the Celery app with Django so @shared_task binds to our configuration;
        # league/__init__.py stays empty because `python -m league.draw` must not need Django.
        from . import celery  # noqa: F401


class SuperuserAdminConfig(admin_apps.AdminConfig):
    """``django.contrib.admin`` with ``league.admin_site.SuperuserAdminSite`` as ``admin.site``: the
    admin lets in superusers alone. (Here, not beside the site: the settings load this module
    before the app registry is ready, and the site's login form needs the auth models.)"""

    default = False  # the league app's own config stays LeagueConfig
    default_site = "league.admin_site.SuperuserAdminSite"
