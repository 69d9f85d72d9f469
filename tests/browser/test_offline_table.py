"""The table phone without the network (issue 15), in a real browser at 390 px (and the tap sizes
at 1366 px too): deals typed offline wait on the phone, survive a reload served by the service
worker, and reach the server exactly once and in order when the network is back; a row the
referee wrote meanwhile is shown beside the phone's and the scorer chooses which stays."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

import scoring
from league.results import services
from league.results.models import DealRowVersion
from tests.browser.conftest import accessible, fits_the_screen, page  # noqa: F401  (the browser fixture)
from tests.factories import TournamentFactory, drawn_series

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots/offline-phone")
STORE = "baska-stolik-1"


def shot(page, name: str) -> None:  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.viewport_size['width']}.png"), full_page=True)


def until(check, seconds: float = 10.0) -> None:
    """Wait for ``check()`` (the page's CSP refuses Playwright's string functions, so poll from here)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.1)


def open_the_table(page, live_server, tournament=None):  # noqa: F811
    """A series in play, its table 1 opened on the phone with the PIN as seat A, the page kept for offline use."""
    protocol = drawn_series(tournament, tables=1, status="in_play").protocols.get()
    let_in(page, live_server, protocol, "A")
    return protocol


def let_in(page, live_server, protocol, seat: str, *, kept_offline: bool = True) -> None:  # noqa: F811
    """The phone opens the protocol's table with the PIN as ``seat``, the page kept for offline use
    unless told otherwise."""
    series = protocol.series
    table_url = reverse("table:protocol", args=[series.tournament.slug, series.number, protocol.table])
    page.goto(live_server.url + table_url)
    page.locator('input[name="pin"]').fill(protocol.pin)
    page.locator(f'label.tap:has(input[name="seat"][value="{seat}"])').click()
    page.get_by_role("button", name="Otwórz protokół").click()
    page.wait_for_url("**" + table_url)
    if not kept_offline:
        return
    expect(page.locator("#netbar")).to_have_attribute("data-state", "online")
    # the service worker took the page over and keeps the page, its script and the value table
    until(lambda: page.evaluate("navigator.serviceWorker.controller !== null"))
    assert page.context.service_workers and page.context.service_workers[0].url.endswith("/stolik/sw.js")
    kept = (
        f"caches.open('{STORE}').then(store => Promise.all([location.href.split('#')[0], "
        "document.querySelector('script[src*=\"table-offline\"]').src, "
        "location.pathname + 'tabela-wartosci.json'].map(url => store.match(url)))).then(found => found.every(Boolean))"
    )
    until(lambda: page.evaluate(kept))
    until(lambda: page.evaluate(f"localStorage.getItem('baska-stolik-wartosci:{table_url}') !== null"))


def tap(page, name: str, value: str) -> None:  # noqa: F811
    page.locator(f'#deal-form label.tap:has(input[name="full-{name}"][value="{value}"])').click()


def enter(page, contract: str, old: list[str], eyes: str = "", kontras: str = "") -> None:  # noqa: F811
    tap(page, "contract", contract)
    for seat in old:
        tap(page, "old", seat)
    if kontras:
        page.locator("#kontras").fill(kontras)
    if eyes:
        page.locator("#deal-form input.eyes").fill(eyes)
    page.get_by_role("button", name="Zapisz rozdanie").click()


def enter_stored(page, deals) -> None:  # noqa: F811
    """Each of ``deals`` typed once the one before is stored and the page reloaded from the server
    (its row shown): the quick scorer, typing on meanwhile, has a test of their own."""
    for number, (contract, old, eyes, kontras, _deal) in enumerate(deals, start=1):
        enter(page, contract, old, eyes, kontras)
        expect(page.locator(f"#row-{number}")).to_be_visible(timeout=15000)


DEALS = [
    ("zwykla", ["A", "C"], "60", "", {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}),
    ("zwykla", ["B", "D"], "70", "m", {"contract": "zwykla", "old": ["B", "D"], "kontras": ["young"], "old_eyes": 70}),
    ("zolo", ["B"], "30", "", {"contract": "zolo", "old": ["B"], "old_eyes": 30}),
    ("mester", ["D"], "", "", {"contract": "mester", "old": ["D"], "winner": "old"}),
    ("zwykla", ["A", "B"], "0", "", {"contract": "zwykla", "old": ["A", "B"], "old_eyes": 0}),
]


