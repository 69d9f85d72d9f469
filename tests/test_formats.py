"""Dates and numbers as Polish clubs write them: 05.12.2026, 2,5."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import formats, translation

from tests.public.test_pages import league_tournament

pytestmark = pytest.mark.django_db


def test_the_public_pages_write_the_date_with_dots(client):
    tournament = league_tournament(tables=1, series=1, date=datetime.date(2026, 12, 5))
    for url in (reverse("home"), reverse("public:tournament", args=[tournament.slug])):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
        assert "05.12.2026" in page and "grudnia" not in page, url


@pytest.mark.parametrize(
    ("value", "fmt", "written"),
    [
        (datetime.date(2026, 3, 14), "DATE_FORMAT", "14.03.2026"),
        (datetime.date(2026, 3, 14), "SHORT_DATE_FORMAT", "14.03.2026"),
        (datetime.datetime(2026, 3, 14, 18, 5), "SHORT_DATETIME_FORMAT", "14.03.2026 18:05"),
    ],
)
def test_polish_date_formats(value, fmt, written):
    with translation.override("pl"):
        assert formats.date_format(value, fmt) == written


def test_polish_numbers_have_a_decimal_comma():
    with translation.override("pl"):
        assert formats.number_format(2.5, 1) == "2,5"
