"""The Django admin, kept for superusers.

Organisers and referees work in the app's own screens, which check each person's role
in each tournament; the admin checks model permissions only, so any staff account
there could reach every organiser's tournaments. It therefore lets in superusers alone,
whatever permissions or staff flag an account carries.
"""

from __future__ import annotations

from django.contrib.admin import AdminSite
from django.http import HttpRequest

from league.login import AdminLoginForm


class SuperuserAdminSite(AdminSite):
    login_form = AdminLoginForm

    def has_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_superuser
