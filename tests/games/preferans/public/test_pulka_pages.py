"""The public pages of a Preferans tournament: each table's pulka sheet and settlement, the series' tables."""

import pytest
from django.urls import reverse

from league.results import services
from scoring.preferans import keep_sheet, load_variant, settle
from tests.factories import PreferansTournamentFactory, RegistrationFactory, UserFactory, drawn_series

pytestmark = pytest.mark.django_db

MADE_BY_B = {"contract": "7H", "declarer": "B", "tricks": 7, "whisters": [{"player": "C", "tricks": 3}]}
FAILED_BY_C = {"contract": "8S", "declarer": "C", "tricks": 6, "whisters": [{"player": "A", "tricks": 4}]}


def unwhisted(count, seats="ABCD"):
    """``count`` sixes nobody whisted, each declared by the dealer's left neighbour."""
    return [{"contract": "6S", "declarer": seats[(k + 1) % len(seats)]} for k in range(count)]


def played_pulka(entries, *, table_size=4, tables=1, status="closed", results_published=True, **tournament):
    """A published Preferans series whose every table entered ``entries``, then closed (or not)."""
    referee = UserFactory()
    tournament = PreferansTournamentFactory(draw_published=True, table_size=table_size, **tournament)
    tournament.referees.add(referee)
    series = drawn_series(tournament, tables=tables)
    for assignment in series.assignments.all():
        RegistrationFactory(tournament=tournament, player=assignment.player)
    for protocol in series.protocols.all():
        for number, entry in enumerate(entries, start=1):
            protocol = services.protocol_row_save(
                protocol=protocol, number=number, deal=entry, expected_version=protocol.version, user=referee
            )
    series.status, series.results_published = status, results_published
    series.save()
    return series


def table_url(series, table=1):
    return reverse("public:table", args=[series.tournament.slug, series.number, table])


def series_url(series):
    return reverse("public:series", args=[series.tournament.slug, series.number])


def settled(entries, seats):
    sheet = keep_sheet(players=seats, variant=load_variant("sochi"), total=10, entries=entries, closed=True)
    return settle(sheet).balance


def names_at(series, table=1):
    return dict(series.assignments.filter(table=table).values_list("seat", "player__last_name"))


@pytest.mark.parametrize(("table_size", "seats"), [(4, "ABCD"), (3, "ABC")])
def test_the_table_page_of_a_closed_series_shows_the_names_the_sheet_and_the_settled_whists(client, table_size, seats):
    entries = [MADE_BY_B, FAILED_BY_C]
    series = played_pulka(entries, table_size=table_size)

    page = client.get(table_url(series), HTTP_ACCEPT_LANGUAGE="pl")

    assert page.status_code == 200
    html = page.content.decode()
    assert all(name in html for name in names_at(series).values())
    assert len(page.context["names"]) == table_size
    assert "7 kier ♥" in html and "8 pik ♠" in html
    balance = settled(entries, tuple(seats))
    assert {seat.seat: seat.small_points for seat in page.context["seats"]} == balance
    for points in balance.values():
        assert f"{points:+d}".replace("-", "−") in html


def test_a_played_out_pulka_shows_its_settlement(client):
    series = played_pulka(unwhisted(6, "ABC"), table_size=3, pulka_total=4)

    page = client.get(table_url(series), HTTP_ACCEPT_LANGUAGE="pl")

    assert page.context["pulka"].settlement is not None
    assert "pulka-settlement" in page.content.decode()


@pytest.mark.parametrize(("status", "published"), [("closed", False), ("in_play", True)])
def test_a_pulka_whose_results_are_not_published_is_not_shown(client, status, published):
    series = played_pulka([MADE_BY_B], status=status, results_published=published)

    assert client.get(table_url(series)).status_code == 404
    page = client.get(series_url(series)).content.decode()
    assert reverse("public:table", args=[series.tournament.slug, 1, 1]) not in page


def test_a_draft_tournaments_pulka_is_not_shown(client):
    series = played_pulka([MADE_BY_B], published=False)
    assert client.get(table_url(series)).status_code == 404


def test_the_series_page_names_the_rules_and_shows_three_players_with_whists_and_big_points(client):
    entries = [MADE_BY_B, FAILED_BY_C]
    series = played_pulka(entries, table_size=3)

    page = client.get(series_url(series), HTTP_ACCEPT_LANGUAGE="pl")

    html = page.content.decode()
    assert "Preferans, Sochi (z pomocą), pulka do 10" in html
    [table] = page.context["tables"]
    assert [seat.seat for seat in table.seats] == ["A", "B", "C"]
    balance = settled(entries, ("A", "B", "C"))
    assert {seat.seat: seat.small_points for seat in table.seats} == balance
    # the variant's places at a table of three: 2, 1, 0
    assert sorted(seat.big_points for seat in table.seats) == [0, 1, 2]
    assert "rozliczone wisty" in html


# the tournament's state (the tournament, its standings' stamp, its series: the page is kept ready
# on it), protocol, registrations, seats, totals, penalties, the pulka's rows and its seats, and the
# ratings' expected order (league.rating)
TABLE_PAGE = 11


@pytest.mark.parametrize("entries", [2, 12])
def test_the_table_page_takes_the_same_queries_for_a_short_and_a_long_pulka(
    client, entries, django_assert_max_num_queries
):
    series = played_pulka(unwhisted(entries), pulka_total=50, tables=3)

    with django_assert_max_num_queries(TABLE_PAGE):
        page = client.get(table_url(series, 2))

    assert len(page.context["pulka"].lines) == entries
