"""RODO, kept no longer than needed (issue 43): sign-ups' e-mail addresses and phone numbers are
erased the configured number of days after the tournament, by the periodic task (Celery beat) or
``manage.py erase_signup_contacts``; the rows stay, and each run is logged without the data."""

from __future__ import annotations

from datetime import date, timedelta
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command

from league.privacy import services
from league.privacy.models import ContactErasure
from league.signups.models import SignUp
from tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 7)


def signup(tournament, n: int, **fields) -> SignUp:
    values = {"first_name": "Ewa", "last_name": f"Nowa{n}", "gender": "F", "email": f"ewa{n}@example.org"}
    return SignUp.objects.create(tournament=tournament, form_token=f"t{n}", **(values | fields))


@pytest.mark.parametrize(
    ("days_ago", "erased"),
    [(31, True), (30, True), (29, False), (0, False), (-5, False)],
)
def test_contacts_go_the_set_number_of_days_after_the_tournament(days_ago, erased):
    tournament = TournamentFactory(date=TODAY - timedelta(days=days_ago))
    kept = signup(tournament, 1, phone="+48 600 100 200", status="cancelled")
    services.signup_contacts_erase(today=TODAY, days=30)
    kept.refresh_from_db()
    assert (kept.email == "" and kept.phone == "") is erased
    assert (kept.contact_erased is not None) is erased
    assert (kept.first_name, kept.status) == ("Ewa", "cancelled")  # the row itself stays


def test_a_run_is_logged_without_the_data_and_a_second_run_finds_nothing():
    old = TournamentFactory(date=TODAY - timedelta(days=40), slug="jesien")
    signup(old, 1)
    signup(old, 2, email="", phone="600 100 200")
    signup(old, 3, email="", player=PlayerFactory())  # nothing to erase
    first = services.signup_contacts_erase(today=TODAY, days=30)
    assert (first.signups, first.tournaments, first.days) == (2, ["jesien"], 30)
    assert "example.org" not in str(first.tournaments)
    assert services.signup_contacts_erase(today=TODAY, days=30) is None
    assert ContactErasure.objects.count() == 1
    assert not SignUp.objects.exclude(email="", phone="").exists()


def test_the_command_runs_the_task_with_the_days_of_the_setting(settings):
    settings.BASKA_SIGNUP_CONTACT_DAYS = 3
    recent = TournamentFactory(date=date.today() - timedelta(days=4))
    signup(recent, 1)
    out = StringIO()
    call_command("erase_signup_contacts", stdout=out)
    assert "1 sign-up" in out.getvalue()
    assert SignUp.objects.get().email == ""
    call_command("erase_signup_contacts", stdout=out)
    assert "No sign-up holds contacts" in out.getvalue()


def test_celery_beat_runs_the_task_daily():
    entry = settings.CELERY_BEAT_SCHEDULE["erase-signup-contacts"]
    assert entry == {"task": "league.privacy.erase_signup_contacts", "schedule": 86400}
    from league.celery import app

    app.loader.import_default_modules()
    assert "league.privacy.erase_signup_contacts" in app.tasks
