"""The organiser's season screens: who may create and change a season, attaching and
counting tournaments, errors in Polish next to the field, and the public season page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from league.models import Season, SeasonScheme
from league.standings.cache import refresh
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TournamentFactory,
    UserFactory,
    played_series,
)

pytestmark = pytest.mark.django_db


def organiser_user(username: str):
    user = UserFactory(username=username)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def me(client):
    user = organiser_user("ja")
    client.force_login(user)
    return user


@pytest.fixture
def my_season(me):
    season = SeasonFactory(
        name="Liga Kaszub", slug="liga-kaszub", year=2026, place_points=[100, 80, 60], team_place_points=[100, 80]
    )
    season.organisers.add(me)
    return season


@pytest.fixture
def their_season():
    season = SeasonFactory(name="Liga Kociewia", slug="liga-kociewia")
    season.organisers.add(organiser_user("oni"))
    return season


def tournament_of(user, **fields):
    tournament = TournamentFactory(**fields)
    tournament.organisers.add(user)
    return tournament


def settings_data(**changes) -> dict:
    """What the season's settings form posts."""
    return {
        "name": "Liga Kaszub",
        "slug": "liga-kaszub",
        "year": 2026,
        "scheme": SeasonScheme.BIG,
        "best_of": "",
        "place_points": "100; 80; 60",
        "team_place_points": "100; 80",
        **changes,
    }


# --- who may ------------------------------------------------------------------


def test_a_visitor_is_sent_to_log_in(client, my_season):
    client.logout()
    for url in (
        reverse("seasons:list"),
        reverse("seasons:create"),
        reverse("seasons:edit", args=[my_season.slug]),
    ):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    response = client.post(reverse("seasons:attach", args=[my_season.slug]), {"tournament": TournamentFactory().pk})
    assert response["Location"].startswith(reverse("login"))
    assert not my_season.tournaments.exists()


def test_a_user_who_may_not_create_tournaments_may_not_create_a_season(client):
    client.force_login(UserFactory())

    response = client.post(reverse("seasons:create"), settings_data())

    assert response.status_code == 403 and not Season.objects.exists()


def test_another_organiser_cannot_change_my_season(client, my_season, their_season):
    client.force_login(their_season.organisers.get())

    assert client.get(reverse("seasons:edit", args=[my_season.slug])).status_code == 403
    response = client.post(reverse("seasons:edit", args=[my_season.slug]), settings_data(name="Przejęta"))

    assert response.status_code == 403
    my_season.refresh_from_db()
    assert my_season.name == "Liga Kaszub"


def test_another_organiser_cannot_attach_their_tournament_to_my_season(client, my_season, their_season):
    theirs = tournament_of(their_season.organisers.get())
    client.force_login(their_season.organisers.get())

    response = client.post(reverse("seasons:attach", args=[my_season.slug]), {"tournament": theirs.pk})

    assert response.status_code == 403
    theirs.refresh_from_db()
    assert theirs.season is None


def test_i_cannot_attach_my_tournament_to_their_season(client, me, their_season):
    mine = tournament_of(me)

    response = client.post(reverse("seasons:attach", args=[their_season.slug]), {"tournament": mine.pk})

    assert response.status_code == 403
    mine.refresh_from_db()
    assert mine.season is None


def test_i_cannot_attach_a_tournament_i_do_not_organise(client, my_season):
    foreign = tournament_of(organiser_user("obcy"))

    response = client.post(
        reverse("seasons:attach", args=[my_season.slug]), {"tournament": foreign.pk}, headers={"accept-language": "pl"}
    )

    assert response.status_code == 200
    assert "Wybierz jeden ze swoich turniejów." in response.content.decode()
    foreign.refresh_from_db()
    assert foreign.season is None


def test_a_tampered_tournament_choice_is_refused_next_to_the_field(client, my_season):
    response = client.post(reverse("seasons:attach", args=[my_season.slug]), {"tournament": "1; DROP"})

    assert response.status_code == 200
    assert response.context["attach"].errors["tournament"] == ["Choose one of the tournaments you organise."]


