"""The plain-rows base's own rules, on the test game: what a wrong row, a wrong file and a table of
three get, and what its pages cost in queries however many rows a protocol holds."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from league.exchange import ExchangeError, export_tournament, import_tournament
from league.models import Tournament
from league.results import services
from tests.factories import (
    PreferansTournamentFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    drawn_series,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def protocol(zero_game):
    series = drawn_series(TournamentFactory(game="zero", ruleset_preset="gorzow", deals_per_series=24))
    for assignment in series.assignments.all():
        RegistrationFactory(tournament=series.tournament, player=assignment.player)
    return series.protocols.get()


def rows_entered(protocol, count: int, user):
    for number in range(protocol.rows.count() + 1, count + 1):
        protocol = services.protocol_row_save(
            protocol=protocol,
            number=number,
            deal={"values": {"A": number, "B": -number, "C": 0, "D": 0}},
            expected_version=protocol.version,
            user=user,
        )
    return protocol


def test_a_row_that_does_not_sum_to_zero_is_refused_in_polish_and_nothing_is_stored(client, protocol):
    referee = UserFactory()
    protocol.series.tournament.referees.add(referee)
    client.force_login(referee)
    url = reverse("results:protocol", args=[protocol.series.tournament.slug, 1, 1])
    data = {"number": 1, "version": protocol.version, "row-A": 5, "row-B": -2, "row-C": 0, "row-D": 0}
    page = client.post(url, data, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Wartości muszą sumować się do zera; ich suma wynosi 3." in page
    assert protocol.rows.count() == 0


def test_a_preferans_tournament_of_three_cannot_become_a_game_of_four(client, organiser, zero_game):
    tournament = PreferansTournamentFactory(table_size=3)
    tournament.organisers.add(organiser)
    data = {
        "game": "zero",
        "name": tournament.name,
        "date": "2026-12-05",
        "series_count": 2,
        "deals_per_series": 8,
        "team_ranking": "sum",
        "team_best_of": 3,
    }
    with translation.override("pl"):
        page = client.post(reverse("tournaments:update", args=[tournament.slug]), data, HTTP_ACCEPT_LANGUAGE="pl")
    assert "W grę Zero gra się we czterech przy stoliku." in page.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).game == "preferans"


def test_a_file_s_wrong_row_is_named_by_its_place_and_nothing_is_imported(protocol):
    rows_entered(protocol, 2, UserFactory())
    exported = export_tournament(protocol.series.tournament)
    exported["tournament"]["slug"] = "another"
    exported["tournament"].pop("tournament_id")
    exported["series"][0]["tables"][0]["deals"][1]["values"]["D"] = 7
    with pytest.raises(ExchangeError) as refused:
        import_tournament(exported)
    assert refused.value.path == "series[0].tables[0].deals[1].values"
    assert not Tournament.objects.filter(slug="another").exists()


BUDGETS = {"referee": 6, "phone": 5}  # the rows, the seats, the session and the roles; the penalties


@pytest.mark.parametrize("page", ["referee", "phone"])
def test_a_protocol_page_costs_the_same_queries_with_1_or_24_rows(client, protocol, page):
    referee = UserFactory()
    protocol.series.tournament.referees.add(referee)
    client.force_login(referee)
    args = [protocol.series.tournament.slug, 1, 1]
    if page == "phone":
        client.post(reverse("table:pin", args=args), {"pin": protocol.pin, "seat": "A"})
    url = reverse("results:protocol" if page == "referee" else "table:protocol", args=args)
    counts = []
    for rows in (1, 24):
        protocol = rows_entered(protocol, rows, referee)
        client.get(url)  # the session and the caches settle
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= BUDGETS[page], counts
