"""RODO, told and asked (issue 43): the privacy notices, the short notice on the sign-up form and in
every e-mail, the version seen and the consent recorded and shown to the organiser."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from league.privacy import services
from league.privacy.models import PrivacyNotice
from league.privacy.texts import NoticeText
from league.signups import services as signup_services
from league.signups.models import SignUp
from tests.factories import LeagueFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return LeagueFactory(name="Liga Kaszubska", slug="liga-kaszubska")


@pytest.fixture
def tournament(league):
    tournament = TournamentFactory(date=date.today() + timedelta(days=10), published=True, league=league)
    signup_services.signup_window_save(
        tournament=tournament,
        user=UserFactory(),
        page="/test/",
        is_open=True,
        closes_at=timezone.now() + timedelta(days=5),
        capacity=None,
        waiting_list=True,
        note="",
    )
    return tournament


def league_organiser(client, league):
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    league.organisers.add(user)
    client.force_login(user)
    return user


def edited(**changes) -> dict:
    data = {
        "controller": "Klub Gryf Wejherowo, ul. Sportowa 1",
        "contact": "rodo@gryf.example.org",
        "text_pl": "Własna klauzula ligi.",
        "text_en": "The league's own notice.",
        "reason": "adres klubu",
    }
    return data | changes


def test_every_page_links_the_privacy_notice_which_names_controller_purposes_retention_and_rights(client, settings):
    settings.BASKA_SIGNUP_CONTACT_DAYS = 45
    home = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("privacy:notice")}"' in home
    page = client.get(reverse("privacy:notice")).content.decode()
    for words in ("Controller", "Purposes", "45 days after the tournament", "Your rights", "Data Protection Office"):
        assert words in page
    client.cookies["django_language"] = "pl"
    page = client.get(reverse("privacy:notice")).content.decode()
    for words in ("Administrator", "Cele i podstawy", "45 dni po turnieju", "Twoje prawa", "Prezesa Urzędu Ochrony"):
        assert words in page


def test_a_league_shows_the_default_text_in_english_too(client, league):
    client.cookies["django_language"] = "en"
    page = client.get(reverse("privacy:league_notice", args=[league.slug])).content.decode()
    assert "Organizatorzy ligi „Liga Kaszubska”" in page  # the controller, named in Polish as saved
    assert "Purposes and legal bases" in page and "The default text" in page


def test_the_leagues_organiser_saves_versions_kept_with_who_and_why(client, league):
    user = league_organiser(client, league)
    url = reverse("privacy:league_notice_edit", args=[league.slug])
    form = client.get(url).content.decode()
    assert "Cele i podstawy" in form  # starts from the default text
    assert client.post(url, edited()).status_code == 302
    versions = list(PrivacyNotice.objects.filter(league=league).order_by("version"))
    # the default text people may have read is kept as version 1, the organiser's as version 2
    assert [(v.version, v.user) for v in versions] == [(1, None), (2, user)]
    assert versions[1].reason == "adres klubu"
    page = client.get(reverse("privacy:league_notice", args=[league.slug])).content.decode()
    assert "The league&#x27;s own notice." in page and "rodo@gryf.example.org" in page
    # the same text again is no new version
    client.post(url, edited())
    assert PrivacyNotice.objects.filter(league=league).count() == 2


@pytest.mark.parametrize("who", ["anonymous", "other league's organiser", "installation's notice"])
def test_nobody_else_edits_a_leagues_notice(client, league, who):
    url = reverse("privacy:league_notice_edit", args=[league.slug])
    if who != "anonymous":
        league_organiser(client, LeagueFactory())
    if who == "installation's notice":  # an organiser of a league is no superuser
        url = reverse("privacy:notice_edit")
    response = client.post(url, edited())
    assert response.status_code in (302, 403)
    assert response.status_code == 403 or "/konto/logowanie/" in response["Location"]
    assert not PrivacyNotice.objects.exists()


def test_the_sign_up_form_shows_the_short_notice_and_an_unticked_consent(client, tournament):
    page = client.get(reverse("signups:signup", args=[tournament.slug])).content.decode()
    assert 'id="privacy-notice"' in page
    assert reverse("privacy:league_notice", args=[tournament.league.slug]) in page
    assert 'name="contact_consent"' in page and "checked" not in page.split('name="contact_consent"')[1][:40]
    assert 'name="notice_version" value="0"' in page


def sign_up_by_form(client, tournament, **changes):
    data = {
        "first_name": "Ewa",
        "last_name": "Nowa",
        "gender": "F",
        "email": "ewa@example.org",
        "phone": "",
        "form_token": "one-time-token",
        "website": "",
        "not_listed": "1",
        "notice_version": "0",
    }
    return client.post(reverse("signups:signup", args=[tournament.slug]), data | changes)


def test_a_sign_up_records_the_notice_version_seen_and_no_consent_unless_ticked(client, tournament):
    sign_up_by_form(client, tournament)
    signup = SignUp.objects.get()
    assert signup.contact_consent is False
    assert signup.privacy_notice.version == 1  # the default text, kept the first time it was read
    assert signup.privacy_notice.text_pl.startswith("Cele i podstawy")


def test_the_consent_and_a_later_version_are_recorded_as_the_form_showed_them(client, tournament):
    league = tournament.league
    services.notice_save(
        league=league,
        text=NoticeText("Klub", "rodo@example.org", "v2", "v2"),
        user=UserFactory(is_superuser=True),
        reason="",
    )
    page = client.get(reverse("signups:signup", args=[tournament.slug])).content.decode()
    assert 'name="notice_version" value="2"' in page
    sign_up_by_form(client, tournament, contact_consent="on", notice_version="2")
    signup = SignUp.objects.get()
    assert (signup.contact_consent, signup.privacy_notice.version, signup.privacy_notice.text_pl) == (True, 2, "v2")


def test_every_sign_up_e_mail_ends_with_the_short_notice(client, tournament):
    sign_up_by_form(client, tournament)
    [message] = mail.outbox
    assert "30" in message.body and "http://testserver/liga/liga-kaszubska/prywatnosc/" in message.body


def test_the_organisers_list_shows_the_consent_and_the_version(client, tournament):
    sign_up_by_form(client, tournament, contact_consent="on")
    sign_up_by_form(client, tournament, first_name="Jan", last_name="Bork", gender="M", form_token="second")
    league_organiser(client, tournament.league)
    page = client.get(reverse("signups:list", args=[tournament.slug])).content.decode()
    assert page.count("notice v1 seen") == 2
    assert "consents to be contacted" in page and "no consent to be contacted" in page