def test_a_superuser_may_change_any_season(client, their_season):
    client.force_login(UserFactory(is_superuser=True))

    client.post(reverse("seasons:edit", args=[their_season.slug]), settings_data(slug=their_season.slug))

    their_season.refresh_from_db()
    assert their_season.name == "Liga Kaszub"


def test_the_list_shows_only_my_seasons(client, my_season, their_season):
    page = client.get(reverse("seasons:list")).content.decode()

    assert "Liga Kaszub" in page and "Liga Kociewia" not in page


# --- creating and changing ----------------------------------------------------


def test_creating_a_season_makes_me_its_organiser_and_a_resent_form_makes_no_second(client, me):
    data = settings_data(slug="", scheme=SeasonScheme.PLACES)
    first = client.post(reverse("seasons:create"), data)
    again = client.post(reverse("seasons:create"), data)

    season = Season.objects.get()
    assert first["Location"] == again["Location"] == reverse("seasons:edit", args=["liga-kaszub-2026"])
    assert list(season.organisers.all()) == [me]
    assert (season.scheme, season.place_points, season.team_place_points) == ("places", [100, 80, 60], [100, 80])
    (created,) = season.history.all()
    assert (created.action, created.user, created.new["scheme"]) == ("create", me, "places")


def test_a_slug_another_season_has_is_refused_next_to_the_field(client, me, their_season):
    response = client.post(
        reverse("seasons:create"), settings_data(slug=their_season.slug), headers={"accept-language": "pl"}
    )

    assert response.status_code == 200
    assert response.context["form"].errors["slug"] == ["Inny sezon ma już tę krótką nazwę; wybierz inną."]
    assert Season.objects.count() == 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("place_points", "100; dużo; 60", "„dużo” (miejsce 2) nie jest liczbą."),
        ("place_points", "100; -5", "Miejsce 2: punkty nie mogą być ujemne."),
        ("place_points", "60; 80", "Miejsce 2 dostaje więcej punktów niż miejsce przed nim."),
        ("place_points", "; ".join(["1e308"] * 8), "Miejsce 1: najwyżej 1000 punktów."),  # sums overflow
        ("place_points", "100; 1e400", "Miejsce 2: najwyżej 1000 punktów."),  # infinity as a float
        ("place_points", "", "Schemat PSB wymaga punktów za miejsca."),
        ("team_place_points", "100; x", "„x” (miejsce 2) nie jest liczbą."),
        ("best_of", "0", "Upewnij się, że ta wartość jest większa lub równa 1."),
    ],
)
def test_a_wrong_setting_is_explained_in_polish_next_to_its_field(client, my_season, field, value, message):
    data = settings_data(scheme=SeasonScheme.PLACES, **{field: value})

    response = client.post(reverse("seasons:edit", args=[my_season.slug]), data, headers={"accept-language": "pl"})

    assert response.status_code == 200
    assert response.context["form"].errors[field] == [message]
    my_season.refresh_from_db()
    assert my_season.scheme == SeasonScheme.BIG


def test_points_are_typed_with_a_decimal_comma_and_shown_with_one(client, my_season):
    data = settings_data(scheme=SeasonScheme.PLACES, place_points="100; 80,5; 60.25\n40")

    client.post(reverse("seasons:edit", args=[my_season.slug]), data)

    my_season.refresh_from_db()
    assert my_season.place_points == [100, 80.5, 60.25, 40]
    page = client.get(reverse("seasons:edit", args=[my_season.slug]), headers={"accept-language": "pl"})
    assert "100; 80,5; 60,25; 40" in page.content.decode()


def test_a_new_season_is_offered_the_psb_example_tables(client, me):
    page = client.get(reverse("seasons:create"), headers={"accept-language": "pl"})

    players, teams = (page.context["form"][name].value().split("; ") for name in ("place_points", "team_place_points"))
    assert (len(players), players[:3], players[24], players[-1]) == (50, ["100", "90", "80"], "25", "0,5")
    assert (len(teams), teams[2]) == (15, "80")
    assert "Podana tabela to przykład" in page.content.decode()


