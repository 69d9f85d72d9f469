"""The Django admin, kept for superusers.

Organisers and referees work in the app's own screens, which check each person's role
in each tournament; the admin checks model permissions only, so any staff account
there could reach every organiser's tournaments. It therefore lets in superusers alone,
whatever permissions or staff flag an account carries.
"""

from __future__ import annotations

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig
from django.http import HttpRequest, HttpResponse


class SuperuserAdminSite(AdminSite):
    def has_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_superuser

    def login(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        # imported here: the settings load this module before the app registry is ready
        from league.login import AdminLoginForm

        self.login_form = AdminLoginForm
        return super().login(request, extra_context)


class SuperuserAdminConfig(AdminConfig):
    """``django.contrib.admin`` with ``SuperuserAdminSite`` as ``admin.site``."""

    default_site = "league.admin_site.SuperuserAdminSite"
