"""Login protection and the security settings a user relies on."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def attempt(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR="10.1.2.3")


def test_five_wrong_passwords_lock_the_account_out_even_for_the_right_one(client):
    UserFactory(username="sedzia")
    for _ in range(5):
        attempt(client, "sedzia", "wrong")
    response = attempt(client, "sedzia", "test-password")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_right_password_after_a_few_mistakes_logs_in(client):
    UserFactory(username="sedzia")
    for _ in range(3):
        attempt(client, "sedzia", "wrong")
    response = attempt(client, "sedzia", "test-password")
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


def test_forms_without_a_csrf_token_are_refused():
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    UserFactory(username="sedzia")
    response = strict.post(reverse("login"), {"username": "sedzia", "password": "test-password"})
    assert response.status_code == 403
    assert "_auth_user_id" not in strict.session


def test_pages_cannot_be_framed_and_sniffed(client):
    response = client.get(reverse("home"))
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
