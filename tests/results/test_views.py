"""The referee's results screens through the test client."""

import pytest
from django.urls import reverse

from league.results.models import Protocol
from tests.factories import ByeFactory, UserFactory, drawn_series
from tests.games.baska.results.test_shorthand import TYPICAL_PROTOCOL

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(client):
    user = UserFactory()
    client.force_login(user)
    return user


@pytest.fixture
def series(referee):
    series = drawn_series()
    series.tournament.referees.add(referee)
    return series


def url(series, name, *args):
    return reverse(f"results:{name}", args=[series.tournament.slug, series.number, *args])


def test_a_40_deal_protocol_typed_by_keyboard(client, series):
    page = url(series, "protocol", 1)
    assert client.get(page).status_code == 200
    for number, line in enumerate(TYPICAL_PROTOCOL, start=1):
        version = Protocol.objects.get(series=series).version
        preview = client.post(url(series, "preview", 1), {"number": number, "version": version, "line": line})
        assert preview.status_code == 200 and "errorlist" not in preview.content.decode()
        response = client.post(page, {"number": number, "version": version, "line": line})
        assert response.status_code == 302, response.content.decode()[:2000]
    protocol = Protocol.objects.get(series=series)
    rows = list(protocol.rows.all())
    assert len(rows) == 40
    assert rows[0].values == {"A": 1, "B": -1, "C": 1, "D": -1}  # ac60
    assert rows[8].values == {"A": 30, "B": -10, "C": -10, "D": -10}  # zak+
    assert all(sum(row.values.values()) == 0 for row in rows)
    assert 'name="line"' not in client.get(page).content.decode()  # all 40 deals are in


def test_an_invalid_line_is_explained_and_changes_nothing(client, series):
    response = client.post(url(series, "protocol", 1), {"number": 1, "version": 0, "line": "bac-"})
    assert response.status_code == 200
    assert "cannot be lost" in response.content.decode()
    assert not Protocol.objects.get(series=series).rows.exists()


def test_the_full_deal_form_saves_a_row(client, series):
    data = {"number": 1, "version": 0, "line": "", "full-contract": "zolo", "full-old": ["A"], "full-winner": "old"}
    assert client.post(url(series, "protocol", 1), data).status_code == 302
    assert Protocol.objects.get(series=series).rows.get().values == {"A": 15, "B": -5, "C": -5, "D": -5}


def test_totals_confirm_close_and_a_correction_in_history(client, series):
    client.post(url(series, "protocol", 1), {"number": 1, "version": 0, "line": "ac60"})
    wrong = client.post(url(series, "totals", 1), {"version": 1, "A": 2, "B": -2, "C": 1, "D": -1, "ended_early": "on"})
    assert wrong.content.decode().lower().count("paper minus screen") == 1  # said once
    protocol = Protocol.objects.get(series=series)
    client.post(
        url(series, "totals", 1), {"version": protocol.version, "A": 1, "B": -1, "C": 1, "D": -1, "ended_early": "on"}
    )
    protocol.refresh_from_db()
    assert protocol.status == "complete"
    client.post(url(series, "confirm", 1), {"version": protocol.version, "seat": "C"})
    ByeFactory(series=series)
    assert "40" in client.get(url(series, "series")).content.decode()
    client.post(url(series, "close"))
    series.refresh_from_db()
    assert series.status == "closed"
    protocol.refresh_from_db()
    refused = client.post(url(series, "correct", 1, 1), {"number": 1, "version": protocol.version, "line": "ac40"})
    assert "reason" in refused.content.decode()
    client.post(
        url(series, "correct", 1, 1), {"number": 1, "version": protocol.version, "line": "ac40", "reason": "Paper: 40"}
    )
    history = client.get(url(series, "history", 1)).content.decode()
    assert "Paper: 40" in history and "A −2" in history and "A +1" in history


def test_the_protocol_and_its_history_describe_the_deals(client, series):
    client.post(url(series, "protocol", 1), {"number": 1, "version": 0, "line": "ciamsm73"})
    page = client.get(url(series, "protocol", 1)).content.decode()
    cell = page[page.index('<td class="deal">') :]
    cell = cell[: cell.index("</td>")]
    assert "silent wedding (cicha)</b> A" in cell and "×8" in cell and "73 eyes" in cell
    assert "<code>ciamsm73</code>" in cell
    # The shorthand input and its button share one line.
    bar = page[page.index('<div class="entry-bar">') :]
    assert bar.index('name="line"') < bar.index("Save (Enter)") < bar.index("</div>")
    protocol = Protocol.objects.get(series=series)
    client.post(url(series, "correct", 1, 1), {"number": 1, "version": protocol.version, "line": "ac+bb"})
    history = client.get(url(series, "history", 1)).content.decode()
    assert "73 eyes" in history and "<code>ciamsm73</code>" in history
    assert "won, losers without a trick" in history and "<code>ac+bb</code>" in history


