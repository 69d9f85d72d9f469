"""The screens this stop added read the same few queries however many tables a series has."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.printing.test_documents import seated_tournament

pytestmark = pytest.mark.django_db

PAGES = [
    ("printing:pins", True, 7),
    ("tournaments:registrations", False, 7),  # the teams apart from the rows, which a filter may leave out
    ("tournaments:staff", False, 6),  # with the invitations not answered yet
    ("tournaments:detail", False, 9),  # with the earlier versions of its exchange file
    ("results:series", True, 8),  # with the referee's penalties and who may be penalised
]


@pytest.mark.parametrize("tables", [2, 8])
@pytest.mark.parametrize(("name", "per_series", "budget"), PAGES)
def test_a_page_of_the_day_costs_the_same_queries_for_2_or_8_tables(
    client, django_assert_max_num_queries, tables, name, per_series, budget
):
    tournament, _series = seated_tournament(tables)
    user = UserFactory()
    tournament.organisers.add(user)
    tournament.referees.add(user)
    client.force_login(user)
    url = reverse(name, args=[tournament.slug, 1] if per_series else [tournament.slug])
    client.get(url)  # the session and the caches settle

    with django_assert_max_num_queries(budget):
        assert client.get(url).status_code == 200