def test_every_change_is_kept_with_who_what_it_was_and_why_and_shown_on_the_page(client, me, my_season):
    edit = reverse("seasons:edit", args=[my_season.slug])
    data = settings_data(scheme=SeasonScheme.SMALL, best_of=3, reason="ustalenia zebrania zarządu")
    client.post(edit, data)
    client.post(edit, data)  # resent: nothing changes, nothing is recorded

    (change,) = my_season.history.filter(action="change")
    assert change.user == me and change.reason == "ustalenia zebrania zarządu"
    assert (change.old, change.new) == ({"scheme": "big", "best_of": None}, {"scheme": "small", "best_of": 3})
    page = client.get(edit, headers={"accept-language": "pl"}).content.decode()
    assert "ustalenia zebrania zarządu" in page and "→ 3" in page


# --- tournaments of the season ------------------------------------------------


def test_attaching_counting_and_detaching_my_tournament(client, me, my_season):
    mine = tournament_of(me, name="Puchar Wójta")
    edit = reverse("seasons:edit", args=[my_season.slug])
    assert "Puchar Wójta" in client.get(edit).content.decode()

    client.post(reverse("seasons:attach", args=[my_season.slug]), {"tournament": mine.pk})
    resent = client.post(reverse("seasons:attach", args=[my_season.slug]), {"tournament": mine.pk})
    assert resent["Location"] == edit
    mine.refresh_from_db()
    assert mine.season == my_season and mine.counts_for_season

    client.post(reverse("seasons:counts", args=[my_season.slug, mine.pk]), {})
    client.post(reverse("seasons:counts", args=[my_season.slug, mine.pk]), {})  # resent: still not counting
    mine.refresh_from_db()
    assert not mine.counts_for_season
    client.post(reverse("seasons:counts", args=[my_season.slug, mine.pk]), {"counts": "on"})
    mine.refresh_from_db()
    assert mine.counts_for_season

    client.post(reverse("seasons:detach", args=[my_season.slug, mine.pk]))
    response = client.post(reverse("seasons:detach", args=[my_season.slug, mine.pk]))  # resent
    assert response.status_code == 302
    mine.refresh_from_db()
    assert mine.season is None
    # attached, not counted, counted, detached: four entries of the season's history
    assert list(my_season.history.values_list("action", flat=True)) == ["detach", "count", "count", "attach"]


def test_a_tournament_of_another_season_moves_only_after_the_organiser_confirms(client, me, my_season):
    other = SeasonFactory(name="Liga Kociewia 2025", slug="liga-kociewia-2025")
    other.organisers.add(me)
    mine = tournament_of(me, name="Puchar Wójta", season=other)
    attach = reverse("seasons:attach", args=[my_season.slug])

    asked = client.post(attach, {"tournament": mine.pk}, headers={"accept-language": "pl"})

    page = asked.content.decode()
    assert "należy do sezonu Liga Kociewia 2025" in page and "Przenieś do tego sezonu" in page
    mine.refresh_from_db()
    assert mine.season == other and not my_season.history.exists()
    client.post(attach, {"tournament": mine.pk, "move": "True"})
    mine.refresh_from_db()
    assert mine.season == my_season


def test_a_small_points_season_mixing_rules_warns_with_their_names(client, me, my_season):
    my_season.scheme = SeasonScheme.SMALL
    my_season.save()
    client.post(
        reverse("seasons:attach", args=[my_season.slug]), {"tournament": tournament_of(me, ruleset_preset="puck").pk}
    )
    edit = reverse("seasons:edit", args=[my_season.slug])
    assert 'id="mixed-rules"' not in client.get(edit).content.decode()

    answer = client.post(
        reverse("seasons:attach", args=[my_season.slug]),
        {"tournament": tournament_of(me, ruleset_preset="psb").pk},
        headers={"accept-language": "pl"},
        follow=True,
    )

    page = answer.content.decode()
    assert 'id="mixed-rules"' in page
    assert "Baśka z asem (przepisy ogólne)" in page and "różnych przepisów" in page