@pytest.mark.viewport("phone")
def test_deals_typed_offline_wait_on_the_phone_and_are_stored_once_in_order(page, live_server):  # noqa: F811
    protocol = open_the_table(page, live_server)
    page.context.set_offline(True)
    expect(page.locator("#netbar")).to_have_attribute("data-state", "offline")
    expect(page.locator("#netbar")).to_contain_text("brak sieci – zapisuję w telefonie")

    for number, (contract, old, eyes, kontras, _deal) in enumerate(DEALS, start=1):
        if contract == "mester":
            # a thrown game: the declarer's words, and "won" ticked by itself
            tap(page, "contract", contract)
            expect(page.locator("#deal-form fieldset legend").nth(1)).to_have_text("Rozgrywający", use_inner_text=True)
            expect(page.locator('input[name="full-winner"][value="old"]')).to_be_checked()
            won = page.locator('label.tap:has(input[name="full-winner"][value="old"])')
            expect(won).to_have_text("wygrał", use_inner_text=True)
        enter(page, contract, old, eyes, kontras)
        expect(page.locator("#waiting tbody tr")).to_have_count(number)
        expect(page.locator("#entry-title")).to_have_text(f"Rozdanie {number + 1}")
    expect(page.locator("#netbar .count")).to_have_text("czeka: 5")
    first = page.locator("#waiting tbody tr").first
    expect(first).to_contain_text("wstępnie")
    expect(first.locator("td").nth(2)).to_have_text("+1")  # the value table's +1 for A: puck, 60 eyes
    expect(page.locator(".players .player").first.locator(".provisional")).to_have_text("wstępnie")
    assert fits_the_screen(page)
    shot(page, "offline-waiting")

    page.reload()  # no network: the service worker serves the page, the queue is still there
    expect(page.locator("#netbar")).to_have_attribute("data-state", "offline")
    expect(page.locator("#waiting tbody tr")).to_have_count(5)
    assert not protocol.rows.exists()

    page.context.set_offline(False)
    expect(page.locator("#row-5")).to_be_visible(timeout=15000)  # all sent: the page as the server has it
    expect(page.locator("#waiting")).to_be_hidden()
    expect(page.locator("#netbar")).to_have_attribute("data-state", "online")
    assert [row.deal for row in protocol.rows.order_by("number")] == [deal for *_typed, deal in DEALS]
    assert protocol.history.count() == 5
    until(lambda: protocol.contacts.filter(waiting=0).exists())  # the control room no longer counts it offline
    shot(page, "online-again")


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


@pytest.mark.viewport("phone")
def test_the_phone_s_provisional_values_of_deals_with_kontras_are_the_stored_values(page, live_server):  # noqa: F811
    """The phone finds a deal's value by the value table's own description of its key: kontras
    repeated by one side, and a 52:52 tie that the last doubler loses (gorzow's rule)."""
    protocol = open_the_table(page, live_server, TournamentFactory(ruleset_preset="gorzow"))
    page.context.set_offline(True)
    enter(page, "zwykla", ["A", "B"], "52", "mms")  # two counted doublings, the old's last: the young win the tie
    enter(page, "zolo", ["C"], "30", "mm")  # one counted doubling
    enter(page, "zwykla", ["B", "D"], "70", "sm")
    rows = page.locator("#waiting tbody tr")
    expect(rows).to_have_count(3)
    provisional = [[cell.inner_text() for cell in row.locator("td").all()[2:]] for row in rows.all()]
    assert all(value != "\u2026" for values in provisional for value in values), provisional  # all found

    page.context.set_offline(False)
    expect(page.locator("#row-3")).to_be_visible(timeout=15000)
    stored = [[signed(value) for value in row.values.values()] for row in protocol.rows.order_by("number")]
    assert provisional == stored
    assert stored[0] == ["\u22124", "\u22124", "+4", "+4"]  # two doublings, the young (C, D) win the tie


