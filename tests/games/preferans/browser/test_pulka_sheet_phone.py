"""The Preferans pulka sheet on a phone (issue 41): it needed four screen-widths at 390 px (1,444 px
in a 371 px box) and its deal numbers scrolled away with the rest. At 390 px the sheet is at most
two widths and its first column (the deal's number) stays in view as it scrolls; at 1366 px and in
print it is the paper's sheet as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from league.models import Series
from tests.browser.conftest import accessible, fits_the_screen, page  # noqa: F401  (the browser fixture)
from tests.factories import PreferansTournamentFactory, UserFactory, drawn_series, pulka_entered

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/pulka-sheet")
DEALS = [
    {"contract": "7S", "declarer": "B", "dealer": "A"},
    {"contract": "8H", "declarer": "C", "dealer": "B", "tricks": 7, "whisters": [{"player": "D", "tricks": 3}]},
    {
        "contract": "6C",
        "declarer": "D",
        "dealer": "C",
        "tricks": 6,
        "whisters": [{"player": "A", "tricks": 3}, {"player": "B", "tricks": 1}],
    },
    {"contract": "misere", "declarer": "A", "dealer": "D", "tricks": 1},
]


def test_the_pulka_sheet_fits_two_phone_widths_and_keeps_the_deal_number_in_view(page, live_server):  # noqa: F811
    tournament = PreferansTournamentFactory(draw_published=True, published=True)
    series = drawn_series(tournament, tables=1, status=Series.Status.IN_PLAY)
    protocol = pulka_entered(series.protocols.get(), DEALS, UserFactory())
    series.status, series.results_published = Series.Status.CLOSED, True
    series.save()

    page.goto(live_server.url + reverse("public:table", args=[tournament.slug, 1, protocol.table]))
    box = page.locator(".pulka-scroll").first
    sheet = box.locator("table.pulka-sheet")
    width = page.viewport_size["width"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"table-{width}.png"), full_page=True)
    assert fits_the_screen(page)
    if width == 390:
        assert sheet.evaluate("t => t.scrollWidth") <= 2 * box.evaluate("b => b.clientWidth")
        first = sheet.locator("tbody tr").first.locator("td").first
        before = first.bounding_box()["x"]
        box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        assert abs(first.bounding_box()["x"] - before) < 2, "the deal's number scrolled away"
        page.screenshot(path=str(SHOTS / f"table-scrolled-{width}.png"), full_page=True)
    accessible(page)
