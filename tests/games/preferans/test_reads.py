"""No page of a Preferans tournament writes when it is only read (GET): the referee's, the
phone's, the hall's, the printed and the public ones, while the series is played and once closed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Series
from tests.factories import PreferansTournamentFactory, RegistrationFactory, UserFactory, drawn_series, pulka_entered
from tests.test_permission_matrix import snapshot

pytestmark = pytest.mark.django_db

ENTRIES = [
    {"contract": "7H", "declarer": "B", "tricks": 6, "whisters": [{"player": "C", "tricks": 4}]},
    {"contract": "6S", "declarer": "C"},
]


def pages(slug: str) -> list[str]:
    table = (slug, 1, 1)
    return [
        reverse("results:protocol", args=table),
        reverse("results:correct", args=(*table, 1)),
        reverse("results:history", args=table),
        reverse("results:series", args=(slug, 1)),
        reverse("hall:room", args=(slug, 1)),
        reverse("hall:tables", args=(slug, 1)),
        reverse("printing:index", args=(slug,)),
        reverse("printing:protocol", args=table),
        reverse("printing:archive", args=table),
        reverse("printing:blank_protocol", args=(slug,)),
        reverse("table:protocol", args=table),
        reverse("table:pulka_entry", args=(*table, 2)),
        reverse("public:tournament", args=(slug,)),
        reverse("public:standings", args=(slug,)),
        reverse("public:series", args=(slug, 1)),
        reverse("public:table", args=table),
        reverse("public:projector", args=(slug,)),
        reverse("pulka_calculator"),
    ]


@pytest.mark.parametrize("closed", [False, True], ids=["in play", "closed"])
def test_reading_every_page_of_a_preferans_table_changes_nothing(closed):
    tournament = PreferansTournamentFactory(published=True, draw_published=True)
    series = drawn_series(tournament, tables=1)
    for assignment in series.assignments.all():
        RegistrationFactory(tournament=tournament, player=assignment.player)
    referee = UserFactory()
    tournament.referees.add(referee)
    protocol = pulka_entered(series.protocols.get(), ENTRIES, referee)
    if closed:
        Series.objects.filter(pk=series.pk).update(status=Series.Status.CLOSED, results_published=True)
    reader = Client()
    reader.force_login(referee)
    reader.post(reverse("table:pin", args=(tournament.slug, 1, 1)), {"pin": protocol.pin, "seat": "A"})
    before = snapshot()

    answers = {url: reader.get(url).status_code for url in pages(tournament.slug)}

    assert snapshot() == before
    assert all(status < 500 for status in answers.values()), answers
