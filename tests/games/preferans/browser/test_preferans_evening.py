"""In a real browser: a Preferans evening of 12 players end to end, through the app's Polish screens.

Preferans is played to a **pulka** (the sheet each table fills up to the agreed total;
docs/preferans.md). The organiser (at 1366 px) creates a Sochi tournament of pulkas to 8 at
tables of 4, registers and checks in 12 players, draws series 1 and prints a table's pulka
sheet. The referee (on a phone, 390 px) writes each table's pulka deal by deal: unwhisted
contracts, a whisted one with a remiz (a failed contract's points on the mountain), a misère,
one deal the engine refuses, a correction with its reason, a referee's penalty ("równe za
równe", equal for equal); one table closes its pulka by agreement. The public then reads the
standings, a table's sheet and settlement, and the "Rozliczenie pulki" calculator.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from league.games import game_of
from league.games.preferans.demo import play_pulka
from league.games.preferans.pulka import protocol_pulka
from league.models import Series, Tournament
from league.standings.compute import tournament_standings
from tests.browser.conftest import fits_the_screen
from tests.browser.test_organisers_day import (  # the organiser's day's own helpers: one way to drive the app
    browser,  # noqa: F401 (a fixture)
    log_in,
    open_pdf,
    organiser_group,
    person,
    polish_number,
    public_row,
    registration_row,
    signed,
    window,
)
from tests.factories import ClubFactory, PlayerFactory, game_settings

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/shots-preferans")
NAME = "Wieczór preferansa w Pucku"
TOTAL = 8  # a pulka to 8 among four: a few deals a table, the same screens as a pulka to 50
PLAYERS = [
    ("Anna", "Wistowska", "F"),
    ("Bogdan", "Remizowski", "M"),
    ("Celina", "Górska", "F"),
    ("Dariusz", "Mizerski", "M"),
    ("Edyta", "Pulkowska", "F"),
    ("Feliks", "Kontraktowy", "M"),
    ("Grażyna", "Lewicka", "F"),
    ("Henryk", "Sochacki", "M"),
    ("Irena", "Atutowa", "F"),
    ("Jerzy", "Rozdawacz", "M"),
    ("Kinga", "Pikowa", "F"),
    ("Leszek", "Treflowy", "M"),
]
# With four at a table the dealer sits each deal out and the deal passes to the left: A deals
# first, then B, C, D; a penalty does not pass the deal on. (contract, declarer, tricks, whisters)
TABLE_1 = [
    ("7S", "B", None, {}),  # A deals; nobody whists: made without play
    ("8H", "C", 7, {"D": 3}),  # B deals; corrected below to 6 tricks, a remiz of two
    ("misere", "D", 0, {}),  # C deals; D's pulka is full, the rest helps B
    ("7C", "A", None, {}),  # D deals (after the penalty, entry 4)
    ("8NT", "C", None, {}),
    ("7D", "A", None, {}),
    ("6S", "B", None, {}),
    ("6C", "C", None, {}),
]
TABLE_2 = [("6H", "B", None, {}), ("7NT", "C", 8, {"A": 2}), ("misere", "A", 1, {})]  # then closed by agreement
TABLE_3 = [("10NT", "B", None, {}), ("10S", "C", None, {}), ("8H", "D", None, {}), ("8C", "A", 8, {"B": 2})]


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def entries(page):
    """The sheet's rows of entries (an empty sheet has one row saying so, without numbers)."""
    return page.locator(".pulka-sheet tbody tr:has(td.num)")


def deal_in(page, number: int, contract: str, declarer: str, tricks: int | None, whisters: dict[str, int]) -> None:
    """Fill the pulka deal form and send it; wait for entry ``number`` on the sheet."""
    page.locator("#id_contract").select_option(contract)
    page.locator("#id_declarer").select_option(declarer)
    if tricks is not None:
        page.locator("#id_tricks").fill(str(tricks))
    for seat, taken in whisters.items():
        page.locator(f"#id_whist_{seat}").check()
        page.locator(f"#id_tricks_{seat}").fill(str(taken))
    page.get_by_role("button", name="Zapisz rozdanie").click()
    expect(entries(page)).to_have_count(number)


def ranked_names(page) -> list[str]:
    """The players of the individual standings (the page's first table), best first."""
    return page.locator("table").first.locator("tbody tr td a").all_inner_texts()


def parse_signed(text: str) -> int:
    """ "+35", "0", "−109" as printed (the minus sign) back to a number."""
    return int(text.strip().replace("−", "-").replace("+", ""))


