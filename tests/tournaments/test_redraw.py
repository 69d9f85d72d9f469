"""Drawing one series again: it first says what it makes wrong, takes the typed seed, and can be
undone back to the draw before it (with its PINs, so the printed sheets are right again) while no
deal is played; the draw page then offers publishing the draw as the next step."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from league.models import DrawLog, Series
from league.printing.models import PrintJob
from league.results.models import PhoneContact
from league.tournaments import draws, selectors
from tests.factories import UserFactory, register_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(tournament):
    """Series 1 of 4 teams drawn with seed 111111 (4 tables)."""
    register_teams(tournament, teams=4)
    draws.series_draw(tournament=tournament, numbers=[1], seed=111111)
    return tournament.series.get(number=1)


def seating_and_pins(series):
    return selectors.series_seating(series=series), sorted(series.protocols.values_list("table", "pin", "table_token"))


def redraw_url(series):
    return reverse("tournaments:redraw", args=[series.tournament.slug, series.number])


def test_undoing_a_redraw_brings_back_the_tables_byes_seed_pins_and_table_links(drawn):
    before = seating_and_pins(drawn)
    draws.series_draw(tournament=drawn.tournament, numbers=[1], seed=222222)
    drawn.refresh_from_db()
    assert seating_and_pins(drawn) != before

    draws.series_redraw_undo(series=drawn, user=UserFactory())

    drawn.refresh_from_db()
    assert seating_and_pins(drawn) == before
    assert drawn.seed == 111111
    assert drawn.draw_logs.first().action == DrawLog.Action.UNDO


def test_a_redraw_cannot_be_undone_once_a_deal_is_played_after_a_swap_or_twice(drawn):
    draws.series_draw(tournament=drawn.tournament, numbers=[1], seed=222222)
    draws.series_redraw_undo(series=drawn)
    with pytest.raises(ValidationError, match="no redraw to undo"):
        draws.series_redraw_undo(series=drawn)  # undone already: there is no redo

    draws.series_draw(tournament=drawn.tournament, numbers=[1], seed=333333)
    a, b = (seat.player for seat in drawn.assignments.filter(table=1).select_related("player")[:2])
    draws.series_swap(series=drawn, player_a=a, player_b=b, allow_repeats=True)
    assert draws.undoable_redraws(series=drawn.tournament.series.all()) == {}  # the swap came after the redraw

    draws.series_draw(tournament=drawn.tournament, numbers=[1], seed=444444)
    Series.objects.filter(pk=drawn.pk).update(results_entered=True)  # a deal saved at a table
    with pytest.raises(ValidationError, match="already has results"):
        draws.series_redraw_undo(series=drawn)


def test_redrawing_an_unpublished_unprinted_series_takes_the_typed_seed_without_asking(client, drawn):
    page = client.get(redraw_url(drawn)).content.decode()
    assert "This makes wrong" not in page

    response = client.post(redraw_url(drawn), {"seed": "686893"})

    assert response.status_code == 302
    drawn.refresh_from_db()
    assert drawn.seed == 686893


def test_redrawing_a_published_printed_series_says_what_becomes_wrong_and_waits_for_a_yes(client, drawn):
    tournament = drawn.tournament
    tournament.draw_published = True
    tournament.save()
    PrintJob.objects.create(series=drawn, kind=PrintJob.Kind.PROTOCOLS)
    PhoneContact.objects.create(protocol=drawn.protocols.get(table=2), grant="g", seen_at=timezone.now())
    a, b = (seat.player for seat in drawn.assignments.filter(table=1).select_related("player")[:2])
    draws.series_swap(series=drawn, player_a=a, player_b=b, reason="wózek", allow_repeats=True)
    before = seating_and_pins(drawn)

    page = client.get(redraw_url(drawn)).content.decode()
    assert "players may already have seen their tables" in page
    assert "the printed table protocols to play with" in page
    assert "1 table opened on a phone with the old PIN" in page
    assert f"{a.full_name} ↔ {b.full_name} — wózek" in page

    refused = client.post(redraw_url(drawn), {"seed": "686893"})
    assert refused.status_code == 400
    assert seating_and_pins(drawn) == before

    client.post(redraw_url(drawn), {"seed": "686893", "confirm": "on"})
    drawn.refresh_from_db()
    assert drawn.seed == 686893
    assert seating_and_pins(drawn) != before


def test_the_draw_page_offers_to_restore_the_previous_draw_and_the_button_does(client, drawn):
    before = seating_and_pins(drawn)
    client.post(redraw_url(drawn), {"seed": "686893"})
    page = client.get(reverse("tournaments:draw", args=[drawn.tournament.slug])).content.decode()
    assert "Restore the previous draw (seed 111111)" in page

    client.post(reverse("tournaments:redraw_undo", args=[drawn.tournament.slug, 1]))

    assert seating_and_pins(drawn) == before
    page = client.get(reverse("tournaments:draw", args=[drawn.tournament.slug])).content.decode()
    assert "Restore the previous draw" not in page
    log = client.get(reverse("tournaments:draw_log", args=[drawn.tournament.slug])).content.decode()
    assert "The redraw with seed 686893 undone." in log
    assert "Replaced the draw with seed 111111." in log


def test_after_the_draw_the_draw_page_prompts_publishing_it_and_stays_there(client, drawn):
    url = reverse("tournaments:draw", args=[drawn.tournament.slug])
    assert "Next step: publish the draw" in client.get(url).content.decode()

    response = client.post(reverse("tournaments:publish", args=[drawn.tournament.slug]), {"next": "draw"})

    assert response.url == url
    drawn.tournament.refresh_from_db()
    assert drawn.tournament.draw_published
    assert "Next step: publish the draw" not in client.get(url).content.decode()


def test_before_any_draw_there_is_no_prompt_to_publish(client, tournament):
    register_teams(tournament, teams=4)
    page = client.get(reverse("tournaments:draw", args=[tournament.slug])).content.decode()
    assert "Next step: publish the draw" not in page
