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


def test_a_username_longer_than_any_account_is_a_wrong_login_not_a_server_error(client):
    """django-axes would store it in a varchar(255): run on PostgreSQL to see the error it was."""
    response = client.post(
        reverse("login"),
        {"username": "x" * 300, "password": "wrong"},
        REMOTE_ADDR="10.1.2.3",
        HTTP_ACCEPT_LANGUAGE="pl",
    )
    assert response.status_code == 200
    assert "Wprowadź poprawne wartości pól" in response.content.decode()  # as for any wrong password
    assert "_auth_user_id" not in client.session


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


# --- hostile or absurd values: a clear answer, nothing stored -------------------


def test_a_correction_reason_the_length_of_a_book_is_refused_and_nothing_changes(client):
    from django.core.exceptions import ValidationError

    from league.results import services
    from league.results.models import DealRowVersion, Protocol
    from tests.factories import drawn_series

    referee = UserFactory()
    client.force_login(referee)
    series = drawn_series()
    series.tournament.referees.add(referee)

    def page(name, *args):
        return reverse(f"results:{name}", args=[series.tournament.slug, series.number, *args])

    client.post(page("protocol", 1), {"number": 1, "version": 0, "line": "ac60"})
    protocol = Protocol.objects.get(series=series, table=1)
    book = "x" * 100_000

    typed = protocol.rows.get().deal

    refused = client.post(
        page("correct", 1, 1),
        {"number": 1, "version": protocol.version, "line": "ac40", "reason": book},
        HTTP_ACCEPT_LANGUAGE="pl",
    )
    assert refused.status_code == 200 and "500 znaków" in refused.content.decode()
    assert protocol.rows.get().deal == typed
    assert not DealRowVersion.objects.filter(action="change").exists()

    with pytest.raises(ValidationError, match="500"):  # the service refuses it without the form too
        services.protocol_row_save(
            protocol=protocol,
            number=1,
            deal=protocol.rows.get().deal,
            expected_version=protocol.version,
            user=referee,
            reason=book,
        )


def test_the_compose_redis_asks_for_a_password_and_the_app_gives_it():
    """Write access to Redis is write access to the queues and the cache: compose's Redis is not open."""
    from pathlib import Path

    compose = (Path(__file__).parent.parent / "docker" / "docker-compose.yml").read_text()
    password = "${REDIS_PASSWORD:?set REDIS_PASSWORD in docker/.env}"
    assert f"--requirepass\n      - {password}" in compose
    assert f"CELERY_BROKER_URL: redis://:{password}@redis" in compose
    assert f"CACHE_URL: redis://:{password}@redis" in compose