def test_the_preview_describes_the_typed_deal(client, series):
    preview = client.post(url(series, "preview", 1), {"number": 1, "version": 0, "line": "bd-bw"}).content.decode()
    assert "ordinary game</b> B+D" in preview and "lost, losers under the threshold" in preview


def test_a_referee_confirmation_from_the_completing_seat_is_refused(client, series):
    from league.games.baska.shorthand import parse
    from league.results import services

    protocol = series.protocols.get()
    protocol = services.protocol_row_save(
        protocol=protocol, number=1, deal=parse("ac60"), expected_version=0, author="table"
    )
    protocol = services.protocol_totals_set(
        protocol=protocol, totals={"A": 1, "B": -1, "C": 1, "D": -1}, expected_version=protocol.version
    )
    protocol = services.protocol_complete(
        protocol=protocol, expected_version=protocol.version, ended_early=True, seat="B"
    )
    response = client.post(url(series, "confirm", 1), {"version": protocol.version, "seat": "B"})
    assert response.context["confirm_form"].has_error("seat", "same_seat")
    assert "Seat B marked the protocol complete" in response.content.decode()
    assert client.post(url(series, "confirm", 1), {"version": protocol.version, "seat": "C"}).status_code == 302
    protocol.refresh_from_db()
    assert protocol.status == "confirmed"


def test_a_referee_confirmation_records_the_referee(client, series, referee):
    from league.games.baska.shorthand import parse
    from league.results import services

    protocol = services.protocol_row_save(
        protocol=series.protocols.get(), number=1, deal=parse("ac60"), expected_version=0, author="table"
    )
    protocol = services.protocol_totals_set(
        protocol=protocol, totals={"A": 1, "B": -1, "C": 1, "D": -1}, expected_version=protocol.version
    )
    protocol = services.protocol_complete(
        protocol=protocol, expected_version=protocol.version, ended_early=True, seat="B", grant="phone-1"
    )
    assert client.post(url(series, "confirm", 1), {"version": protocol.version, "seat": "C"}).status_code == 302
    protocol.refresh_from_db()
    assert (protocol.confirmed_by_seat, protocol.confirmed_by_user, protocol.confirmed_by_grant) == ("C", referee, "")
    history = client.get(url(series, "history", 1)).content.decode()
    assert "phone-1" in history and referee.username in history


def test_after_an_error_the_shorthand_field_keeps_the_focus_and_the_typed_line(client, series):
    response = client.post(url(series, "protocol", 1), {"number": 1, "version": 0, "line": "=2,-2,2"})
    page = response.content.decode()
    field = page[page.index('name="line"') - 200 : page.index('name="line"') + 200]
    field = field[field.rindex("<input") :]
    field = field[: field.index(">")]
    assert "autofocus" in field and 'value="=2,-2,2"' in field
    assert "four numbers" in page and "got 3" in page


def test_a_user_without_the_role_is_told_whom_to_ask_on_a_protocol_page(client, series):
    organiser = UserFactory(first_name="Ola", last_name="Organizatorka")
    series.tournament.organisers.add(organiser)
    client.force_login(UserFactory())
    response = client.get(url(series, "protocol", 1))
    assert response.status_code == 403 and "Ola Organizatorka" in response.content.decode()


def test_the_protocol_writes_losses_with_a_minus_sign_and_wins_with_a_plus(client, series):
    client.post(url(series, "protocol", 1), {"number": 1, "version": 0, "line": "ac60"})

    sheet = client.get(url(series, "protocol", 1)).content.decode().split('id="sheet"', 1)[1]
    row = sheet.split("<tbody>", 1)[1].split("</tr>", 1)[0]

    assert ">−1<" in row and ">+1<" in row and ">-1<" not in row


def test_the_full_deal_form_offers_a_tie_and_the_protocol_describes_it(client, series):
    page = url(series, "protocol", 1)
    assert 'name="full-tie"' in client.get(page).content.decode()
    data = {"number": 1, "version": 0, "line": "", "full-contract": "zwykla", "full-old": ["A", "C"], "full-tie": "on"}
    assert client.post(page, data).status_code == 302
    assert Protocol.objects.get(series=series).rows.get().deal == {"contract": "zwykla", "old": ["A", "C"], "tie": True}
    assert "tie at 52:52" in client.get(page).content.decode()


def test_the_correction_page_offers_the_deal_line_first_then_deleting_and_the_reason(client, series):
    client.post(url(series, "protocol", 1), {"number": 1, "version": 0, "line": "ac60"})
    page = client.get(url(series, "correct", 1, 1)).content.decode()
    positions = [page.index(f'name="{name}"') for name in ("line", "delete", "reason")]
    assert positions == sorted(positions)
    assert 'value="ac60"' in page