@pytest.mark.viewport("phone")
def test_the_phone_values_queued_deals_in_a_bok_round_as_the_protocol_will(page, live_server):  # noqa: F811
    """psb: a 52:52 deal stored online starts a bok round; offline, the deals queued after it count
    double on the phone as they will in the protocol, and a tie among them queues the next round."""
    protocol = open_the_table(page, live_server, TournamentFactory(ruleset_preset="psb", deals_per_series=8))
    enter(page, "zwykla", ["A", "C"], "52")
    expect(page.locator("#row-1")).to_be_visible(timeout=15000)
    page.context.set_offline(True)
    expect(page.locator("#netbar")).to_have_attribute("data-state", "offline")
    for eyes in ("60", "52", "70", "60", "60", "60"):
        enter(page, "zwykla", ["A", "C"], eyes)
    rows = page.locator("#waiting tbody tr")
    expect(rows).to_have_count(6)
    provisional = [[cell.inner_text() for cell in row.locator("td").all()[2:]] for row in rows.all()]
    expect(page.locator("#waiting tbody .badge")).to_have_count(6)  # each marked "bok", as the protocol's rows
    shot(page, "bok-round-queued")
    accessible(page)

    page.context.set_offline(False)
    until(lambda: protocol.rows.count() == 7, 30)  # six deals sent one after another, on a busy machine too
    expect(page.locator("#row-7")).to_be_visible(timeout=30000)
    stored = list(protocol.rows.order_by("number"))
    assert [row.doubled for row in stored] == [False, True, True, True, True, True, True]
    assert provisional == [[signed(value) for value in row.values.values()] for row in stored[1:]]
    assert provisional[0] == ["+2", "\u22122", "+2", "\u22122"]  # 60 eyes: 1 each, doubled


@pytest.mark.viewport("phone")
def test_a_deal_whose_number_the_referee_took_meanwhile_is_stored_as_the_next_deal(page, live_server):  # noqa: F811
    protocol = open_the_table(page, live_server)
    enter(page, "zwykla", ["A", "C"], "60")
    expect(page.locator("#row-1")).to_be_visible()

    page.context.set_offline(True)
    enter(page, "zwykla", ["B", "D"], "80")  # deal 2 on the phone
    enter(page, "zwykla", ["A", "D"], "40")  # deal 3 on the phone
    protocol.refresh_from_db()
    referee_deal = {"contract": "zolo", "old": ["C"], "old_eyes": 90}
    services.protocol_row_save(
        protocol=protocol, number=2, deal=referee_deal, expected_version=protocol.version, author="sędzia"
    )
    page.context.set_offline(False)

    dialog = page.locator("dialog#conflict")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#conflict-title")).to_have_text("Rozdanie 2 jest już w protokole")
    expect(dialog.locator(".server .what")).to_contain_text("zolo")  # the protocol's words for the stored row
    expect(dialog.locator(".mine .what")).to_contain_text("gra zwykła B+D")
    expect(dialog.locator(".mine .vals")).to_have_text("A −2 · B +2 · C −2 · D +2")  # provisional, from the value table
    expect(page.locator("#netbar")).to_have_attribute("data-state", "blocked")
    # a new deal never replaces a stored one: store it as the next deal; the referee's is another
    # deal, so the phone's is not offered to be dropped (issue 38)
    expect(dialog.locator("button:visible")).to_have_text(["Zapisz moje jako rozdanie 3"])
    expect(dialog.get_by_role("link", name="Wpisz PIN jeszcze raz")).to_be_hidden()
    for button in dialog.locator("button:visible").all():
        assert button.bounding_box()["height"] >= 48
    assert protocol.rows.count() == 2
    shot(page, "conflict")
    accessible(page)

    dialog.get_by_role("button", name="Zapisz moje jako rozdanie 3").click()
    expect(page.locator("#row-4")).to_be_visible(timeout=15000)
    assert [row.deal.get("old") for row in protocol.rows.order_by("number")] == [
        ["A", "C"],
        ["C"],
        ["B", "D"],
        ["A", "D"],
    ]
    assert not protocol.history.filter(action=DealRowVersion.Action.CHANGE).exists()


