"""The organiser's screens, end to end through the test client."""

import pytest
from django.urls import reverse

from league.models import DrawLog, Registration, Tournament
from players.models import Gender
from tests.factories import RegistrationFactory, TeamFactory, TournamentFactory, UserFactory, register_teams

pytestmark = pytest.mark.django_db


def test_an_organiser_runs_a_tournament_from_creation_to_a_swap(client, organiser):
    response = client.post(
        reverse("tournaments:create"),
        {
            "name": "Puchar Wójta",
            "date": "2026-03-14",
            "venue": "Puck",
            "ruleset_preset": "puck",
            "series_count": 3,
            "deals_per_series": 40,
            "team_ranking": "best",
            "team_best_of": 3,
            "uses_big_points": "on",
            "publish_individual": "on",
        },
    )
    tournament = Tournament.objects.get(slug="puchar-wojta")
    assert response.url == reverse("tournaments:detail", args=[tournament.slug])

    teams = [TeamFactory(members=4) for _ in range(10)]
    for team in teams:
        for member in team.memberships.all():
            client.post(reverse("tournaments:register", args=[tournament.slug]), {"player": member.player_id})
    for registration in tournament.registrations.all():
        client.post(reverse("tournaments:check_in", args=[tournament.slug, registration.pk]))
    assert tournament.registrations.filter(checked_in=True).exclude(team=None).count() == 40

    response = client.post(reverse("tournaments:draw", args=[tournament.slug]), {"action": "all", "seed": "424242"})
    assert response.status_code == 302
    page = client.get(reverse("tournaments:draw", args=[tournament.slug]))
    seat = tournament.series.get(number=2).assignments.select_related("player").first()
    assert seat.player.full_name in page.content.decode()
    assert "424242" in page.content.decode()

    series = tournament.series.get(number=1)
    a, b = teams[0].members.all()[:2]
    response = client.post(
        reverse("tournaments:swap", args=[tournament.slug, 1]),
        {"swap1-player_a": a.pk, "swap1-player_b": b.pk, "swap1-reason": "wheelchair access", "swap1-confirm": "True"},
    )
    assert response.status_code == 302
    assert DrawLog.objects.filter(series=series, action=DrawLog.Action.SWAP).exists()
    log = client.get(reverse("tournaments:draw_log", args=[tournament.slug]))
    assert "wheelchair access" in log.content.decode()


def test_a_refused_swap_shows_the_reason(client, tournament):
    register_teams(tournament, teams=4)
    client.post(reverse("tournaments:draw", args=[tournament.slug]), {"action": "next", "seed": "1"})
    series = tournament.series.get(number=1)
    teams = dict(tournament.registrations.values_list("player_id", "team_id"))
    first_table = list(series.assignments.filter(table=1).values_list("player_id", flat=True))
    # A teammate of the second player at table 1, sitting elsewhere, would join the first player's table.
    mate = next(
        player
        for player in series.assignments.exclude(table=1).values_list("player_id", flat=True)
        if teams[player] == teams[first_table[1]]
    )
    response = client.post(
        reverse("tournaments:swap", args=[tournament.slug, 1]),
        {"swap1-player_a": first_table[0], "swap1-player_b": mate},
    )
    assert response.status_code == 400
    assert "cannot sit at the same table" in response.content.decode()


def test_registration_search_finds_known_players_and_the_tick_answers_htmx(client, tournament):
    registration = RegistrationFactory(tournament=tournament, checked_in=False, player__last_name="Szulc")
    TeamFactory(members=1)
    response = client.get(reverse("tournaments:registrations", args=[tournament.slug]), {"q": "Kowalski"})
    assert response.status_code == 200 and "Kowalski" in response.content.decode()

    url = reverse("tournaments:check_in", args=[tournament.slug, registration.pk])
    response = client.post(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and f'hx-post="{url}"' in response.content.decode()
    assert Registration.objects.get(pk=registration.pk).checked_in


def test_quick_add_registers_a_newcomer(client, tournament):
    response = client.post(
        reverse("tournaments:quick_add", args=[tournament.slug]),
        {"first_name": "Anna", "last_name": "Kowalska", "gender": "F"},
    )
    assert response.status_code == 302
    assert tournament.registrations.get().player.full_name == "Anna Kowalska"


def test_withdrawal_between_series_is_saved(client, tournament):
    registration = RegistrationFactory(tournament=tournament)
    client.post(reverse("tournaments:withdraw", args=[tournament.slug, registration.pk]), {"after_series": "1"})
    registration.refresh_from_db()
    assert registration.withdrawn_after_series == 1


@pytest.mark.parametrize(
    ("gender", "flash", "badge"),
    [
        (Gender.WOMAN, "Anna Nowak wycofała się po serii 1.", "odeszła po serii 1"),
        (Gender.MAN, "Jan Nowak wycofał się po serii 1.", "odszedł po serii 1"),
    ],
)
def test_a_withdrawal_is_said_in_words_agreeing_with_the_players_gender(client, tournament, gender, flash, badge):
    first = "Anna" if gender == Gender.WOMAN else "Jan"
    registration = RegistrationFactory(
        tournament=tournament, player__first_name=first, player__last_name="Nowak", player__gender=gender
    )
    response = client.post(
        reverse("tournaments:withdraw", args=[tournament.slug, registration.pk]),
        {"after_series": "1"},
        HTTP_ACCEPT_LANGUAGE="pl",
        follow=True,
    )
    page = response.content.decode()
    assert flash in page and "Zapisano" not in page
    assert badge in page


@pytest.mark.parametrize("name", ["detail", "registrations", "draw", "draw_log"])
def test_anonymous_visitors_are_sent_to_log_in(client, name):
    tournament = TournamentFactory()
    response = client.get(reverse(f"tournaments:{name}", args=[tournament.slug]))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


@pytest.mark.parametrize("name", ["detail", "registrations", "draw", "draw_log"])
def test_a_user_who_does_not_organise_the_tournament_is_refused(client, name):
    client.force_login(UserFactory())
    response = client.get(reverse(f"tournaments:{name}", args=[TournamentFactory().slug]))
    assert response.status_code == 403


def test_a_non_organiser_cannot_draw(client):
    tournament = TournamentFactory()
    register_teams(tournament, teams=0, individuals=4)
    client.force_login(UserFactory())
    response = client.post(reverse("tournaments:draw", args=[tournament.slug]), {"action": "all"})
    assert response.status_code == 403
    assert not DrawLog.objects.exists()


def test_creating_a_tournament_needs_the_permission(client):
    client.force_login(UserFactory())
    assert client.get(reverse("tournaments:create")).status_code == 403


def test_the_tournament_list_shows_only_the_users_own_tournaments(client, tournament):
    other = TournamentFactory(name="Cudzy turniej")
    content = client.get(reverse("tournaments:list")).content.decode()
    assert tournament.name in content and other.name not in content
