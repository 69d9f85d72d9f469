"""A league's organisers manage its tournaments and seasons, though not named in them; the
forms offer only the leagues a user organises; another league's organiser gets nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from league.models import Tournament
from tests.factories import LeagueFactory, SeasonFactory, TournamentFactory, UserFactory, tournament_form_data

pytestmark = pytest.mark.django_db


def organiser(username: str):
    user = UserFactory(username=username)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def world():
    ewa, jan, ola = organiser("ewa"), organiser("jan"), organiser("ola")
    pucka, kociewie = LeagueFactory(name="Liga Pucka"), LeagueFactory(name="Liga Kociewia")
    pucka.organisers.add(ewa, jan)
    kociewie.organisers.add(ola)
    draft = TournamentFactory(name="Turniej w Pucku", published=False, league=pucka)
    draft.organisers.add(ewa)
    season = SeasonFactory(league=pucka)
    season.organisers.add(ewa)
    return {"ewa": ewa, "jan": jan, "ola": ola, "pucka": pucka, "kociewie": kociewie, "draft": draft, "season": season}


def test_a_league_organiser_manages_its_draft_and_season_and_another_league_organiser_is_refused(client, world):
    pages = [
        reverse("tournaments:detail", args=[world["draft"].slug]),
        reverse("tournaments:registrations", args=[world["draft"].slug]),
        reverse("seasons:edit", args=[world["season"].slug]),
        reverse("public:tournament", args=[world["draft"].slug]),
    ]
    client.force_login(world["jan"])
    assert [client.get(url).status_code for url in pages] == [200, 200, 200, 200]
    assert world["draft"].name in client.get(reverse("tournaments:list")).content.decode()

    client.force_login(world["ola"])
    assert [client.get(url).status_code for url in pages] == [403, 403, 403, 404]


def test_the_tournament_form_offers_only_the_users_leagues_and_stores_the_league_and_start_time(client, world):
    client.force_login(world["ola"])
    page = client.get(reverse("tournaments:create")).content.decode()
    assert "Liga Kociewia" in page and "Liga Pucka" not in page

    data = tournament_form_data(name="Kociewski Turniej", league=world["pucka"].pk, start_time="10:30")
    refused = client.post(reverse("tournaments:create"), data)
    assert refused.status_code == 200 and not Tournament.objects.filter(name="Kociewski Turniej").exists()

    data["league"] = world["kociewie"].pk
    client.post(reverse("tournaments:create"), data)
    made = Tournament.objects.get(name="Kociewski Turniej")
    assert (made.league, made.start_time.isoformat()) == (world["kociewie"], "10:30:00")


def test_the_season_form_puts_a_season_in_the_users_league_and_its_history_names_the_league(client, world):
    client.force_login(world["ola"])
    data = {"name": "Sezon Kociewia", "year": 2026, "scheme": "big", "league": world["kociewie"].pk}
    client.post(reverse("seasons:create"), data)
    season = world["kociewie"].seasons.get()
    assert season.history.get().new["league"] == "Liga Kociewia"

    client.force_login(world["jan"])  # organises the other league only
    assert client.get(reverse("seasons:edit", args=[season.slug])).status_code == 403


def test_the_league_screen_adds_an_organiser_by_user_name_and_refuses_an_unknown_one(client, world):
    client.force_login(world["ola"])
    url = reverse("leagues:organiser_add", args=[world["kociewie"].slug])

    page = client.post(url, {"username": "nikt"})
    assert "No account has this user name." in page.content.decode()
    client.post(url, {"username": "jan"})

    assert set(world["kociewie"].organisers.values_list("username", flat=True)) == {"ola", "jan"}
    client.force_login(world["jan"])
    assert client.get(reverse("tournaments:create")).content.decode().count("Liga Kociewia") == 1