# --- the public season page -----------------------------------------------------


def psb_tournament(season, people, values):
    """A published psb tournament of the season (small points only), one closed series of one table."""
    tournament = TournamentFactory(season=season, ruleset_preset="psb", uses_big_points=False)
    for player in people:
        RegistrationFactory(tournament=tournament, player=player)
    played_series(tournament, 1, [list(zip(people, values, strict=True))])
    refresh(tournament.pk)
    return tournament


@pytest.fixture
def played_season(my_season):
    """Three tournaments of four players: A +178, −100, +50; B +40, +60, +30 (never first)."""
    people = [PlayerFactory(first_name=name, last_name=name) for name in "ABCD"]
    for values in [(178, 40, -100, -118), (-100, 60, 100, -60), (50, 30, -40, -40)]:
        psb_tournament(my_season, people, values)
    return my_season


def individual(client, season):
    page = client.get(reverse("public:season", args=[season.slug]))
    return [
        (row["name"], row["big_points"], row["small_points"]) for row in page.context["rankings"][0].table.data.data
    ]


def test_switching_the_scheme_changes_the_public_table(client, played_season):
    # big points summed, but these tournaments have none: small points alone rank
    assert individual(client, played_season)[:2] == [("B B", 0, 130), ("A A", 0, 128)]

    client.post(
        reverse("seasons:edit", args=[played_season.slug]),
        settings_data(scheme=SeasonScheme.PLACES, place_points="100; 80; 60; 40"),
    )

    # A: 100 + 0 (negative) + 100; B: 80 + 80 (2nd behind C's +100) + 80
    assert individual(client, played_season)[:2] == [("B B", 240, 130), ("A A", 200, 128)]


def test_the_season_page_says_how_it_counts_in_polish(client, played_season):
    played_season.scheme = SeasonScheme.PLACES
    played_season.place_points = [100, 90, 80, 70, 0.5]
    played_season.best_of = 2
    played_season.save()

    page = client.get(reverse("public:season", args=[played_season.slug]), headers={"accept-language": "pl"})

    sentence = page.context["scheme"]
    assert sentence.startswith(
        "Sezon liczony według punktów za miejsca (PSB): "
        "1. miejsce 100 pkt, 2. miejsce 90 pkt, 3. miejsce 80 pkt, …, 5. miejsce 0,5 pkt"
    )
    assert "liczą się 2 najlepsze wyniki" in sentence and "turniejów w sezonie: 3" in sentence
    # each player's best 2 of 3 tournaments count, and the table says so
    assert [row["counted"] for row in page.context["rankings"][0].table.data.data][:2] == [2, 2]


@pytest.mark.parametrize(
    ("scheme", "sentence"),
    [
        (SeasonScheme.SMALL, "Sezon sumuje małe punkty swoich turniejów."),
        (SeasonScheme.BIG, "Sezon sumuje duże punkty swoich turniejów, przy równej liczbie decydują małe punkty."),
    ],
)
def test_the_season_page_names_the_other_schemes(client, my_season, scheme, sentence):
    my_season.scheme = scheme
    my_season.save()

    page = client.get(reverse("public:season", args=[my_season.slug]), headers={"accept-language": "pl"})

    assert sentence in page.content.decode()


def test_the_public_season_page_of_three_tournaments_keeps_to_its_query_budget(
    client, played_season, django_assert_max_num_queries
):
    client.logout()  # a visitor
    client.get(reverse("public:season", args=[played_season.slug]))  # the season's tables cached

    # the season, its counted tournaments and their stamps (for the cache key), the list of its tournaments
    with django_assert_max_num_queries(5):
        page = client.get(reverse("public:season", args=[played_season.slug]))

    assert page.status_code == 200
