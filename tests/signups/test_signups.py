"""Online sign-ups (issue 25): limits, the waiting list, one sign-up per form, bots, the private
link, what the public search shows, and the organiser's confirmation."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league.models import Registration
from league.signups import limits, services
from league.signups.links import signup_token
from league.signups.models import SignUp, SignUpChange
from players import services as player_services
from players.models import Player
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

TOKENS = iter(f"token-{n}" for n in range(10_000))


@pytest.fixture
def tournament():
    return TournamentFactory(date=date.today() + timedelta(days=10), published=True)


def open_window(tournament, **fields):
    values = {
        "is_open": True,
        "closes_at": timezone.now() + timedelta(days=5),
        "capacity": None,
        "waiting_list": True,
        "note": "Wpisowe 20 zł",
    }
    return services.signup_window_save(tournament=tournament, user=UserFactory(), page="/test/", **(values | fields))


def sign_up(tournament, name: str, **fields) -> SignUp:
    first, last = name.split()
    data = {"first_name": first, "last_name": last, "gender": "M", "email": f"{first.lower()}@example.org"}
    signup, _made = services.signup_create(
        tournament=tournament, form_token=next(TOKENS), page="/t/x/zgloszenie/", **(data | fields)
    )
    return signup


def form_data(**changes) -> dict:
    data = {
        "first_name": "Ewa",
        "last_name": "Nowa",
        "gender": "F",
        "email": "ewa@example.org",
        "phone": "",
        "form_token": "one-time-token",
        "website": "",
    }
    return data | changes


def test_over_the_capacity_a_sign_up_waits_and_without_a_waiting_list_is_refused(tournament):
    window = open_window(tournament, capacity=2)
    first, second, third = (sign_up(tournament, name) for name in ("Jan Bork", "Ola Hinz", "Piotr Kreft"))
    assert [s.status for s in (first, second, third)] == ["new", "new", "waiting"]

    window.waiting_list = False
    window.save()
    with pytest.raises(ValidationError, match="All places are taken"):
        sign_up(tournament, "Anna Czapp")
    assert tournament.signups.count() == 3


def test_after_the_closing_time_nobody_signs_up(tournament):
    open_window(tournament, closes_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(ValidationError, match="closed"):
        sign_up(tournament, "Jan Bork")
    assert not SignUp.objects.exists()


def test_the_closing_time_must_come_before_the_tournament_starts(tournament):
    with pytest.raises(ValidationError, match="before the tournament starts"):
        open_window(tournament, closes_at=timezone.now() + timedelta(days=11))
    tournament.start_time = time(10)  # on its morning, sign-ups may stay open until it starts
    morning = timezone.make_aware(datetime.combine(tournament.date, time(9)))
    assert open_window(tournament, closes_at=morning).closes_at == morning
    with pytest.raises(ValidationError, match="before the tournament starts"):
        open_window(tournament, closes_at=morning + timedelta(hours=2))


def test_a_cancellation_moves_the_first_waiting_sign_up_up(tournament):
    open_window(tournament, capacity=1)
    taking = sign_up(tournament, "Jan Bork")
    first_waiting = sign_up(tournament, "Ola Hinz")
    second_waiting = sign_up(tournament, "Piotr Kreft")

    moved = services.signup_cancel(signup=taking, user=None, page="/t/x/zgloszenie/abc/")

    assert moved == first_waiting
    statuses = dict(tournament.signups.values_list("last_name", "status"))
    assert statuses == {"Bork": "cancelled", "Hinz": "new", "Kreft": "waiting"}
    # a second cancellation of the same sign-up frees no second place
    assert services.signup_cancel(signup=taking, user=None, page="/") is None
    assert SignUp.objects.get(pk=second_waiting.pk).status == "waiting"
    history = SignUpChange.objects.filter(signup=first_waiting).order_by("pk")
    assert [(c.old and c.old["status"], c.new["status"]) for c in history] == [(None, "waiting"), ("waiting", "new")]


def test_a_double_click_stores_one_sign_up(client, tournament):
    open_window(tournament)
    url = reverse("signups:signup", args=[tournament.slug])
    first = client.post(url, form_data())
    second = client.post(url, form_data())
    assert SignUp.objects.count() == 1
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert len(mail.outbox) == 1  # one confirmation, not two


def test_the_honeypot_stores_nothing(client, tournament):
    open_window(tournament)
    response = client.post(reverse("signups:signup", args=[tournament.slug]), form_data(website="http://spam"))
    assert response.status_code == 200
    assert b"could not be accepted" in response.content
    assert not SignUp.objects.exists()


def test_one_address_sends_only_so_many_forms(client, tournament, monkeypatch):
    monkeypatch.setattr(limits, "SENDS_PER_WINDOW", 2)
    open_window(tournament)
    url = reverse("signups:signup", args=[tournament.slug])
    client.post(url, form_data(form_token="a", first_name="Jan", last_name="Bork", gender="M"))
    client.post(url, form_data(form_token="b", first_name="Ola", last_name="Hinz"))
    refused = client.post(url, form_data(form_token="c", first_name="Ida", last_name="Pioch"))
    assert refused.status_code == 429
    assert SignUp.objects.count() == 2
    other = client.post(url, form_data(form_token="d"), REMOTE_ADDR="10.0.0.9")  # another address goes on
    assert other.status_code == 302


def test_the_private_link_shows_and_cancels_until_the_tournaments_day(client, tournament):
    open_window(tournament)
    signup = sign_up(tournament, "Jan Bork")
    url = reverse("signups:detail", args=[tournament.slug, signup_token(signup=signup)])
    assert b"Jan Bork" in client.get(url).content

    forged = reverse("signups:detail", args=[tournament.slug, signup_token(signup=signup)[:-2] + "xx"])
    assert client.get(forged).status_code == 404
    assert client.post(forged).status_code == 404

    tournament.date = timezone.localdate()  # the day has begun
    tournament.save()
    assert client.get(url).status_code == 410
    assert client.post(url).status_code == 410
    assert SignUp.objects.get().status == "new"

    tournament.date = timezone.localdate() + timedelta(days=1)
    tournament.save()
    asked = client.post(url, HTTP_ACCEPT_LANGUAGE="pl")  # one tap asks first (issue 41)
    assert "Anulować zgłoszenie?" in asked.content.decode()
    assert SignUp.objects.get().status == "new"
    client.post(url, {"confirm": "yes"})
    assert SignUp.objects.get().status == "cancelled"
    change = SignUpChange.objects.filter(signup=signup).last()
    assert change.user is None and change.page == url


def test_the_public_search_shows_only_name_club_and_city(client, tournament):
    open_window(tournament)
    club = ClubFactory(name="Gryf Wejherowo", city="Wejherowo")
    PlayerFactory(first_name="Żaneta", last_name="Kąkol", club=club, licence="PL-4711")
    response = client.get(reverse("signups:signup", args=[tournament.slug]), {"q": "kakol"})
    found = re.search(rb'<ul class="signup-found" id="found">(.*?)</ul>', response.content, re.S).group(1).decode()
    assert "Żaneta Kąkol" in found and "Gryf Wejherowo, Wejherowo" in found
    text = re.sub(r"<[^>]+>", " ", found)
    assert text.split() == ["Żaneta", "Kąkol", "Gryf", "Wejherowo,", "Wejherowo", "That's", "me"]
    # the licence is neither shown nor a way to find somebody
    assert not client.get(reverse("signups:signup", args=[tournament.slug]), {"q": "PL-4711"}).context["found"]


def test_a_typed_name_of_the_register_asks_before_it_is_sent(client, tournament):
    open_window(tournament)
    known = PlayerFactory(first_name="Łucja", last_name="Żmuda")
    url = reverse("signups:signup", args=[tournament.slug])

    asked = client.post(url, form_data(first_name="lucja", last_name="ZMUDA"))
    assert asked.status_code == 200
    assert [player.pk for player in asked.context["candidates"]] == [known.pk]
    assert not SignUp.objects.exists()

    client.post(url, form_data(first_name="lucja", last_name="ZMUDA", player=known.pk))
    signup = SignUp.objects.get()
    assert signup.player == known and signup.full_name == "Łucja Żmuda"
    assert Player.objects.count() == 1


def test_a_second_sign_up_of_the_same_person_is_refused(tournament):
    open_window(tournament)
    player = PlayerFactory(first_name="Jan", last_name="Bork")
    sign_up(tournament, "Jan Bork", player=player)
    with pytest.raises(ValidationError, match="already signed up"):
        sign_up(tournament, "Jan Bork", player=player)
    with pytest.raises(ValidationError, match="already signed up"):
        sign_up(tournament, "JAN BORK")


def test_the_organiser_confirms_in_bulk_matching_new_people(client, tournament):
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    open_window(tournament)
    known = PlayerFactory(first_name="Jan", last_name="Bork")
    picked = sign_up(tournament, "Jan Bork", player=known)
    namesake = sign_up(tournament, "Ola Hinz")
    ola = PlayerFactory(first_name="Ola", last_name="Hinz")
    newcomer = sign_up(tournament, "Ida Pioch")
    url = reverse("signups:confirm", args=[tournament.slug])

    refused = client.post(url, {"signups": [picked.pk, namesake.pk, newcomer.pk]}, follow=True)
    assert "Ola Hinz: choose the player" in refused.content.decode()
    assert not Registration.objects.exists()  # all or none

    matches = {f"match-{namesake.pk}": ola.pk, f"match-{newcomer.pk}": "new"}
    client.post(url, {"signups": [picked.pk, namesake.pk, newcomer.pk], **matches})
    registered = set(tournament.registrations.values_list("player__last_name", flat=True))
    assert registered == {"Bork", "Hinz", "Pioch"}
    assert Player.objects.filter(last_name="Hinz").count() == 1
    assert set(tournament.signups.values_list("status", flat=True)) == {"confirmed"}
    assert SignUpChange.objects.filter(user=organiser).count() == 3


def test_cancelling_a_confirmed_sign_up_takes_its_registration_back(tournament):
    open_window(tournament, capacity=1)
    player = PlayerFactory()
    signup = sign_up(tournament, "Jan Bork", player=player)
    waiting = sign_up(tournament, "Ola Hinz")
    services.signups_confirm(tournament=tournament, choices=[(signup, None)], user=UserFactory(), page="/")
    assert tournament.registrations.filter(player=player).exists()
    services.signup_cancel(signup=signup, user=None, page="/")
    assert not tournament.registrations.exists()
    assert SignUp.objects.get(pk=waiting.pk).status == "new"


def test_a_registered_player_cannot_sign_up_again(tournament):
    open_window(tournament)
    registration = RegistrationFactory(tournament=tournament)
    with pytest.raises(ValidationError, match="already registered"):
        sign_up(tournament, "Jan Bork", player=registration.player)


def test_the_list_costs_the_same_however_many_sign_up(client, tournament, django_assert_max_num_queries):
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    open_window(tournament)
    url = reverse("signups:list", args=[tournament.slug])

    def count_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    sign_up(tournament, "Jan Bork", player=PlayerFactory(club=ClubFactory()))
    sign_up(tournament, "Ola Hinz")
    PlayerFactory(first_name="Ola", last_name="Hinz")
    few = count_queries()
    for n in range(12):
        sign_up(tournament, f"Anna Nowak{chr(97 + n)}")
        PlayerFactory(first_name="Anna", last_name=f"Nowak{chr(97 + n)}")
    with django_assert_max_num_queries(few):
        assert client.get(url).status_code == 200


def test_the_tournament_page_links_to_the_form_while_sign_ups_are_open(client, tournament):
    page = reverse("public:tournament", args=[tournament.slug])
    form = reverse("signups:signup", args=[tournament.slug])
    assert form not in client.get(page).content.decode()
    open_window(tournament)
    assert form in client.get(page).content.decode()


def test_the_e_mail_carries_the_private_link_and_the_note(client, tournament):
    open_window(tournament)
    url = reverse("signups:signup", args=[tournament.slug])
    response = client.post(url, form_data())
    (message,) = mail.outbox
    assert message.to == ["ewa@example.org"]
    assert "Ewa Nowa" in message.body and "Wpisowe 20 zł" in message.body
    assert f"http://testserver{response['Location']}" in message.body
    client.post(url, form_data(form_token="other", first_name="Jan", last_name="Bork", email="", phone="600 100 200"))
    assert len(mail.outbox) == 1  # no address, no e-mail


def test_whoever_moves_up_gets_an_e_mail_with_their_link(client, tournament):
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    open_window(tournament, capacity=1)
    taking = sign_up(tournament, "Jan Bork")
    waiting = sign_up(tournament, "Ola Hinz")
    response = client.post(reverse("signups:cancel", args=[tournament.slug]), {"signups": [taking.pk]}, follow=True)
    assert "Ola Hinz moved up from the waiting list." in response.content.decode()
    (message,) = [m for m in mail.outbox if m.to == [waiting.email]]
    assert reverse("signups:detail", args=[tournament.slug, signup_token(signup=waiting)]) in message.body


def test_each_change_a_player_should_know_of_sends_one_e_mail_in_the_language_they_signed_up_in(client, tournament):
    """Issue 41: moved up from the waiting list, a player got the plain confirmation ("Stan: nowe");
    cancelling and confirming sent nothing."""
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    open_window(tournament, capacity=1)
    jan = sign_up(tournament, "Jan Bork")
    ola = sign_up(tournament, "Ola Hinz", gender="F")
    tom = sign_up(tournament, "Tom Reed", language="en")

    client.post(reverse("signups:cancel", args=[tournament.slug]), {"signups": [jan.pk]})
    client.post(reverse("signups:cancel", args=[tournament.slug]), {"signups": [jan.pk]})  # resent: no second mail
    sent = {m.to[0]: m for m in mail.outbox}
    assert len(mail.outbox) == 2
    assert "anulowane" in sent[jan.email].subject and "możesz sprawdzić" not in sent[jan.email].body
    assert "Miejsce dla Ciebie" in sent[ola.email].subject and "masz teraz miejsce" in sent[ola.email].body

    mail.outbox.clear()
    confirm = {"signups": [ola.pk], f"match-{ola.pk}": "new"}
    client.post(reverse("signups:confirm", args=[tournament.slug]), confirm)
    (confirmed,) = mail.outbox
    assert confirmed.to == [ola.email] and "potwierdzone" in confirmed.subject

    mail.outbox.clear()
    client.post(reverse("signups:cancel", args=[tournament.slug]), {"signups": [ola.pk]})
    moved = next(m for m in mail.outbox if m.to == [tom.email])
    assert moved.subject.startswith("A place for you in") and "you have a place now" in moved.body


def test_the_organiser_opens_sign_ups_and_the_change_is_kept(client, tournament):
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    url = reverse("signups:window", args=[tournament.slug])
    data = {"is_open": "on", "capacity": "16", "waiting_list": "on", "note": "20 zł"}

    too_late = (timezone.localdate() + timedelta(days=10)).isoformat() + "T10:00"
    refused = client.post(url, data | {"closes_at": too_late})
    assert "Sign-ups must close before the tournament" in refused.content.decode()
    assert not tournament.signups.exists() and not hasattr(tournament, "signup_window")

    closes = (timezone.localdate() + timedelta(days=3)).isoformat() + "T20:00"
    assert client.post(url, data | {"closes_at": closes}).status_code == 302
    tournament.refresh_from_db()
    window = tournament.signup_window
    assert (window.is_open, window.capacity, timezone.localtime(window.closes_at).hour) == (True, 16, 20)
    (change,) = window.changes.all()
    assert (change.user, change.page, change.old, change.new["capacity"]) == (organiser, url, None, 16)


def test_the_register_is_not_searched_for_a_tournament_without_open_sign_ups(client, tournament):
    PlayerFactory(first_name="Żaneta", last_name="Kąkol")
    url = reverse("signups:signup", args=[tournament.slug])
    closed = client.get(url, {"q": "kakol"})
    assert "Kąkol" not in closed.content.decode()
    assert "not open" in closed.content.decode()
    open_window(tournament)
    assert "Kąkol" in client.get(url, {"q": "kakol"}).content.decode()


def test_no_one_moves_up_while_the_organiser_has_taken_more_than_the_places(tournament):
    open_window(tournament, capacity=1)
    taking = sign_up(tournament, "Jan Bork")
    extra = sign_up(tournament, "Ola Hinz")
    last = sign_up(tournament, "Piotr Kreft")
    choices = [(extra, PlayerFactory(first_name="Ola", last_name="Hinz"))]
    services.signups_confirm(tournament=tournament, choices=choices, user=UserFactory(), page="/")

    assert services.signup_cancel(signup=taking, user=None, page="/") is None  # one place, still taken
    assert SignUp.objects.get(pk=last.pk).status == "waiting"


@pytest.mark.parametrize("field", ["first_name", "last_name", "phone"])
def test_a_control_character_is_refused_with_a_message_and_nothing_stored(client, tournament, field):
    open_window(tournament)
    response = client.post(
        reverse("signups:signup", args=[tournament.slug]), form_data(**{field: "Ewa\u202e", "not_listed": "1"})
    )
    assert response.status_code == 200
    assert "Control characters" in response.content.decode()
    assert not SignUp.objects.exists()


def test_the_list_tells_who_changed_a_sign_up_when_and_from_which_page(client, tournament):
    organiser = UserFactory(first_name="Ewa", last_name="Organizatorska")
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    open_window(tournament)
    signup = sign_up(tournament, "Jan Bork", player=PlayerFactory())
    cancel = reverse("signups:cancel", args=[tournament.slug])
    client.post(cancel, {"signups": [signup.pk]})
    page = client.get(reverse("signups:list", args=[tournament.slug])).content.decode()
    history = re.search(r'<ul class="signup-history">(.*?)</ul>', page, re.S).group(1)
    lines = [re.sub(r"\s+", " ", line).strip() for line in re.findall(r"<li>(.*?)</li>", history, re.S)]
    assert lines[0].endswith("new · the person signing up · /t/x/zgloszenie/")
    assert lines[1].endswith(f"new → cancelled · Ewa Organizatorska · {cancel}")


# --- found by an attack on the sign-ups (issue 25) ---------------------------------------------


def test_another_tournaments_form_token_finds_nothing_of_it(client, tournament):
    other = TournamentFactory(date=tournament.date, published=True)
    for each in (tournament, other):
        open_window(each)
    theirs = services.signup_create(
        tournament=other,
        form_token="their-token",
        page="/t/x/",
        first_name="Jan",
        last_name="Bork",
        gender="M",
        email="jan@example.org",
    )[0]
    response = client.post(reverse("signups:signup", args=[tournament.slug]), form_data(form_token="their-token"))
    mine = tournament.signups.get()
    assert response["Location"].endswith(f"/{signup_token(signup=mine)}/")
    assert signup_token(signup=theirs) not in response["Location"]
    assert (mine.full_name, theirs.status) == ("Ewa Nowa", "new")


def test_a_form_shown_again_after_an_error_carries_a_new_token(client, tournament):
    open_window(tournament)
    url = reverse("signups:signup", args=[tournament.slug])
    page = client.post(url, form_data(email="", phone="")).content.decode()  # no contact: refused
    assert "one-time-token" not in page and 'name="form_token"' in page


def test_matching_a_typed_sign_up_to_a_player_who_signed_up_already_is_refused_in_words(client, tournament):
    organiser = UserFactory()
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    open_window(tournament)
    known = PlayerFactory(first_name="Jan", last_name="Bork")
    sign_up(tournament, "Jan Bork", player=known)
    typed = sign_up(tournament, "Janek Bork", phone="600 100 200")
    url = reverse("signups:confirm", args=[tournament.slug])
    page = client.post(url, {"signups": [typed.pk], f"match-{typed.pk}": known.pk}, follow=True)
    assert "has another sign-up for this tournament" in page.content.decode()
    assert not Registration.objects.exists()


def test_a_team_typed_on_the_public_form_counts_only_for_its_member(tournament):
    open_window(tournament)
    team = TeamFactory(members=2)
    member = team.memberships.first().player
    stranger = PlayerFactory()
    signups = [sign_up(tournament, "Ktoś Ktoś", player=p, team=team, email="") for p in (member, stranger)]
    services.signups_confirm(tournament=tournament, choices=[(s, None) for s in signups], user=UserFactory(), page="/")
    teams = dict(tournament.registrations.values_list("player", "team"))
    assert teams == {member.pk: team.pk, stranger.pk: None}


def test_two_namesakes_picked_from_the_register_both_sign_up(tournament):
    open_window(tournament)
    first = PlayerFactory(first_name="Łucja", last_name="Żółw")
    second = PlayerFactory(first_name="Lucja", last_name="Zolw")
    assert sign_up(tournament, "Łucja Żółw", player=first, email="").player == first
    assert sign_up(tournament, "Lucja Zolw", player=second, email="").player == second


def test_a_player_with_a_sign_up_is_not_deleted_but_may_be_merged(tournament):
    open_window(tournament)
    player, twin = PlayerFactory(), PlayerFactory()
    sign_up(tournament, "Ktoś Ktoś", player=player, email="")
    with pytest.raises(ValidationError, match="Merge the player instead"):
        player_services.player_delete(player=player, user=UserFactory(is_superuser=True))
    player_services.player_merge(kept=twin, merged=player, user=UserFactory(is_superuser=True), reason="dwa wpisy")
    assert tournament.signups.get().player == twin


def test_a_line_break_in_the_tournaments_name_is_refused_and_the_e_mail_subject_is_one_plain_line(client, tournament):
    tournament.name = "Nowa\r\nnazwa"
    with pytest.raises(ValidationError):
        tournament.full_clean()
    tournament.name = "Ryba & Rak\u2028O'Neill"
    tournament.save()
    open_window(tournament)
    client.post(reverse("signups:signup", args=[tournament.slug]), form_data())
    (message,) = mail.outbox
    assert "\n" not in message.subject and "&amp;" not in message.subject and "Ryba & Rak" in message.subject


def test_the_organisers_page_says_closed_once_the_closing_time_has_passed(client, tournament, organiser):
    """Issue 41: the organiser read "zapisy otwarte" after the closing time while the public page said closed."""
    from datetime import timedelta as later

    window = open_window(tournament, closes_at=timezone.now() + later(hours=1))
    tournament.organisers.add(organiser)
    url = reverse("signups:list", args=[tournament.slug])
    assert "zapisy otwarte" in client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    window.closes_at = timezone.now() - later(minutes=1)
    window.save()
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "zapisy zamknięte" in page and "zapisy otwarte" not in page