@pytest.mark.viewport("phone")
def test_a_correction_of_a_row_the_referee_changed_meanwhile_shows_both_and_the_scorer_decides(page, live_server):  # noqa: F811
    protocol = open_the_table(page, live_server)
    enter(page, "zwykla", ["A", "C"], "60")
    enter(page, "zwykla", ["B", "D"], "70")
    expect(page.locator("#row-2")).to_be_visible(timeout=15000)

    page.locator("#row-2 a").click()  # the phone corrects deal 2 and loses the network meanwhile
    expect(page.locator("#entry-title")).to_have_text("Popraw rozdanie 2")
    page.context.set_offline(True)
    page.locator("#deal-form input.eyes").fill("80")
    page.get_by_role("button", name="Zapisz rozdanie").click()
    protocol.refresh_from_db()
    referee_deal = {"contract": "zolo", "old": ["C"], "old_eyes": 90}
    services.protocol_row_save(
        protocol=protocol, number=2, deal=referee_deal, expected_version=protocol.version, author="sędzia"
    )
    page.context.set_offline(False)

    dialog = page.locator("dialog#conflict")
    expect(dialog.locator("#conflict-title")).to_have_text(
        "Rozdanie 2: wersja w protokole różni się od twojej poprawki"
    )
    expect(dialog.locator(".server .what")).to_contain_text("zolo")
    expect(dialog.locator(".mine .what")).to_contain_text("gra zwykła B+D")
    expect(dialog.locator("button:visible")).to_have_text(["Zostaw wersję z protokołu", "Zapisz moją"])
    dialog.get_by_role("button", name="Zapisz moją").click()
    expect(page.locator("#waiting")).to_be_hidden(timeout=15000)
    assert [row.deal for row in protocol.rows.order_by("number")] == [
        {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60},
        {"contract": "zwykla", "old": ["B", "D"], "old_eyes": 80},
    ]
    change = protocol.history.filter(number=2, action=DealRowVersion.Action.CHANGE).last()
    assert change.author.startswith("stolik 1 (telefon)")


# The phone's store made slow (each IndexedDB transaction reports its end 0.8 s late), as on a busy phone.
SLOW_STORE = """
const transaction = IDBDatabase.prototype.transaction;
IDBDatabase.prototype.transaction = function (...args) {
  const tx = transaction.apply(this, args);
  let handler = null;
  tx.addEventListener("complete", (event) => { if (handler) setTimeout(() => handler.call(tx, event), 800); });
  Object.defineProperty(tx, "oncomplete", { set(fn) { handler = fn; }, get() { return handler; } });
  return tx;
};
"""


@pytest.mark.viewport("phone")
def test_the_next_deal_tapped_while_the_phone_still_stores_the_last_one_is_kept(page, live_server):  # noqa: F811
    """A quick scorer taps the next deal at once: the form is cleared when the deal is saved, not once
    the phone has stored it, so the taps made meanwhile stay and the deal is saved as typed."""
    page.add_init_script(SLOW_STORE)
    protocol = open_the_table(page, live_server)
    enter(page, "zwykla", ["A", "C"], "60")
    tap(page, "contract", "zolo")
    tap(page, "old", "B")
    until(lambda: protocol.rows.count() == 1)
    expect(page.locator('#deal-form input[name="full-contract"][value="zolo"]')).to_be_checked()
    expect(page.locator('#deal-form input[name="full-old"][value="B"]')).to_be_checked()

    page.locator("#deal-form input.eyes").fill("30")
    page.get_by_role("button", name="Zapisz rozdanie").click()
    expect(page.locator("#row-2")).to_be_visible(timeout=15000)
    assert [row.deal for row in protocol.rows.order_by("number")] == [
        {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60},
        {"contract": "zolo", "old": ["B"], "old_eyes": 30},
    ]


REFUSED_STORE = 'IDBFactory.prototype.open = function () { throw new DOMException("refused", "SecurityError"); };'


