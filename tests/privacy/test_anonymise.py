"""RODO, erased on request (issue 43): "anonimizuj" replaces a player's name, club, licence and
their sign-ups' contacts by "Zawodnik #<number>" on every page, printout, export, the exchange
file, the API, the caches and the search; logged without the data; only for who may change the player."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.urls import reverse

from league.exchange.exporting import export_tournament
from league.models import TournamentFileVersion
from league.privacy.models import Anonymisation
from league.privacy.services import player_anonymise
from league.signups.models import SignUp
from players.models import Player
from players.services import player_merge
from tests.factories import (
    ClubFactory,
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    played_series,
)

pytestmark = pytest.mark.django_db

NAME = "Józefina Żmuda-Trzebiatowska"


def league_organiser(league):
    user = UserFactory()
    for codename in ("add_tournament", "add_player", "change_player"):
        user.user_permissions.add(Permission.objects.get(codename=codename))
    league.organisers.add(user)
    return user


@pytest.fixture
def world():
    """A league's tournament of one closed series: Józefina and three others, she also signed up."""
    league = LeagueFactory()
    tournament = TournamentFactory(league=league, date=date.today() - timedelta(days=3), slug="jesien")
    club = ClubFactory(name="Gryf Wejherowo", city="Wejherowo")
    her = PlayerFactory(first_name="Józefina", last_name="Żmuda-Trzebiatowska", club=club, licence="PL-777", gender="F")
    others = [PlayerFactory() for _ in range(3)]
    for player in [her, *others]:
        RegistrationFactory(tournament=tournament, player=player)
    played_series(tournament, 1, [list(zip([her, *others], (30, 10, -10, -30), strict=True))])
    SignUp.objects.create(
        tournament=tournament,
        player=her,
        first_name=her.first_name,
        last_name=her.last_name,
        gender="F",
        club=club,
        email="jozefina@example.org",
        phone="+48 600 700 800",
        form_token="x",
    )
    return {"league": league, "tournament": tournament, "her": her, "organiser": league_organiser(league)}


def public_texts(client, tournament, her) -> dict[str, str]:
    """What anyone can read or download about the tournament and the player."""
    slug = tournament.slug
    pages = {
        "player page": reverse("public:player", args=[her.pk]),
        "standings": reverse("public:standings", args=[slug]),
        "csv": reverse("public:standings", args=[slug]) + "?_export=csv&lista=individual",
        "api": reverse("public:api_standings", args=[slug]),
        "find my table": reverse("public:find_table", args=[slug]) + "?q=Żmuda-Trzebiatowska",
    }
    return {name: client.get(url).content.decode() for name, url in pages.items()}


def test_the_pseudonym_replaces_her_everywhere_and_her_result_stays(client, world):
    tournament, her = world["tournament"], world["her"]
    before = public_texts(client, tournament, her)  # also fills the caches and the pages kept ready
    assert [
        name for name in ("player page", "standings", "csv", "api") if "Żmuda-Trzebiatowska" not in before[name]
    ] == []

    player_anonymise(player=her, user=world["organiser"], reason="wniosek z 05.12.2026")

    after = public_texts(client, tournament, her)
    pseudonym = f"Zawodnik #{her.pk}"
    for name, text in after.items():
        assert "Żmuda" not in text and "Józefina" not in text and "Gryf" not in text, name
    for name in ("player page", "standings", "csv"):
        assert pseudonym in after[name], name
    api = json.loads(after["api"])
    assert next(row for row in api["individual"] if row["name"] == pseudonym)["small_points"] == 30
    exchange = json.dumps(export_tournament(tournament), ensure_ascii=False)
    assert "Żmuda" not in exchange and "PL-777" not in exchange and pseudonym.split()[1] in exchange
    her.refresh_from_db()
    assert (her.full_name, her.club, her.licence, her.active) == (pseudonym, None, "", False)
    assert list(Player.objects.search("zmuda")) == []


def test_her_sign_ups_lose_name_and_contacts_and_the_log_keeps_no_data(world):
    her = world["her"]
    player_anonymise(player=her, user=world["organiser"], reason="wniosek z 05.12.2026")
    signup = SignUp.objects.get()
    assert (signup.first_name, signup.email, signup.phone, signup.club) == ("Zawodnik", "", "", None)
    log = Anonymisation.objects.get()
    assert (log.user, log.reason, log.signups) == (world["organiser"], "wniosek z 05.12.2026", 1)
    stored = json.dumps([log.reason, str(log)], ensure_ascii=False)
    assert "Żmuda" not in stored and "jozefina" not in stored


def test_earlier_file_versions_and_a_merge_log_take_the_pseudonym(world):
    her, tournament, organiser = world["her"], world["tournament"], world["organiser"]
    TournamentFileVersion.objects.create(tournament=tournament, user=organiser, file=export_tournament(tournament))
    second = PlayerFactory(first_name="Józefina", last_name="Żmuda-Trzebiatowska", club=None)
    player_merge(kept=her, merged=second, user=organiser, reason="ta sama osoba")
    player_anonymise(player=Player.objects.get(pk=her.pk), user=organiser, reason="wniosek")
    kept_file = json.dumps(TournamentFileVersion.objects.get().file, ensure_ascii=False)
    assert "Żmuda" not in kept_file and "PL-777" not in kept_file and "Gryf" not in kept_file.split('"players"')[1]
    removal = her.merged_away.get()
    assert "Żmuda" not in json.dumps([removal.old, removal.new], ensure_ascii=False)


def test_it_cannot_be_done_twice_nor_without_a_reason(world):
    her, organiser = world["her"], world["organiser"]
    with pytest.raises(ValidationError, match="Say why"):
        player_anonymise(player=her, user=organiser, reason="  ")
    assert Player.objects.get(pk=her.pk).last_name == "Żmuda-Trzebiatowska"
    player_anonymise(player=her, user=organiser, reason="wniosek")
    with pytest.raises(ValidationError, match="already been anonymised"):
        player_anonymise(player=Player.objects.get(pk=her.pk), user=organiser, reason="wniosek")


def test_the_screen_asks_for_a_reason_and_a_confirmation(client, world):
    her = world["her"]
    client.force_login(world["organiser"])
    url = reverse("privacy:anonymise", args=[her.pk])
    assert NAME in client.get(url).content.decode()
    refused = client.post(url, {"reason": "wniosek"})  # not confirmed
    assert refused.status_code == 200 and not Anonymisation.objects.exists()
    done = client.post(url, {"reason": "wniosek", "confirm": "on"})
    assert done.status_code == 302 and Anonymisation.objects.get().player_id == her.pk
    page = client.get(url).content.decode()
    assert "cannot be undone" in page and 'id="anonymise-form"' not in page


@pytest.mark.parametrize("view", ["privacy:anonymise", "privacy:data_json", "privacy:data_pdf"])
def test_an_organiser_of_another_league_may_neither_anonymise_nor_export_her(client, world, view):
    client.force_login(league_organiser(LeagueFactory()))
    url = reverse(view, args=[world["her"].pk])
    assert client.get(url).status_code == 403
    if view == "privacy:anonymise":  # the downloads answer GET only
        assert client.post(url, {"reason": "x", "confirm": "on"}).status_code == 403
    assert not Anonymisation.objects.exists()
    client.logout()
    assert "/konto/logowanie/" in client.get(url)["Location"]
