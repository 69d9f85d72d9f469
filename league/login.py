"""The login form."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm


class LoginForm(AuthenticationForm):
    """Django's login form, answering a username longer than any account's can be as a wrong
    login without trying it: django-axes would write it into its varchar(255) log of failed
    logins, a server error on PostgreSQL. (Django's form sets the field's ``max_length``
    after the field is made, too late for it to be checked.)"""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if username is not None and len(username) > self.fields["username"].max_length:
            raise self.get_invalid_login_error()
        return super().clean()