@pytest.mark.viewport("phone")
def test_a_phone_that_refuses_to_store_posts_the_deal_as_without_the_script(page, live_server):  # noqa: F811
    """Storage refused (a private window, a full phone): the form, cleared already, is filled again
    with the deal and posted to the server, which stores it."""
    protocol = drawn_series(None, tables=1, status="in_play").protocols.get()
    page.add_init_script(REFUSED_STORE)
    let_in(page, live_server, protocol, "A", kept_offline=False)

    enter(page, "zwykla", ["B", "D"], "70", "m")
    expect(page.locator("#row-1")).to_be_visible(timeout=15000)
    assert [row.deal for row in protocol.rows.all()] == [
        {"contract": "zwykla", "old": ["B", "D"], "kontras": ["young"], "old_eyes": 70}
    ]


@pytest.mark.viewport("phone")
def test_two_phones_typing_the_same_number_both_keep_their_deal_in_order(page, live_server):  # noqa: F811
    """Phone A types deal 1 without the network while phone B stores its deal 1: back online, A is
    offered to store its deal as deal 2, and the protocol holds both deals once each."""
    protocol = open_the_table(page, live_server)
    other = page.context.browser.new_context(viewport=page.viewport_size, locale="pl-PL")
    phone_b = other.new_page()
    let_in(phone_b, live_server, protocol, "C")

    page.context.set_offline(True)
    enter(page, "zwykla", ["A", "C"], "60")
    enter(phone_b, "zolo", ["B"], "30")
    expect(phone_b.locator("#row-1")).to_be_visible(timeout=15000)
    page.context.set_offline(False)

    dialog = page.locator("dialog#conflict")
    expect(dialog.locator("#conflict-title")).to_have_text("Rozdanie 1 jest już w protokole")
    expect(dialog.locator(".server .what")).to_contain_text("zolo B")
    expect(dialog.locator(".mine .what")).to_contain_text("gra zwykła A+C")
    expect(dialog).not_to_contain_text("sędzi")  # another phone's deal, not the referee's
    dialog.get_by_role("button", name="Zapisz moje jako rozdanie 2").click()
    expect(page.locator("#row-2")).to_be_visible(timeout=15000)
    assert [row.deal for row in protocol.rows.order_by("number")] == [
        {"contract": "zolo", "old": ["B"], "old_eyes": 30},
        {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60},
    ]
    assert protocol.history.count() == 2
    other.close()


def test_the_big_buttons_are_at_least_48_px(page, live_server):  # noqa: F811
    open_the_table(page, live_server)
    sizes = page.evaluate(
        "Array.from(document.querySelectorAll('#entry .tap span, #entry button.big, #entry .kontra-row button'))"
        ".filter(node => node.offsetParent !== null).map(node => node.getBoundingClientRect().height)"
    )
    assert len(sizes) > 20 and min(sizes) >= 48, sizes
    assert fits_the_screen(page)


def test_enter_in_the_eyes_field_saves_the_deal_and_the_players_names_are_readable(page, live_server):  # noqa: F811
    protocol = open_the_table(page, live_server)
    names = page.evaluate(
        "Array.from(document.querySelectorAll('.players .player .name'))"
        ".map(node => parseFloat(getComputedStyle(node).fontSize))"
    )
    assert len(names) == 4 and min(names) >= 14, names
    tap(page, "contract", "zwykla")
    for seat in ("A", "C"):
        tap(page, "old", seat)
    page.locator("#deal-form input.eyes").fill("60")
    page.locator("#deal-form input.eyes").press("Enter")
    until(lambda: protocol.rows.count() == 1)
    expect(page.locator("#entry-title")).to_have_text("Rozdanie 2")