def settled_balances(page, seats: str) -> dict[str, int]:
    """The settlement's balances as the page shows them (beside each name), a row per seat in seating order."""
    rows = page.locator(".pulka-settlement tbody tr")
    expect(rows).to_have_count(len(seats))
    return {seat: parse_signed(rows.nth(i).locator("td").nth(1).inner_text()) for i, seat in enumerate(seats)}


def finish_as_referee(page, protocol) -> dict[str, int]:
    """Type the paper's totals (the settled balances the page shows), mark the protocol complete
    and confirm it from the signed paper; return the totals typed."""
    balances = settled_balances(page, "ABCD")
    assert balances == dict(protocol_pulka(protocol=protocol).settlement.balance)
    assert sum(balances.values()) == 0
    for seat, total in balances.items():
        page.locator(f"#totals input[name={seat}]").fill(str(total))
    page.get_by_role("button", name="Sprawdź i oznacz jako kompletny").click()
    page.get_by_text("Protokół jest kompletny").wait_for()
    page.locator("select[name=seat]").select_option("B")
    page.get_by_role("button", name="Potwierdź").click()
    page.get_by_text("Protokół został potwierdzony.").wait_for()
    return balances


def close_series(page, series: Series) -> None:
    page.get_by_role("link", name="wszystkie stoliki").click()
    page.get_by_role("link", name="Zamknij serię").click()
    page.get_by_role("button", name="Tak, zamknij serię").click()
    page.get_by_text("Seria jest zamknięta.").first.wait_for()
    series.refresh_from_db()
    assert series.status == Series.Status.CLOSED and series.results_published


