"""The table scorer's phone pages: PIN access, entry, stale saves, closing and confirmation."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session
from django.core.exceptions import NON_FIELD_ERRORS
from django.test import Client
from django.urls import reverse

import scoring
from league.games.baska.settings import tournament_ruleset
from league.models import Series, TableAssignment
from league.results import services
from league.results.models import DealRowVersion, Protocol
from league.results.table import pin
from tests.factories import PlayerFactory, TournamentFactory, UserFactory, table_protocols

pytestmark = pytest.mark.django_db


@pytest.fixture
def series() -> Series:
    """Series 1 in play with two tables of four (puck rules, two deals per series)."""
    tournament = TournamentFactory(deals_per_series=2)
    series = Series.objects.create(tournament=tournament, number=1, status=Series.Status.IN_PLAY)
    for table in (1, 2):
        for seat in scoring.SEATS:
            TableAssignment.objects.create(series=series, table=table, seat=seat, player=PlayerFactory())
    table_protocols(series)
    return series


@pytest.fixture
def protocol(series: Series) -> Protocol:
    return series.protocols.get(table=1)


def url(protocol: Protocol, name: str = "protocol", *args: int) -> str:
    series = protocol.series
    return reverse(f"table:{name}", args=[series.tournament.slug, series.number, protocol.table, *args])


def enter_pin(client: Client, protocol: Protocol, pin_value: str | None = None, seat: str = "A", *, by_hand=False):
    """The PIN typed on the page the QR code opened (with the table's token), or ``by_hand`` at the short address."""
    data = {"pin": pin_value or protocol.pin, "seat": seat}
    if not by_hand:
        data[pin.TOKEN_PARAM] = protocol.table_token
    return client.post(url(protocol, "pin"), data)


@pytest.fixture
def scorer(client: Client, protocol: Protocol) -> Client:
    """A phone let in at table 1 as the player at seat A."""
    assert enter_pin(client, protocol).status_code == 302
    return client


def save_line(client: Client, protocol: Protocol, line: str, number: int | None = None, version: int | None = None):
    protocol.refresh_from_db()
    data = {
        "number": number or protocol.rows.count() + 1,
        "version": protocol.version if version is None else version,
        "line": line,
    }
    return client.post(url(protocol, "save"), data)


def wrong_pin(protocol: Protocol) -> str:
    return "9999" if protocol.pin != "9999" else "0000"


# --- PIN ---------------------------------------------------------------------


def test_without_pin_the_page_asks_for_it_and_posts_are_refused(client, protocol):
    response = client.get(url(protocol))
    assert response.status_code == 200
    assert url(protocol, "pin") in response.content.decode()
    assert 'name="pin"' in response.content.decode()
    assert save_line(client, protocol, "ac60").status_code == 403
    assert not protocol.rows.exists()


def test_right_pin_opens_the_protocol_and_remembers_the_seat(client, protocol):
    response = enter_pin(client, protocol, seat="C")
    assert response.status_code == 302 and response.url == url(protocol)
    page = client.get(url(protocol))
    assert page.context["scorer"].seat == "C"
    assert 'id="deal-form"' in page.content.decode()


def test_wrong_pin_is_refused_and_tries_are_limited(client, protocol):
    for _ in range(pin.MAX_WRONG_TRIES):
        response = enter_pin(client, protocol, wrong_pin(protocol))
        assert response.status_code == 200
        assert response.context["form"].has_error("pin", "wrong")
    # Now even the right PIN is refused from this session (another phone has its own count).
    response = enter_pin(client, protocol)
    assert response.status_code == 403
    assert response.context["form"].has_error("pin", "locked")
    assert client.get(url(protocol)).context["form"] is not None  # still no access


def test_the_limit_is_per_protocol(client, series):
    first, second = series.protocols.order_by("table")
    for _ in range(pin.MAX_WRONG_TRIES):
        enter_pin(client, first, wrong_pin(first))
    assert enter_pin(client, second).status_code == 302


def test_the_limit_counts_per_address(protocol):
    for _ in range(pin.ADDRESS_MAX_WRONG_TRIES):
        enter_pin(Client(REMOTE_ADDR="10.0.0.1"), protocol, wrong_pin(protocol))
    assert enter_pin(Client(REMOTE_ADDR="10.0.0.1"), protocol).status_code == 403
    assert enter_pin(Client(REMOTE_ADDR="10.0.0.2"), protocol).status_code == 302


def test_a_pin_opens_only_its_own_table(scorer, series):
    other = series.protocols.get(table=2)
    response = scorer.get(url(other))
    assert 'name="pin"' in response.content.decode()
    assert "scorer" not in response.context
    assert save_line(scorer, other, "ac60").status_code == 403
    assert not other.rows.exists()


def test_a_changed_pin_ends_the_access(scorer, protocol):
    protocol.pin = "4321" if protocol.pin != "4321" else "1234"
    protocol.save()
    assert 'name="pin"' in scorer.get(url(protocol)).content.decode()


# --- entering deals -----------------------------------------------------------


def test_shorthand_line_stores_the_row_valued_by_scoring(scorer, protocol):
    response = save_line(scorer, protocol, "ac60")
    assert response.status_code == 302
    row = protocol.rows.get(number=1)
    deal = {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}
    expected = scoring.score_deal(deal, tournament_ruleset(protocol.series.tournament))
    assert row.deal == deal
    assert row.values == expected.values == {"A": 1, "B": -1, "C": 1, "D": -1}
    assert protocol.history.get().author == "stolik 1 (telefon), miejsce A"


def test_button_form_stores_the_row_valued_by_scoring(scorer, protocol):
    data = {
        "number": 1,
        "version": protocol.version,
        "full-contract": "zolo",
        "full-old": ["B"],
        "full-kontras": "m",
        "full-old_eyes": "70",
    }
    assert scorer.post(url(protocol, "save"), data).status_code == 302
    row = protocol.rows.get(number=1)
    assert row.deal == {"contract": "zolo", "old": ["B"], "kontras": ["young"], "old_eyes": 70}
    assert row.values == {"A": -10, "B": 30, "C": -10, "D": -10}  # puck: zolo with one kontra, 10 per opponent


def test_invalid_deal_is_explained_and_not_saved(scorer, protocol):
    response = save_line(scorer, protocol, "ac")
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert not protocol.rows.exists()


def test_preview_values_the_deal_without_saving(scorer, protocol):
    data = {"number": 1, "version": protocol.version, "line": "bd-"}
    fragment = scorer.post(url(protocol, "preview"), data, headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    assert fragment.context["preview"].values == {"A": 2, "B": -2, "C": 2, "D": -2}
    assert "<html" not in fragment.content.decode()
    page = scorer.post(url(protocol, "preview"), data)  # without JS: the whole page
    assert "<html" in page.content.decode() and page.context["preview"] is not None
    assert not protocol.rows.exists()


def test_stale_version_is_refused_and_shows_the_other_change(scorer, protocol):
    seen = protocol.version
    services.protocol_row_save(
        protocol=protocol,
        number=1,
        deal={"contract": "zwykla", "old": ["B", "D"], "old_eyes": 70},
        expected_version=seen,
        author="stolik 1 (telefon), miejsce C",
    )
    response = save_line(scorer, protocol, "ac60", number=2, version=seen)
    assert response.status_code == 200
    assert "Someone else changed this protocol" in response.content.decode()
    assert [change.author for change in response.context["changes"]] == ["stolik 1 (telefon), miejsce C"]
    assert protocol.rows.count() == 1
    # The page now carries the current version: saving again after a look succeeds.
    protocol.refresh_from_db()
    assert f'name="version" value="{protocol.version}"' in response.content.decode()
    assert save_line(scorer, protocol, "ac60").status_code == 302


def test_fix_and_delete_the_last_row(scorer, protocol):
    save_line(scorer, protocol, "ac60")
    edit = scorer.get(url(protocol, "edit", 1))
    assert edit.context["row_form"]["line"].value() == "ac60"
    assert save_line(scorer, protocol, "ac+bb", number=1).status_code == 302
    assert protocol.rows.get(number=1).values == {"A": 3, "B": -3, "C": 3, "D": -3}
    protocol.refresh_from_db()
    assert scorer.post(url(protocol, "delete", 1), {"version": protocol.version}).status_code == 302
    assert not protocol.rows.exists()
    actions = list(protocol.history.values_list("action", flat=True))
    assert actions == [DealRowVersion.Action.ADD, DealRowVersion.Action.CHANGE, DealRowVersion.Action.DELETE]


# --- closed series --------------------------------------------------------------


def test_closed_series_is_read_only(scorer, protocol):
    save_line(scorer, protocol, "ac60")
    Series.objects.filter(pk=protocol.series_id).update(status=Series.Status.CLOSED)
    page = scorer.get(url(protocol))
    content = page.content.decode()
    assert "only the referee can correct it" in content
    assert 'id="deal-form"' not in content
    assert save_line(scorer, protocol, "bd60", number=2).status_code == 403
    assert save_line(scorer, protocol, "bd60", number=1).status_code == 403
    assert scorer.post(url(protocol, "delete", 1), {"version": protocol.version}).status_code == 403
    assert protocol.rows.get().deal["old"] == ["A", "C"]


# --- end of the series ------------------------------------------------------------


def finish(client: Client, protocol: Protocol, totals: dict[str, int]):
    protocol.refresh_from_db()
    return client.post(url(protocol, "finish"), {"version": protocol.version, **totals})


def confirm(client: Client, protocol: Protocol, seat: str):
    protocol.refresh_from_db()
    return client.post(url(protocol, "confirm"), {"version": protocol.version, "seat": seat})


def test_totals_that_differ_from_the_rows_are_refused(scorer, protocol):
    save_line(scorer, protocol, "ac60")
    save_line(scorer, protocol, "ac60")
    response = finish(scorer, protocol, {"A": 3, "B": -3, "C": 3, "D": -3})
    assert "paper minus screen" in response.content.decode()
    protocol.refresh_from_db()
    assert protocol.status == Protocol.Status.OPEN


def test_complete_then_a_second_seat_confirms(scorer, protocol):
    save_line(scorer, protocol, "ac60")
    save_line(scorer, protocol, "ac60")
    assert finish(scorer, protocol, {"A": 2, "B": -2, "C": 2, "D": -2}).status_code == 302
    protocol.refresh_from_db()
    assert protocol.status == Protocol.Status.COMPLETE
    assert protocol.completed_by_seat == "A"
    # The scorer (seat A) may not confirm their own protocol ...
    refused = confirm(scorer, protocol, "A")
    assert refused.context["confirm_form"].has_error(NON_FIELD_ERRORS, "same_grant")
    assert "Seat A marked the protocol complete" in refused.content.decode()
    protocol.refresh_from_db()
    assert protocol.status == Protocol.Status.COMPLETE
    # ... a player at another seat does, on their own phone.
    other_phone = Client()
    enter_pin(other_phone, protocol, seat="C")
    assert confirm(other_phone, protocol, "C").status_code == 302
    protocol.refresh_from_db()
    assert protocol.status == Protocol.Status.CONFIRMED
    assert protocol.confirmed_by_seat == "C" and protocol.confirmed_at is not None
    assert "Only a referee may change" in save_line(scorer, protocol, "ac60", number=1).content.decode()


def test_the_completing_seat_cannot_confirm_from_another_phone(scorer, protocol):
    save_line(scorer, protocol, "ac60")
    save_line(scorer, protocol, "ac60")
    finish(scorer, protocol, {"A": 2, "B": -2, "C": 2, "D": -2})
    other_phone = Client()
    assert enter_pin(other_phone, protocol, seat="A").status_code == 302
    page = other_phone.get(url(protocol)).content.decode()
    assert "Seat A marked the protocol complete." in page
    assert url(protocol, "pin") in page  # the way to enter the PIN again with one's own seat
    assert confirm(other_phone, protocol, "A").context["confirm_form"].has_error(NON_FIELD_ERRORS, "same_seat")
    protocol.refresh_from_db()
    assert protocol.status == Protocol.Status.COMPLETE
    assert enter_pin(other_phone, protocol, seat="B").status_code == 302
    assert confirm(other_phone, protocol, "B").status_code == 302


def complete_on(phone: Client, protocol: Protocol) -> None:
    save_line(phone, protocol, "ac60")
    save_line(phone, protocol, "ac60")
    assert finish(phone, protocol, {"A": 2, "B": -2, "C": 2, "D": -2}).status_code == 302


def test_the_phone_that_completed_cannot_confirm_as_another_seat(scorer, protocol):
    complete_on(scorer, protocol)
    page = scorer.get(url(protocol)).content.decode()
    assert "on their own phone" in page and 'action="' + url(protocol, "confirm") not in page
    refused = confirm(scorer, protocol, "C")
    assert refused.status_code == 200 and refused.context["confirm_form"].has_error(NON_FIELD_ERRORS, "same_grant")
    # Entering the PIN again as another seat does not make this phone a second player.
    assert enter_pin(scorer, protocol, seat="C").status_code == 302
    assert confirm(scorer, protocol, "C").context["confirm_form"].has_error(NON_FIELD_ERRORS, "same_grant")
    protocol.refresh_from_db()
    assert protocol.status == Protocol.Status.COMPLETE and protocol.confirmed_by_seat == ""


def test_the_confirmation_records_the_second_phone_and_its_seat(scorer, protocol):
    complete_on(scorer, protocol)
    second = Client()
    enter_pin(second, protocol, seat="D")
    assert confirm(second, protocol, "B").status_code == 302  # the phone confirms as the seat its PIN was given to
    protocol.refresh_from_db()
    assert protocol.status == Protocol.Status.CONFIRMED and protocol.confirmed_by_seat == "D"
    assert protocol.confirmed_by_grant and protocol.completed_by_grant
    assert protocol.confirmed_by_grant != protocol.completed_by_grant and protocol.confirmed_by_user is None
    totals, completed, confirmed = protocol.events.order_by("pk")
    assert (totals.action, totals.seat, totals.grant) == ("totals", "A", protocol.completed_by_grant)
    assert (completed.action, completed.seat, completed.grant) == ("completed", "A", protocol.completed_by_grant)
    assert (confirmed.action, confirmed.seat, confirmed.grant) == ("confirmed", "D", protocol.confirmed_by_grant)


# --- who sees the players before the draw is published ------------------------------


def test_an_unpublished_draw_shows_no_names_on_the_pin_page(client, protocol):
    names = [a.player.last_name for a in protocol.series.assignments.filter(table=protocol.table)]
    page = client.get(url(protocol)).content.decode()
    assert 'name="pin"' in page and not any(name in page for name in names)
    assert not any(name in enter_pin(client, protocol, wrong_pin(protocol)).content.decode() for name in names)


def test_the_pin_page_names_the_players_once_the_draw_is_published(client, protocol):
    names = [a.player.last_name for a in protocol.series.assignments.filter(table=protocol.table)]
    tournament = protocol.series.tournament
    tournament.draw_published = True
    tournament.save()
    page = client.get(url(protocol)).content.decode()
    assert all(name in page for name in names)


def test_the_referee_and_a_pin_holder_see_the_names_of_an_unpublished_draw(client, protocol):
    names = [a.player.last_name for a in protocol.series.assignments.filter(table=protocol.table)]
    referee = UserFactory()
    protocol.series.tournament.referees.add(referee)
    client.force_login(referee)
    assert all(name in client.get(url(protocol)).content.decode() for name in names)
    holder = Client()
    enter_pin(holder, protocol)
    assert all(name in holder.get(url(protocol, "pin")).content.decode() for name in names)


@pytest.fixture
def draft(protocol: Protocol) -> Protocol:
    """Table 1 of a tournament still a draft: not on the public pages yet."""
    tournament = protocol.series.tournament
    tournament.published = False
    tournament.save()
    return protocol


@pytest.mark.parametrize("page", ["protocol", "pin", "state_json"])
def test_a_draft_tournaments_table_pages_are_not_found_for_a_visitor(client, draft, page):
    response = client.get(url(draft, page))
    assert response.status_code == 404
    assert draft.series.tournament.name not in response.content.decode()
    assert enter_pin(client, draft).status_code == 404  # and its PIN opens nothing


def test_a_draft_tournaments_pin_page_opens_for_its_referee(client, draft):
    referee = UserFactory()
    draft.series.tournament.referees.add(referee)
    client.force_login(referee)
    assert draft.series.tournament.name in client.get(url(draft, "pin")).content.decode()
    assert enter_pin(client, draft).status_code == 302


# --- the referee's new PIN, and a closed series --------------------------------------


@pytest.fixture
def referee(protocol: Protocol) -> Client:
    user = UserFactory()
    protocol.series.tournament.referees.add(user)
    client = Client()
    client.force_login(user)
    return client


def referee_url(protocol: Protocol, name: str) -> str:
    series = protocol.series
    return reverse(f"results:{name}", args=[series.tournament.slug, series.number, protocol.table])


def test_a_new_pin_from_the_referee_ends_the_grants_of_the_old_one(scorer, referee, protocol):
    old_pin = protocol.pin
    assert referee.get(referee_url(protocol, "new_pin")).status_code == 405
    response = referee.post(referee_url(protocol, "new_pin"), follow=True)
    protocol.refresh_from_db()
    assert protocol.pin != old_pin and protocol.pin in response.content.decode()
    assert 'name="pin"' in scorer.get(url(protocol)).content.decode()
    assert save_line(scorer, protocol, "ac60").status_code == 403 and not protocol.rows.exists()
    assert enter_pin(Client(), protocol, old_pin).context["form"].has_error("pin", "wrong")
    assert enter_pin(scorer, protocol).status_code == 302
    event = protocol.events.get()
    assert event.action == "pin_renewed" and protocol.series.tournament.referees.filter(pk=event.user_id).exists()


def test_new_pins_for_the_series_end_the_grants_of_every_table(client, referee, series):
    first, second = series.protocols.order_by("table")
    phones = [Client(), Client()]
    for phone, table in zip(phones, (first, second), strict=True):
        enter_pin(phone, table)
    old = {p.pk: p.pin for p in (first, second)}
    response = referee.post(reverse("results:new_pins", args=[series.tournament.slug, series.number]), follow=True)
    for phone, table in zip(phones, (first, second), strict=True):
        table.refresh_from_db()
        assert table.pin != old[table.pk] and table.pin in response.content.decode()
        assert 'name="pin"' in phone.get(url(table)).content.decode()


def test_only_a_referee_gives_a_new_pin(scorer, protocol):
    outsider = Client()
    outsider.force_login(UserFactory())
    old_pin = protocol.pin
    assert outsider.post(referee_url(protocol, "new_pin")).status_code == 403
    assert scorer.post(referee_url(protocol, "new_pin")).status_code == 302  # to the login page
    protocol.refresh_from_db()
    assert protocol.pin == old_pin and not protocol.events.exists()


def test_a_closed_series_gives_no_new_grants_and_an_old_one_writes_nothing(scorer, protocol):
    save_line(scorer, protocol, "ac60")
    Series.objects.filter(pk=protocol.series_id).update(status=Series.Status.CLOSED)
    protocol.refresh_from_db()
    page = Client().get(url(protocol)).content.decode()
    assert "The series is closed" in page and 'name="pin"' not in page
    refused = enter_pin(Client(), protocol)
    assert refused.status_code == 403 and "The series is closed" in refused.content.decode()
    assert finish(scorer, protocol, {"A": 1, "B": -1, "C": 1, "D": -1}).status_code == 403
    assert confirm(scorer, protocol, "B").status_code == 403
    assert "The series is closed" in scorer.get(url(protocol)).content.decode()
    protocol.refresh_from_db()
    assert protocol.status == Protocol.Status.OPEN and protocol.declared_totals is None


def test_rows_are_described_beside_their_shorthand(scorer, protocol):
    save_line(scorer, protocol, "zakk-")
    content = scorer.get(url(protocol), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    row = content[content.index('<td class="what">') :]
    row = row[: row.index("</td>")]
    assert "zolo</b> A" in row and "×4" in row and "lost" in row
    assert "<code>zams-</code>" in row


def test_wrong_pins_from_a_phone_without_cookies_store_no_sessions(protocol):
    """A flood of cookie-less tries once added a fourteen-day session row each."""
    for n in range(12):
        enter_pin(Client(REMOTE_ADDR=f"10.1.0.{n}"), protocol, wrong_pin(protocol))
    assert Session.objects.count() == 0


def test_a_phone_that_keeps_its_cookie_is_locked_without_a_session(protocol):
    phone = Client(REMOTE_ADDR="10.2.0.1")
    for _ in range(pin.MAX_WRONG_TRIES):
        assert enter_pin(phone, protocol, wrong_pin(protocol)).status_code == 200
    assert enter_pin(phone, protocol).status_code == 403  # this phone, even with the right PIN
    assert enter_pin(Client(REMOTE_ADDR="10.2.0.1"), protocol).status_code == 302  # another one at that address


def test_a_grant_shows_nothing_once_the_series_is_closed_with_its_results_held_back(scorer, protocol):
    save_line(scorer, protocol, "ac60")
    Series.objects.filter(pk=protocol.series_id).update(status=Series.Status.CLOSED, results_published=False)

    page = scorer.get(url(protocol)).content.decode()

    assert "The series is closed" in page and 'class="rows"' not in page


def tie_posted(protocol: Protocol, **more: str) -> dict:
    """The button form's post of deal 1: an ordinary game of A and C, ticked a tie 52:52."""
    return {
        "number": 1,
        "version": protocol.version,
        "full-contract": "zwykla",
        "full-old": ["A", "C"],
        "full-tie": "on",
        **more,
    }


def test_a_tie_entered_with_the_buttons_is_stored_and_offered_again_for_correction(scorer, protocol):
    assert scorer.post(url(protocol, "save"), tie_posted(protocol)).status_code == 302
    row = protocol.rows.get(number=1)
    assert row.deal == {"contract": "zwykla", "old": ["A", "C"], "tie": True}
    as_52_eyes = {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 52}
    assert row.values == scoring.score_deal(as_52_eyes, tournament_ruleset(protocol.series.tournament)).values

    edit = scorer.get(url(protocol, "edit", 1))
    assert edit.context["deal_form"]["tie"].value() is True
    assert edit.context["row_form"]["line"].value() == "acr"


def test_a_tie_beside_counted_eyes_is_refused_by_the_button_form(scorer, protocol):
    assert scorer.post(url(protocol, "save"), tie_posted(protocol, **{"full-old_eyes": "60"})).status_code == 200
    assert not protocol.rows.exists()


def test_the_phone_s_buttons_offer_the_tie_and_keep_it_ticked_for_a_correction(scorer, protocol):
    assert 'name="full-tie"' in scorer.get(url(protocol)).content.decode()
    scorer.post(url(protocol, "save"), tie_posted(protocol))
    assert 'name="full-tie" checked' in scorer.get(url(protocol, "edit", 1)).content.decode()