@pytest.mark.viewport("phone")
def test_a_bok_row_marked_offline_on_the_phone_is_stored_marked(page, live_server):  # noqa: F811
    marked = {"bok_rounds": {"enabled": True, "trigger": "marked", "length": 4, "factor": 2, "max_per_series": 4}}
    rules = scoring.ruleset_to_dict(scoring.load_ruleset("pomorska")) | marked
    protocol = open_the_table(page, live_server, TournamentFactory(ruleset_preset="pomorska", ruleset_data=rules))
    page.context.set_offline(True)
    expect(page.locator("#netbar")).to_have_attribute("data-state", "offline")
    page.locator('#deal-form label.tap:has(input[name="full-bok_round"])').click()
    enter(page, "zwykla", ["A", "C"], "60")
    expect(page.locator("#waiting tbody tr")).to_have_count(1)
    page.context.set_offline(False)
    until(lambda: protocol.rows.count() == 1)
    row = protocol.rows.get()
    assert (row.doubled, row.values["A"]) == (True, 2)


@pytest.mark.viewport("phone")
def test_a_cicha_na_dobiciu_marked_offline_keeps_its_mark_and_its_kontra_is_not_counted(page, live_server):  # noqa: F811
    protocol = open_the_table(page, live_server, TournamentFactory(ruleset_preset="gorzow"))
    page.context.set_offline(True)
    expect(page.locator("#netbar")).to_have_attribute("data-state", "offline")
    page.locator("#deal-form details summary").click()
    page.locator('#deal-form label.tap:has(input[name="full-laid_down"])').click()
    page.locator('#deal-form label.tap:has(input[name="full-cicha_na_dobiciu"])').click()
    enter(page, "cicha", ["A"], kontras="m")
    expect(page.locator("#waiting tbody tr")).to_have_count(1)
    page.context.set_offline(False)
    until(lambda: protocol.rows.count() == 1)
    row = protocol.rows.get()
    assert (row.deal.get("cicha_na_dobiciu"), row.values["A"]) == (True, 12)


@pytest.mark.viewport("phone")
def test_a_deal_the_engine_refuses_waits_until_the_scorer_fixes_it(page, live_server):  # noqa: F811
    protocol = open_the_table(page, live_server)
    page.context.set_offline(True)
    enter(page, "zwykla", ["A"], "60")  # one old seat in an ordinary game: no value in the table
    expect(page.locator("#waiting tbody tr").first).to_contain_text("wartość po wysłaniu")
    enter(page, "zwykla", ["B", "D"], "70")
    page.context.set_offline(False)

    dialog = page.locator("dialog#conflict")
    expect(dialog.locator("#conflict-title")).to_have_text("Rozdanie 1 zostało odrzucone")
    expect(dialog.locator(".why")).not_to_be_empty()
    assert not protocol.rows.exists()
    dialog.get_by_role("button", name="Popraw moje rozdanie").click()
    expect(page.locator("#entry-title")).to_have_text("Popraw rozdanie 1")
    expect(page.locator('input[name="full-old"][value="A"]')).to_be_checked()
    tap(page, "old", "C")
    page.get_by_role("button", name="Zapisz rozdanie").click()
    expect(page.locator("#row-2")).to_be_visible(timeout=15000)
    assert [row.deal["old"] for row in protocol.rows.order_by("number")] == [["A", "C"], ["B", "D"]]


@pytest.mark.viewport("phone")
def test_a_phone_whose_pin_ended_keeps_its_deals_until_the_pin_is_entered_again(page, live_server):  # noqa: F811
    protocol = open_the_table(page, live_server)
    page.context.set_offline(True)
    enter(page, "zwykla", ["A", "C"], "60")
    protocol.refresh_from_db()
    protocol.pin = "4321" if protocol.pin != "4321" else "1234"  # the referee gave the table a new PIN
    protocol.save()
    page.context.set_offline(False)

    dialog = page.locator("dialog#conflict")
    expect(dialog.locator("#conflict-title")).to_have_text("Potrzebny jest ponownie PIN")
    shot(page, "pin-required")
    dialog.get_by_role("link", name="Wpisz PIN jeszcze raz").click()
    page.locator('input[name="pin"]').fill(protocol.pin)
    page.locator('label.tap:has(input[name="seat"][value="A"])').click()
    page.get_by_role("button", name="Otwórz protokół").click()
    expect(page.locator("#row-1")).to_be_visible(timeout=15000)  # the kept deal went out after the PIN
    assert protocol.rows.get().deal == {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60}


