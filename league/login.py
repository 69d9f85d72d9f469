"""The login forms: the app's own and the admin's."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm


class _NoOverlongUsername:
    """Answers a username longer than any account's can be as a wrong login without trying it:
    django-axes would write it into its varchar(255) log of failed logins, a server error on
    PostgreSQL. (Django's form sets the field's ``max_length`` after the field is made, too late
    for it to be checked.)"""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if username is not None and len(username) > self.fields["username"].max_length:
            raise self.get_invalid_login_error()
        return super().clean()


class LoginForm(_NoOverlongUsername, AuthenticationForm):
    """Django's login form, refusing an overlong username as a wrong login."""


class AdminLoginForm(_NoOverlongUsername, AdminAuthenticationForm):
    """The admin's login form (superusers only), refusing an overlong username as a wrong login."""