def test_a_preferans_evening_of_twelve_from_the_draw_to_the_public_standings(browser, live_server):  # noqa: F811
    SHOTS.mkdir(exist_ok=True)
    visited: list[str] = []
    organiser = person("organizator", "Ewa", "Organizatorska")
    organiser.groups.add(organiser_group())
    referee = person("sedzia", "Jan", "Sędziowski")
    club = ClubFactory(name="Klub Preferansa Puck")
    players = [PlayerFactory(first_name=f, last_name=last, gender=g, club=club) for f, last, g in PLAYERS]

    # --- the organiser creates a Preferans tournament, publishes it and adds the referee --------
    page = window(browser, "desktop", visited)
    log_in(page, live_server, "organizator", reverse("tournaments:create"))
    page.locator("#id_game").select_option("preferans")
    expect(page.locator("#id_pulka_total")).to_be_visible()
    expect(page.locator("#id_deals_per_series")).to_be_hidden()  # Baśka's settings step aside
    page.locator("#id_name").fill(NAME)
    page.locator("#id_date").fill("2026-12-05")
    page.locator("#id_venue").fill("Puck, Dom Kultury")
    page.locator("#id_pulka_variant").select_option("sochi")
    page.locator("#id_pulka_total").fill(str(TOTAL))
    page.locator("#id_table_size").select_option("4")
    page.locator("#id_series_count").fill("2")
    shot(page, "01-new-preferans-tournament")
    page.get_by_role("button", name="Utwórz turniej").click()
    page.get_by_role("button", name="Opublikuj turniej").click()
    page.get_by_role("button", name="Opublikuj turniej").wait_for(state="detached")
    tournament = Tournament.objects.get(name=NAME)
    assert tournament.published and game_of(tournament).key == "preferans"
    settings = game_settings(tournament)
    assert (settings.pulka_variant, settings.pulka_total, tournament.table_size) == ("sochi", TOTAL, 4)
    assert "Gra: Preferans." in page.locator("main").inner_text()

    page.get_by_role("link", name="Sędziowie i współorganizatorzy").click()
    page.get_by_role("searchbox").fill("sedzia")  # the staff search finds an exact username or e-mail only
    page.get_by_role("button", name="Szukaj").click()
    page.get_by_role("button", name="Dodaj jako sędziego").click()
    page.get_by_text("Wysłano zaproszenie: Jan Sędziowski").wait_for()
    assert not tournament.referees.exists()  # a referee joins once they accept the invitation

    # --- 12 players found by name (typed without Polish letters) and registered, all checked in ---
    page.get_by_role("link", name="Zgłoszenia").click()
    for player in players:
        page.locator("#id_q").fill(player.last_name.replace("ó", "o").replace("ż", "z"))
        hit = page.locator("#search-results li", has_text=player.full_name)
        try:
            hit.wait_for(timeout=15_000)
        except PlaywrightTimeout:
            # the search answers as the user types (htmx, 300 ms after the last key); on a loaded machine
            # the answer to the previous search can land last: a user then presses Enter, and so do we
            page.locator("#id_q").press("Enter")
            hit.wait_for(timeout=15_000)
        hit.get_by_role("button", name="Zgłoś").click()
        registration_row(page, player.full_name).wait_for()
    ticks = page.locator("input[name=registrations]")
    expect(ticks).to_have_count(12)
    for index in range(12):
        ticks.nth(index).check()
    page.get_by_role("button", name="Zaznaczeni obecni").click()
    expect(page.get_by_role("button", name="nieobecny")).to_have_count(0)
    assert tournament.registrations.filter(checked_in=True).count() == 12
    shot(page, "02-registered-and-present")

    # --- series 1 drawn at three tables of four, the draw published, table 1's pulka sheet printed ---
    page.get_by_role("link", name="Losowanie", exact=True).click()
    page.locator("#id_seed").fill("2026")
    page.get_by_role("button", name="Rozlosuj serię 1").click()
    page.locator("#series-1 table").wait_for()
    first = tournament.series.get(number=1)
    assert first.assignments.count() == 12
    assert set(first.assignments.values_list("table", flat=True)) == {1, 2, 3}
    shot(page, "03-draw-series-1")
    page.get_by_role("link", name="Program").click()
    page.get_by_role("button", name="Opublikuj losowanie").click()
    page.get_by_role("button", name="Ukryj losowanie").wait_for()
    page.get_by_role("link", name="Wydruki").click()
    shot(page, "04-printing")
    one_table = page.locator("section", has_text="Seria 1").locator("details")
    one_table.locator("summary", has_text="Jeden stolik").click()
    sheet = open_pdf(page, one_table.get_by_role("link", name="1", exact=True))
    table_1 = {a.seat: a.player for a in first.assignments.filter(table=1).select_related("player")}
    for player in table_1.values():
        assert player.full_name in sheet
    assert f"Pulka do {TOTAL}" in sheet

    # --- the referee, on a phone, writes table 1's pulka deal by deal ------------------------------
    phone = window(browser, "phone", visited)
    log_in(phone, live_server, "sedzia", reverse("tournaments:list"))
    phone.get_by_role("button", name="Przyjmij").click()
    phone.get_by_text("Dołączono do").first.wait_for()
    assert list(tournament.referees.all()) == [referee]
    phone.goto(live_server.url + reverse("results:series", args=[tournament.slug, 1]))
    phone.get_by_role("link", name="Stolik 1", exact=True).click()
    protocol_1 = first.protocols.get(table=1)
    assert "Jeszcze bez wpisów." in phone.locator(".pulka-sheet").inner_text()
    shot(phone, "05-referee-empty-pulka")
    assert fits_the_screen(phone)
    deal_in(phone, 1, *TABLE_1[0])

    # B deals the second deal and, with four players, sits it out: refused in Polish, nothing stored
    phone.locator("#id_contract").select_option("7H")
    phone.locator("#id_declarer").select_option("B")
    phone.get_by_role("button", name="Zapisz rozdanie").click()
    refusal = phone.locator("#entry .errorlist", has_text="rozdaje w tym rozdaniu")
    refusal.wait_for()
    shot(phone, "06-refused-dealer-declares")
    assert fits_the_screen(phone)
    assert protocol_1.rows.count() == 1
    expect(entries(phone)).to_have_count(1)

    deal_in(phone, 2, *TABLE_1[1])
    deal_in(phone, 3, *TABLE_1[2])
    # a player wrote 2 too many into his pulka: the referee's penalty puts them on his mountain
    phone.locator("#pulka-penalty summary").click()
    phone.locator("#id_column").select_option("pulka")
    phone.locator("#id_player").select_option("B")
    phone.locator("#id_size").fill("2")
    phone.locator("#id_penalty_reason").fill("dopisał sobie 2 do pulki")
    phone.get_by_role("button", name="Zapisz karę").click()
    expect(entries(phone)).to_have_count(4)
    assert "dopisał sobie 2 do pulki" in entries(phone).nth(3).inner_text()
    for number, deal in enumerate(TABLE_1[3:6], start=5):
        deal_in(phone, number, *deal)

    # the 8 hearts was two short, not one: corrected with the reason, and the sheet follows
    entries(phone).nth(1).get_by_role("link", name="popraw").click()
    phone.locator("#id_tricks").fill("6")
    phone.locator("#id_tricks_D").fill("4")
    phone.locator("#id_reason").fill("na papierze 6 lew rozgrywającego, D 4")
    shot(phone, "07-correction")
    assert fits_the_screen(phone)
    phone.get_by_role("button", name="Zapisz poprawkę").click()
    phone.get_by_text("Wpis 2 został poprawiony.").wait_for()
    assert protocol_1.rows.get(number=2).deal["tricks"] == 6
    for number, deal in enumerate(TABLE_1[6:], start=8):
        deal_in(phone, number, *deal)
    phone.get_by_text("Pulka jest rozegrana.").wait_for()
    expect(phone.locator("#entry")).to_have_count(0)  # over: no further deal offered
    shot(phone, "08-table-1-played-out")
    assert fits_the_screen(phone)
    balances_1 = finish_as_referee(phone, protocol_1)
    assert balances_1 == {"A": 35, "B": -5, "C": -109, "D": 79}
    phone.get_by_role("link", name="historia zmian").click()
    logged = phone.locator("table.history tbody tr", has_text="na papierze 6 lew rozgrywającego")
    assert "Jan Sędziowski" in logged.inner_text()
    phone.go_back()

    # --- table 2 stops after three deals: the pulka closed by agreement -------------------------------
    phone.get_by_role("link", name="wszystkie stoliki").click()
    phone.get_by_role("link", name="Stolik 2", exact=True).click()
    for number, deal in enumerate(TABLE_2, start=1):
        deal_in(phone, number, *deal)
    assert phone.locator(".pulka-settlement").count() == 0  # nothing settled while it is played
    phone.locator("#pulka-close summary").click()
    phone.get_by_role("button", name="Tak, zamknij pulkę").click()
    phone.locator("#pulka-state", has_text="Pulka jest zamknięta za porozumieniem.").wait_for()
    expect(phone.locator("#entry")).to_have_count(0)
    assert "za porozumieniem" in phone.locator(".pulka-settlement").inner_text()
    shot(phone, "09-table-2-closed-by-agreement")
    assert fits_the_screen(phone)
    protocol_2 = first.protocols.get(table=2)
    assert finish_as_referee(phone, protocol_2) == {"A": -82, "B": 30, "C": 42, "D": 10}

    # --- table 3 played out in four deals, the full pulkas helping the others' ------------------------
    phone.get_by_role("link", name="wszystkie stoliki").click()
    phone.get_by_role("link", name="Stolik 3", exact=True).click()
    for number, deal in enumerate(TABLE_3, start=1):
        deal_in(phone, number, *deal)
    assert finish_as_referee(phone, first.protocols.get(table=3)) == {"A": -32, "B": 32, "C": 20, "D": -20}
    close_series(phone, first)
    shot(phone, "10-series-1-closed")

    # --- the public, on a phone and at a desk: the standings, a table's sheet, the calculator ---------
    public = {width: window(browser, width, visited) for width in ("phone", "desktop")}
    standings = tournament_standings(tournament, published_only=True)["individual"]
    assert len(standings) == 12
    for width, reader in public.items():
        reader.goto(live_server.url + reverse("public:standings", args=[tournament.slug]))
        shot(reader, f"11-standings-after-series-1-{width}")
        assert fits_the_screen(reader), width
    reader = public["desktop"]
    assert ranked_names(reader) == [entry["name"] for entry in standings]
    # big points by place at the table (3/2/1/0), then the settled whists
    seats_by_table = {
        table: {a.seat: a.player.full_name for a in first.assignments.filter(table=table).select_related("player")}
        for table in (1, 2, 3)
    }
    by_name = {entry["name"]: entry for entry in standings}
    for table, balances in ((1, balances_1), (2, {"A": -82, "B": 30, "C": 42, "D": 10})):
        places = sorted(balances, key=balances.get, reverse=True)
        for points, seat in zip((3, 2, 1, 0), places, strict=True):
            name = seats_by_table[table][seat]
            assert by_name[name]["big_points"] == points and by_name[name]["small_points"] == balances[seat]
            cells = [cell.strip() for cell in public_row(reader, name).locator("td").all_inner_texts()]
            assert polish_number(points) in cells and signed(balances[seat]) in cells, (name, cells)
    for seated in seats_by_table.values():
        assert sum(by_name[name]["small_points"] for name in seated.values()) == 0
    assert [(e["big_points"], e["small_points"]) for e in standings] == sorted(
        ((e["big_points"], e["small_points"]) for e in standings), reverse=True
    )

    for width, reader in public.items():
        reader.goto(live_server.url + reverse("public:table", args=[tournament.slug, 1, 1]))
        text = reader.locator("main").inner_text()
        assert "Rozliczenie pulki" in text and all(p.full_name in text for p in table_1.values())
        assert "−109" in reader.locator(".pulka-settlement").inner_text()
        shot(reader, f"12-public-table-1-{width}")
        assert fits_the_screen(reader), width

    # the seed's Leningrad example: three at 48 in a pulka to 50, Ala plays an eight and reaches 54
    for width, reader in public.items():
        reader.goto(live_server.url + reverse("pulka_calculator"))
        for i, name in enumerate(("Ala", "Bartek", "Celina"), start=1):
            reader.locator(f"#id_name_{i}").fill(name)
        reader.locator("#id_variant").select_option("leningrad")
        reader.locator("#id_total").fill("50")
        reader.get_by_role("button", name="Zacznij pulkę").click()
        reader.get_by_role("button", name="Wpisz rozdanie").wait_for()
        typed = 0
        for declarer in "ABC":  # 48 each: four ten no-trumps and a nine, nobody whisting
            for contract in ("10NT", "10NT", "10NT", "10NT", "9S"):
                reader.locator("#id_contract").select_option(contract)
                reader.locator("#id_declarer").select_option(declarer)
                reader.get_by_role("button", name="Wpisz rozdanie").click()
                typed += 1
                expect(entries(reader)).to_have_count(typed)
        reader.locator("#id_contract").select_option("8S")
        reader.locator("#id_declarer").select_option("A")
        reader.get_by_role("button", name="Wpisz rozdanie").click()
        settlement = reader.locator(".pulka-settlement tbody tr")
        expect(settlement).to_have_count(3)
        # beside each name the balance, then the mountain at the end (the seed: −8, +4, +4)
        mountains = [parse_signed(settlement.nth(i).locator("td").nth(2).inner_text()) for i in range(3)]
        assert mountains == [-8, 4, 4]
        assert [settlement.nth(i).locator("td").first.inner_text() for i in range(3)] == [
            "A – Ala",
            "B – Bartek",
            "C – Celina",
        ]
        shot(reader, f"13-calculator-leningrad-{width}")
        assert fits_the_screen(reader), width

    # --- series 2: drawn by the organiser; table 1 through the phone, the others through the services ---
    page.get_by_role("link", name="Losowanie", exact=True).click()
    page.get_by_role("button", name="Rozlosuj serię 2").click()
    page.locator("#series-2 table").wait_for()
    second = tournament.series.get(number=2)
    phone.goto(live_server.url + reverse("results:protocol", args=[tournament.slug, 2, 1]))
    for number, deal in enumerate(TABLE_3, start=1):
        deal_in(phone, number, *deal)
    finish_as_referee(phone, second.protocols.get(table=1))
    # tables 2 and 3 are filled in the test's thread by league.games.preferans.demo.play_pulka (the results services:
    # rows saved, totals, complete, confirm) to keep the walk short; one of them closed by agreement
    for protocol in second.protocols.exclude(table=1).order_by("table"):
        play_pulka(
            random.Random(protocol.pk), protocol, referee=referee, close_after=3 if protocol.table == 3 else None
        )
    close_series(phone, second)

    final = tournament_standings(tournament, published_only=True)["individual"]
    reader = public["desktop"]
    reader.goto(live_server.url + reverse("public:standings", args=[tournament.slug]))
    shot(reader, "14-final-standings-desktop")
    assert ranked_names(reader) == [entry["name"] for entry in final]
    for entry in final:
        cells = [cell.strip() for cell in public_row(reader, entry["name"]).locator("td").all_inner_texts()]
        assert polish_number(entry["big_points"]) in cells and signed(entry["small_points"]) in cells, cells
    assert sum(entry["big_points"] for entry in final) == 2 * 3 * 6  # 3+2+1+0 at each table of each series
    assert sum(entry["small_points"] for entry in final) == 0
    for series in (first, second):
        for protocol in series.protocols.all():
            assert sum(protocol_pulka(protocol=protocol).settlement.balance.values()) == 0
    assert not [url for url in visited if "/admin/" in url]