@pytest.mark.viewport("phone")
def test_a_deal_fixed_on_the_phone_is_sent_as_a_correction_of_its_row(page, live_server):  # noqa: F811
    protocol = open_the_table(page, live_server)
    enter(page, "zwykla", ["A", "C"], "60")
    expect(page.locator("#row-1")).to_be_visible()
    page.locator("#row-1 a").click()
    expect(page.locator("#entry-title")).to_have_text("Popraw rozdanie 1")
    page.locator("#deal-form input.eyes").fill("80")
    page.get_by_role("button", name="Zapisz rozdanie").click()
    expect(page.locator("#row-1")).to_contain_text("80 oczek")
    assert protocol.rows.get().deal["old_eyes"] == 80
    assert protocol.history.filter(action=DealRowVersion.Action.CHANGE).count() == 1


def kept_page_shows(page, text: str) -> bool:  # noqa: F811
    """The service worker's copy of this table's page contains ``text``."""
    return page.evaluate(
        f"caches.open('{STORE}').then(store => store.match(location.href.split('#')[0]))"
        f".then(found => found ? found.text() : '').then(html => html.includes({text!r}))"
    )


@pytest.mark.viewport("phone")
def test_a_reload_without_the_network_shows_the_deals_entered_online(page, live_server):  # noqa: F811
    """The phone's offline copy of the page follows the protocol: a reload without the network shows
    every stored row, the totals and the next deal's number as the server has them."""
    protocol = open_the_table(page, live_server)
    enter_stored(page, DEALS[:2])
    until(lambda: kept_page_shows(page, 'id="row-2"'), seconds=5)

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#netbar")).to_have_attribute("data-state", "offline")
    expect(page.locator("#row-1")).to_be_visible()
    expect(page.locator("#row-2")).to_be_visible()
    expect(page.locator("#entry-title")).to_have_text("Rozdanie 3")
    totals = [sum(row.values[seat] for row in protocol.rows.all()) for seat in "ABCD"]
    expect(page.locator(".players .player .total")).to_have_text([signed(total) for total in totals])
    assert [row.deal for row in protocol.rows.order_by("number")] == [deal for *_typed, deal in DEALS[:2]]


@pytest.mark.viewport("phone")
def test_a_correction_the_referee_made_while_the_phone_was_offline_is_shown_on_reconnecting(page, live_server):  # noqa: F811
    protocol = open_the_table(page, live_server)
    enter_stored(page, DEALS[:2])

    page.context.set_offline(True)
    protocol.refresh_from_db()
    services.protocol_row_save(
        protocol=protocol,
        number=1,
        deal={"contract": "zolo", "old": ["C"], "old_eyes": 90},
        expected_version=protocol.version,
        author="sędzia",
        reason="pomyłka przy wpisywaniu",
    )
    page.context.set_offline(False)

    changed = page.locator("#changed")
    expect(changed).to_contain_text("Rozdanie 1 zostało poprawione: było „gra zwykła A+C · 60 oczek”", timeout=15000)
    expect(changed).to_contain_text("jest „zolo C · 90 oczek”")
    expect(page.locator("#row-1")).to_contain_text("zolo C")  # the page reloaded: the server's rows and totals
    totals = [sum(row.values[seat] for row in protocol.rows.all()) for seat in "ABCD"]
    expect(page.locator(".players .player .total")).to_have_text([signed(total) for total in totals])
    expect(changed).to_be_visible()  # the note outlives the reload until the scorer closes it
    shot(page, "changed-meanwhile")
    changed.get_by_role("button", name="Rozumiem").click()
    expect(changed).to_be_hidden()
    assert [row.deal for row in protocol.rows.order_by("number")] == [
        {"contract": "zolo", "old": ["C"], "old_eyes": 90},
        DEALS[1][-1],
    ]


def three_queued_while_deal_1_is_stored_elsewhere(page, live_server, meanwhile):  # noqa: F811
    """Phone Y (``page``) queues three deals offline (A+C 60, B+D 70, zolo B 30) while
    ``meanwhile(protocol, browser)`` stores a deal 1 elsewhere; then Y is back online."""
    protocol = open_the_table(page, live_server)
    page.context.set_offline(True)
    enter(page, "zwykla", ["A", "C"], "60")
    enter(page, "zwykla", ["B", "D"], "70")
    enter(page, "zolo", ["B"], "30")
    meanwhile(protocol, page.context.browser)
    page.context.set_offline(False)
    return protocol


def phone_x_enters(live_server, eyes: str):
    """Phone X, at the same table, stores deal 1: A and C took ``eyes``."""

    def meanwhile(protocol, browser):
        other = browser.new_context(viewport={"width": 390, "height": 844}, locale="pl-PL")
        phone_x = other.new_page()
        let_in(phone_x, live_server, protocol, "C")
        enter(phone_x, "zwykla", ["A", "C"], eyes)
        expect(phone_x.locator("#row-1")).to_be_visible(timeout=15000)
        other.close()

    return meanwhile


STORED_AS_QUEUED = [
    {"contract": "zwykla", "old": ["A", "C"], "old_eyes": 60},
    {"contract": "zwykla", "old": ["B", "D"], "old_eyes": 70},
    {"contract": "zolo", "old": ["B"], "old_eyes": 30},
]


@pytest.mark.viewport("phone")
def test_two_phones_with_the_same_deal_1_store_it_once_and_the_next_deals_keep_their_numbers(page, live_server):  # noqa: F811
    protocol = three_queued_while_deal_1_is_stored_elsewhere(page, live_server, phone_x_enters(live_server, "60"))
    expect(page.locator("#row-3")).to_be_visible(timeout=15000)
    expect(page.locator("dialog#conflict")).to_be_hidden()
    assert [row.deal for row in protocol.rows.order_by("number")] == STORED_AS_QUEUED


@pytest.mark.viewport("phone")
def test_a_phone_drops_only_the_same_deal_and_its_next_deals_keep_their_numbers(page, live_server):  # noqa: F811
    """Issue 38: dropping the phone's deal 1 moved its deal 2 onto number 1, into the same dialog,
    inviting a second reflex drop of a real, different deal. The referee typed the same deal 1
    ("ca60": the old seats in another order): "drop mine" is offered, and the next deals keep 2 and 3."""

    def referee_types_ca60(protocol, browser):
        deal = {"contract": "zwykla", "old": ["C", "A"], "old_eyes": 60}
        services.protocol_row_save(protocol=protocol, number=1, deal=deal, expected_version=0, author="sędzia")

    protocol = three_queued_while_deal_1_is_stored_elsewhere(page, live_server, referee_types_ca60)
    dialog = page.locator("dialog#conflict")
    expect(dialog.locator("#conflict-title")).to_have_text("Rozdanie 1 jest już w protokole")
    expect(dialog.locator("button:visible")).to_have_text(["Zapisz moje jako rozdanie 2", "Usuń moje rozdanie"])
    shot(page, "same-deal")
    dialog.get_by_role("button", name="Usuń moje rozdanie").click()
    expect(page.locator("#row-3")).to_be_visible(timeout=15000)
    expect(dialog).to_be_hidden()
    assert [row.deal.get("old_eyes") for row in protocol.rows.order_by("number")] == [60, 70, 30]
    assert protocol.rows.count() == 3


@pytest.mark.viewport("phone")
def test_a_phone_is_not_offered_to_drop_a_deal_unlike_the_stored_one(page, live_server):  # noqa: F811
    """Phone X stored another deal 1 (two eyes apart): Y's three queued deals become 2, 3 and 4, none lost."""
    protocol = three_queued_while_deal_1_is_stored_elsewhere(page, live_server, phone_x_enters(live_server, "62"))
    dialog = page.locator("dialog#conflict")
    expect(dialog.locator("#conflict-title")).to_have_text("Rozdanie 1 jest już w protokole")
    expect(dialog.locator("button:visible")).to_have_text(["Zapisz moje jako rozdanie 2"])
    accessible(page)
    dialog.get_by_role("button", name="Zapisz moje jako rozdanie 2").click()
    expect(page.locator("#row-4")).to_be_visible(timeout=15000)
    assert [row.deal.get("old_eyes") for row in protocol.rows.order_by("number")] == [62, 60, 70, 30]
